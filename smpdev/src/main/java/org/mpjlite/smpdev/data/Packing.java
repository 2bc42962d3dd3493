package org.mpjlite.smpdev.data;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import mpjbuf.BufferFactory;

/**
 * Moves the data of a derived datatype between a user buffer and a contiguous form, run by run
 * through the {@link TypeMap}:
 * <ul>
 *   <li>gather into a pooled stash of typed sections ({@code mpjbuf}), what a non-contiguous or
 *       object message carries, and scatter back out of any {@link ElementSource};</li>
 *   <li>pack into, and unpack out of, packed data: the elements one after the other, native byte
 *       order, in a {@code byte[]} or {@code ByteBuffer} ({@code MPI.PACKED}), or elements of the base
 *       type one after the other in an array of that type (the temporaries of collectives). Objects
 *       are packed as a length (4 bytes) followed by their serialization ({@link ObjectSerializer}).</li>
 * </ul>
 * Positions and origins are bytes ({@link TypeMap}). Stateless; thread-safe.
 */
public final class Packing {
    private Packing() {
    }

    /**
     * Bytes that packing {@code items} items of {@code map} takes at most, as packed data or as the
     * typed sections of an mpjbuf buffer (whichever is larger).
     */
    public static int packSize(TypeMap map, int items) {
        return (int) Math.max(map.size() * items, stashBytes(map, items));
    }

    /** Static bytes a stash of {@code items} items of {@code map} needs at most. */
    static int stashBytes(TypeMap map, int items) {
        if (map.base() != null) {
            return mpjbuf.Buffer.sectionBytes(map.base().bufType(), Math.toIntExact(map.elements() * items));
        }
        long bytes = 0;
        for (int r = 0; r < map.runs(); r++) {
            bytes += mpjbuf.Buffer.sectionBytes(map.type(r).bufType(), map.length(r));
        }
        return Math.toIntExact(bytes * items);
    }

    /**
     * Gathers {@code items} items of {@code map} from byte {@code origin} of {@code buffer} into a
     * committed stash from {@code pool}; the caller frees it.
     *
     * @throws IllegalArgumentException if an object element is not serializable
     */
    public static mpjbuf.Buffer gather(BufferFactory pool, Object buffer, long origin, int items, TypeMap map) {
        mpjbuf.Buffer b = pool.getBuffer(stashBytes(map, items));
        try {
            gatherInto(b, buffer, origin, items, map);
            b.commit();
            return b;
        } catch (RuntimeException e) {
            b.free();
            throw e;
        }
    }

    /**
     * Appends {@code items} items of {@code map} from byte {@code origin} of {@code buffer} to
     * {@code b} (being written) as typed sections, starting a new section.
     *
     * @throws IllegalArgumentException if an object element is not serializable
     * @throws mpjbuf.OverflowException if {@code b} is too small
     */
    public static void gatherInto(mpjbuf.Buffer b, Object buffer, long origin, int items, TypeMap map) {
        if (map.isObjects()) {
            Object[] objects = ObjectSerializer.objects(buffer, origin, items, map);
            b.putSectionHeader(mpjbuf.Type.OBJECT);
            b.write(objects, 0, objects.length);
            return;
        }
        // A section per run of one element type: gatheredEnd sizes these sections the same way.
        mpjbuf.Type[] section = new mpjbuf.Type[1];
        map.walk(origin, items, Long.MAX_VALUE, (type, pos, n) -> {
            if (section[0] != type.bufType()) {
                section[0] = type.bufType();
                b.putSectionHeader(section[0]);
            }
            UserMemory.Place p = UserMemory.at(buffer, pos, type, false);
            Stash.put(b, p.target(), p.index(), n, type);
        });
    }

    /**
     * The byte of {@code b}'s static storage that {@link #gatherInto} of {@code items} items of
     * {@code map} would write up to, from its write position (a section per run of one element type,
     * each starting aligned with its header; objects take a header there and the rest in dynamic
     * storage). Compared with the capacity first, a pack that does not fit writes nothing.
     */
    public static long gatheredEnd(mpjbuf.Buffer b, int items, TypeMap map) {
        if (map.isObjects()) {
            return alignedSection(b.position()) + mpjbuf.Buffer.SECTION_HEADER_BYTES;
        }
        long[] end = {b.position()};
        mpjbuf.Type[] section = new mpjbuf.Type[1];
        map.walk(0, items, Long.MAX_VALUE, (type, pos, n) -> {
            if (section[0] != type.bufType()) {
                section[0] = type.bufType();
                end[0] = alignedSection(end[0]) + mpjbuf.Buffer.SECTION_HEADER_BYTES;
            }
            end[0] += (long) n * section[0].size();
        });
        return end[0];
    }

    /** Where a section written after byte {@code at} starts. */
    private static long alignedSection(long at) {
        int a = mpjbuf.Buffer.SECTION_ALIGNMENT;
        return (at + a - 1) / a * a;
    }

    /**
     * Reads {@code items} items of {@code map} out of the next sections of {@code b} (committed) into
     * byte {@code origin} of {@code buffer}; objects resolve their classes in {@code loader}.
     *
     * @throws mpjbuf.UnderflowException if {@code b} holds fewer elements
     * @throws IllegalStateException if a section holds another type than {@code map}'s next elements
     */
    public static void scatterFrom(mpjbuf.Buffer b, ClassLoader loader, Object buffer, long origin, int items,
                                   TypeMap map) {
        scatter(ElementSource.stash(b, loader), buffer, origin, items, map.elements() * items, map);
    }

    /**
     * Fails as {@link #scatterFrom} would for a section of another type or too few elements, reading
     * nothing: called first, it makes such a failure leave {@code b} where it was.
     *
     * @throws mpjbuf.UnderflowException if {@code b} holds fewer elements
     * @throws IllegalStateException if a section holds another type than {@code map}'s next elements
     */
    public static void checkScatterFrom(mpjbuf.Buffer b, Object buffer, long origin, int items, TypeMap map) {
        scatter(ElementSource.checking(b), buffer, origin, items, map.elements() * items, map);
    }

    /**
     * Scatters the first {@code elements} elements of {@code source} into {@code items} items of
     * {@code map} from byte {@code origin} of {@code buffer}.
     */
    public static void scatter(ElementSource source, Object buffer, long origin, int items, long elements, TypeMap map) {
        map.walk(origin, items, elements, (type, pos, n) -> source.take(type, buffer, pos, false, n));
    }

    /**
     * Packs {@code items} items of {@code map} from byte {@code origin} of {@code buffer} into
     * {@code out} from byte {@code outPos}; returns the position after the packed data.
     *
     * @throws IllegalArgumentException if an object element is not serializable
     * @throws IndexOutOfBoundsException if {@code out} is too small
     */
    public static long pack(Object buffer, long origin, int items, TypeMap map, Object out, long outPos) {
        if (map.isObjects()) {
            byte[] bytes = ObjectSerializer.serialize(ObjectSerializer.objects(buffer, origin, items, map));
            long room = (out instanceof byte[] ? ((byte[]) out).length : ((ByteBuffer) out).capacity()) - outPos;
            if (room < 4L + bytes.length) {
                throw new IndexOutOfBoundsException("the objects take " + (4 + bytes.length) + " packed bytes, "
                    + room + " are left");
            }
            ByteBuffer o = packedBytes(out, outPos, 4 + bytes.length);
            o.putInt(bytes.length).put(bytes);
            return outPos + 4 + bytes.length;
        }
        long[] at = {outPos};
        map.walk(origin, items, Long.MAX_VALUE, (type, pos, n) -> {
            UserMemory.copy(UserMemory.at(buffer, pos, type, false), UserMemory.at(out, at[0], type, true), n, type);
            at[0] += (long) n * type.size();
        });
        return at[0];
    }

    /**
     * A new packed copy of {@code items} items of {@code map} from byte {@code origin} of
     * {@code buffer}: their elements one after the other in an array of the map's base type, or in
     * native-order bytes when the map mixes base types. Not for object maps.
     */
    public static Object packedCopy(Object buffer, long origin, int items, TypeMap map) {
        BasicType base = map.base();
        int units = Math.toIntExact(base != null ? map.elements() * items : map.size() * items);
        Object copy = base != null ? base.newArray(units) : new byte[units];
        pack(buffer, origin, items, map, copy, 0);
        return copy;
    }

    /**
     * Unpacks {@code items} items of {@code map} out of {@code in} from byte {@code inPos} into byte
     * {@code origin} of {@code buffer}; returns the position after the data read. Objects resolve
     * their classes in {@code loader}.
     */
    public static long unpack(Object in, long inPos, Object buffer, long origin, int items, TypeMap map,
                              ClassLoader loader) {
        if (map.isObjects()) {
            ByteBuffer i = packedBytes(in, inPos, 4);
            int length = i.getInt();
            byte[] bytes = new byte[length];
            packedBytes(in, inPos + 4, length).get(bytes);
            Object[] objects = ObjectSerializer.deserialize(bytes, 0, length, Math.toIntExact(map.elements() * items),
                loader);
            ObjectSerializer.place(objects, buffer, origin, items, map);
            return inPos + 4 + length;
        }
        long[] at = {inPos};
        map.walk(origin, items, Long.MAX_VALUE, (type, pos, n) -> {
            UserMemory.copy(UserMemory.at(in, at[0], type, true), UserMemory.at(buffer, pos, type, false), n, type);
            at[0] += (long) n * type.size();
        });
        return at[0];
    }

    /**
     * A private copy of a whole user buffer: a heap ByteBuffer of the same capacity and byte order
     * for a ByteBuffer, else an array of {@code type} with the buffer's elements.
     */
    public static Object copyOf(Object buffer, BasicType type) {
        if (buffer instanceof ByteBuffer) {
            ByteBuffer b = (ByteBuffer) buffer;
            ByteBuffer copy = ByteBuffer.allocate(b.capacity()).order(b.order());
            copy.put(0, b.duplicate().clear(), 0, b.capacity());
            return copy;
        }
        int n = type.capacityOf(buffer);
        Object copy = buffer instanceof Object[] ? new Object[n] : type.newArray(n);
        Copier.copy(buffer, 0, copy, 0, n, type);
        return copy;
    }

    /** A native-order window of {@code length} bytes at {@code pos} of a byte array or buffer. */
    private static ByteBuffer packedBytes(Object bytes, long pos, int length) {
        ByteBuffer b = bytes instanceof byte[] ? ByteBuffer.wrap((byte[]) bytes) : ((ByteBuffer) bytes).duplicate();
        b.clear();
        return b.position((int) pos).limit((int) pos + length).slice().order(ByteOrder.nativeOrder());
    }
}
