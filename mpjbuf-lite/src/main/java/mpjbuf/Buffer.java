package mpjbuf;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Objects;

/**
 * A message buffer made of sections, each a header followed by elements of one {@link Type}.
 *
 * <p>Primitive elements go to <em>static</em> storage of fixed {@link #capacity()} (a block from the factory's pool);
 * {@link Type#OBJECT} elements are serialized into growable <em>dynamic</em> storage and only their section header
 * takes static space. The life cycle is: {@link BufferFactory#getBuffer(int)}, then sections written with
 * {@link #putSectionHeader(Type)} and {@code write}/{@code gather}, {@link #commit()}, then sections read with
 * {@link #getSectionHeader()} and {@code read}/{@code scatter}, and finally {@link #free()}. {@link #clear()} makes it
 * writable again. {@link #lookahead()} shows the sections ahead without reading them, so that a reader can check
 * that a whole read will succeed before it starts.
 *
 * <p>Static layout: every section starts at a multiple of {@value #SECTION_ALIGNMENT} bytes with a
 * {@value #SECTION_HEADER_BYTES}-byte header (a native-order {@code long}: element count {@code << 8 | type
 * ordinal}); its elements follow at once and are therefore aligned to their own size, which lets every copy use the
 * typed NIO views of {@link TypedViews}. {@link #sectionBytes(Type, int)} gives the bytes one section needs.
 * Multi-byte elements are stored in the buffer's {@linkplain #setEncoding(ByteOrder) encoding}, native order by
 * default.
 *
 * <p>Thread safety: a buffer is not thread-safe and is owned by one thread at a time. Handing it to another thread
 * (sender to receiver) must go through a happens-before edge such as a concurrent queue or a lock; that edge publishes
 * its contents and state. {@link #free()} is the one exception: it atomically swaps the state to freed
 * ({@code getAndSet}, full fence), so of two racing frees exactly one succeeds and the other gets an
 * {@link IllegalStateException}; the pool can never receive the same block twice. Use after free is detected while
 * the buffer is free; pooled buffer objects are reused, so a stale reference used after the object has been handed
 * out again cannot be told apart from its new owner.
 */
public final class Buffer
{
    /** Bytes of the header that starts every section. */
    public static final int SECTION_HEADER_BYTES = 8;

    /** Every section starts at a multiple of this many bytes. */
    public static final int SECTION_ALIGNMENT = 8;

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final int FREE = 0;
    private static final int WRITING = 1;
    private static final int READING = 2;
    private static final VarHandle STATE;

    static
    {
        try
        {
            STATE = MethodHandles.lookup().findVarHandle(Buffer.class, "state", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    final BufferFactory factory;
    final RawStorage storage;
    /** Pool region index, or -1 if the storage was allocated for this buffer alone. */
    final int region;
    /** Offset of the block in units of {@link BufferFactory#MIN_BLOCK_BYTES} within its region. */
    final int blockIndex;
    /** Size class: the block is {@code MIN_BLOCK_BYTES << level} bytes; -1 when unpooled. Changed by Buddy2 only. */
    int level;
    /** Buddy2 free-list links and the level this buffer is free at (-1 when not free); guarded by its region lock. */
    Buffer nextFree;
    Buffer prevFree;
    int freeLevel = -1;

    private final LongBuffer headers;
    private int state;
    private int capacity;
    private ByteOrder encoding;
    private TypedViews views;
    private int position;
    private int limit;
    private int sectionStart;
    private Type sectionType;
    private int sectionCount;
    private int sectionUsed;
    private ObjectStorage objects;

    Buffer(final BufferFactory factory, final RawStorage storage, final int region, final int blockIndex,
        final int level)
    {
        this.factory = factory;
        this.storage = storage;
        this.region = region;
        this.blockIndex = blockIndex;
        this.level = level;
        headers = storage.views(NATIVE).longs;
    }

    /**
     * Static-storage bytes one section of {@code count} elements needs: header plus elements plus padding up to the
     * next {@value #SECTION_ALIGNMENT}-byte boundary. Summing this over the sections of a message gives a capacity
     * that always suffices. An {@link Type#OBJECT} section needs the header only.
     *
     * @param type  element type.
     * @param count number of elements, not negative.
     * @return bytes needed.
     * @throws IllegalArgumentException if {@code count} is negative or the size exceeds {@code int} range.
     */
    public static int sectionBytes(final Type type, final int count)
    {
        if (count < 0)
        {
            throw new IllegalArgumentException("negative element count: " + count);
        }
        final long bytes = SECTION_HEADER_BYTES + align((long)count * type.size());
        if (bytes > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException(count + " " + type + " elements do not fit in one buffer");
        }
        return (int)bytes;
    }

    /**
     * @return static storage capacity in bytes, as requested from the factory.
     */
    public int capacity()
    {
        checkLive();
        return capacity;
    }

    /**
     * @return static bytes written so far while writing, or committed bytes while reading.
     */
    public int size()
    {
        final int state = checkLive();
        return state == WRITING ? position : limit;
    }

    /**
     * @return byte offset in static storage of the next write while writing, or just after the last element read
     *         while reading (0 right after {@link #commit()}).
     */
    public int position()
    {
        checkLive();
        return position;
    }

    /**
     * Start a section; subsequent writes append elements of {@code type} to it. Ends the previous section.
     *
     * @param type element type of the section.
     * @throws IllegalStateException if the buffer is freed or committed.
     * @throws OverflowException     if the header does not fit.
     */
    public void putSectionHeader(final Type type)
    {
        Objects.requireNonNull(type, "type");
        checkWriting();
        closeSection();
        final int start = (int)align(position);
        if (start + SECTION_HEADER_BYTES > capacity)
        {
            throw new OverflowException("cannot start a " + type + " section at byte " + start + ": header needs " +
                SECTION_HEADER_BYTES + " bytes, capacity is " + capacity);
        }
        sectionStart = start;
        sectionType = type;
        sectionCount = 0;
        position = start + SECTION_HEADER_BYTES;
    }

    public void write(final byte[] src, final int off, final int n)
    {
        final int at = writeAt(Type.BYTE, n);
        views.bytes.put(at, src, off, n);
        wrote(n, n);
    }

    public void write(final char[] src, final int off, final int n)
    {
        final int at = writeAt(Type.CHAR, n);
        views.chars.put(at >> 1, src, off, n);
        wrote(n, n << 1);
    }

    public void write(final short[] src, final int off, final int n)
    {
        final int at = writeAt(Type.SHORT, n);
        views.shorts.put(at >> 1, src, off, n);
        wrote(n, n << 1);
    }

    public void write(final boolean[] src, final int off, final int n)
    {
        final int at = writeAt(Type.BOOLEAN, n);
        Objects.checkFromIndexSize(off, n, src.length);
        final ByteBuffer bytes = views.bytes;
        for (int i = 0; i < n; i++)
        {
            bytes.put(at + i, src[off + i] ? (byte)1 : (byte)0);
        }
        wrote(n, n);
    }

    public void write(final int[] src, final int off, final int n)
    {
        final int at = writeAt(Type.INT, n);
        views.ints.put(at >> 2, src, off, n);
        wrote(n, n << 2);
    }

    public void write(final long[] src, final int off, final int n)
    {
        final int at = writeAt(Type.LONG, n);
        views.longs.put(at >> 3, src, off, n);
        wrote(n, n << 3);
    }

    public void write(final float[] src, final int off, final int n)
    {
        final int at = writeAt(Type.FLOAT, n);
        views.floats.put(at >> 2, src, off, n);
        wrote(n, n << 2);
    }

    public void write(final double[] src, final int off, final int n)
    {
        final int at = writeAt(Type.DOUBLE, n);
        views.doubles.put(at >> 3, src, off, n);
        wrote(n, n << 3);
    }

    /**
     * Append {@code n} bytes of {@code src} starting at absolute index {@code srcIndex}; the position and limit of
     * {@code src} are ignored and left unchanged. The same holds for every NIO {@code write} and {@code read}.
     */
    public void write(final ByteBuffer src, final int srcIndex, final int n)
    {
        final int at = writeAt(Type.BYTE, n);
        views.bytes.put(at, wholeOf(src, srcIndex, n), srcIndex, n);
        wrote(n, n);
    }

    /** Append {@code n} chars of {@code src} from absolute index {@code srcIndex}, read in {@code src}'s order. */
    public void write(final CharBuffer src, final int srcIndex, final int n)
    {
        final int at = writeAt(Type.CHAR, n);
        views.chars.put(at >> 1, wholeOf(src, srcIndex, n), srcIndex, n);
        wrote(n, n << 1);
    }

    public void write(final ShortBuffer src, final int srcIndex, final int n)
    {
        final int at = writeAt(Type.SHORT, n);
        views.shorts.put(at >> 1, wholeOf(src, srcIndex, n), srcIndex, n);
        wrote(n, n << 1);
    }

    public void write(final IntBuffer src, final int srcIndex, final int n)
    {
        final int at = writeAt(Type.INT, n);
        views.ints.put(at >> 2, wholeOf(src, srcIndex, n), srcIndex, n);
        wrote(n, n << 2);
    }

    public void write(final LongBuffer src, final int srcIndex, final int n)
    {
        final int at = writeAt(Type.LONG, n);
        views.longs.put(at >> 3, wholeOf(src, srcIndex, n), srcIndex, n);
        wrote(n, n << 3);
    }

    public void write(final FloatBuffer src, final int srcIndex, final int n)
    {
        final int at = writeAt(Type.FLOAT, n);
        views.floats.put(at >> 2, wholeOf(src, srcIndex, n), srcIndex, n);
        wrote(n, n << 2);
    }

    public void write(final DoubleBuffer src, final int srcIndex, final int n)
    {
        final int at = writeAt(Type.DOUBLE, n);
        views.doubles.put(at >> 3, wholeOf(src, srcIndex, n), srcIndex, n);
        wrote(n, n << 3);
    }

    /**
     * Append {@code src[indexes[idxOff + i]]} for {@code i} in {@code [0, n)}: the elements of a derived datatype.
     * If an index is out of bounds nothing is appended.
     */
    public void gather(final byte[] src, final int[] indexes, final int idxOff, final int n)
    {
        final int at = gatherAt(Type.BYTE, indexes, idxOff, n);
        final ByteBuffer bytes = views.bytes;
        for (int i = 0; i < n; i++)
        {
            bytes.put(at + i, src[indexes[idxOff + i]]);
        }
        wrote(n, n);
    }

    public void gather(final char[] src, final int[] indexes, final int idxOff, final int n)
    {
        final int at = gatherAt(Type.CHAR, indexes, idxOff, n) >> 1;
        final CharBuffer chars = views.chars;
        for (int i = 0; i < n; i++)
        {
            chars.put(at + i, src[indexes[idxOff + i]]);
        }
        wrote(n, n << 1);
    }

    public void gather(final short[] src, final int[] indexes, final int idxOff, final int n)
    {
        final int at = gatherAt(Type.SHORT, indexes, idxOff, n) >> 1;
        final ShortBuffer shorts = views.shorts;
        for (int i = 0; i < n; i++)
        {
            shorts.put(at + i, src[indexes[idxOff + i]]);
        }
        wrote(n, n << 1);
    }

    public void gather(final boolean[] src, final int[] indexes, final int idxOff, final int n)
    {
        final int at = gatherAt(Type.BOOLEAN, indexes, idxOff, n);
        final ByteBuffer bytes = views.bytes;
        for (int i = 0; i < n; i++)
        {
            bytes.put(at + i, src[indexes[idxOff + i]] ? (byte)1 : (byte)0);
        }
        wrote(n, n);
    }

    public void gather(final int[] src, final int[] indexes, final int idxOff, final int n)
    {
        final int at = gatherAt(Type.INT, indexes, idxOff, n) >> 2;
        final IntBuffer ints = views.ints;
        for (int i = 0; i < n; i++)
        {
            ints.put(at + i, src[indexes[idxOff + i]]);
        }
        wrote(n, n << 2);
    }

    public void gather(final long[] src, final int[] indexes, final int idxOff, final int n)
    {
        final int at = gatherAt(Type.LONG, indexes, idxOff, n) >> 3;
        final LongBuffer longs = views.longs;
        for (int i = 0; i < n; i++)
        {
            longs.put(at + i, src[indexes[idxOff + i]]);
        }
        wrote(n, n << 3);
    }

    public void gather(final float[] src, final int[] indexes, final int idxOff, final int n)
    {
        final int at = gatherAt(Type.FLOAT, indexes, idxOff, n) >> 2;
        final FloatBuffer floats = views.floats;
        for (int i = 0; i < n; i++)
        {
            floats.put(at + i, src[indexes[idxOff + i]]);
        }
        wrote(n, n << 2);
    }

    public void gather(final double[] src, final int[] indexes, final int idxOff, final int n)
    {
        final int at = gatherAt(Type.DOUBLE, indexes, idxOff, n) >> 3;
        final DoubleBuffer doubles = views.doubles;
        for (int i = 0; i < n; i++)
        {
            doubles.put(at + i, src[indexes[idxOff + i]]);
        }
        wrote(n, n << 3);
    }

    /**
     * Serialize {@code src[off .. off+n)} into dynamic storage as elements of the current {@link Type#OBJECT}
     * section. All or nothing: if one object fails to serialize, none is appended.
     *
     * @throws IllegalArgumentException if an object is not serializable.
     */
    public void write(final Object[] src, final int off, final int n)
    {
        writeAt(Type.OBJECT, n);
        Objects.checkFromIndexSize(off, n, src.length);
        if (objects == null)
        {
            objects = new ObjectStorage();
        }
        objects.write(src, off, n);
        wrote(n, 0);
    }

    /**
     * End writing and prepare to read from the first section. On a buffer already committed, rewind to the first
     * section.
     *
     * @throws IllegalStateException if the buffer is freed.
     */
    public void commit()
    {
        if (checkLive() == WRITING)
        {
            closeSection();
            limit = position;
            state = READING;
        }
        position = 0;
        sectionType = null;
        if (objects != null)
        {
            objects.rewind();
        }
    }

    /**
     * Move to the next section, skipping any unread elements of the current one.
     *
     * @return the element type of the section now current.
     * @throws UnderflowException    if there is no further section.
     * @throws IllegalStateException if the buffer is not committed, is freed, or the header is corrupt.
     */
    public Type getSectionHeader()
    {
        checkReading();
        final int next = nextSectionStart();
        final long header = headerAt(next);
        if (sectionType == Type.OBJECT && sectionUsed < sectionCount)
        {
            objects.skip(sectionCount - sectionUsed);
        }
        sectionStart = next;
        sectionType = Type.ofOrdinal((int)(header & 0xFF));
        sectionCount = (int)(header >>> 8);
        sectionUsed = 0;
        position = next + SECTION_HEADER_BYTES;
        return sectionType;
    }

    /**
     * The sections after the current one, looked at without reading: {@link Lookahead#nextSection()} moves as
     * {@link #getSectionHeader()} would, and the buffer stays where it is. A caller checks with it that a whole read
     * will succeed before it starts one, so that a read that would fail leaves the buffer as it was.
     *
     * @throws IllegalStateException if the buffer is not committed or is freed.
     */
    public Lookahead lookahead()
    {
        checkReading();
        return new Lookahead(nextSectionStart());
    }

    /**
     * A look at the sections of a committed buffer from a header on ({@link #lookahead()}). Not thread-safe; valid
     * while the buffer is neither read on nor cleared.
     */
    public final class Lookahead
    {
        private int next;
        private int count;

        private Lookahead(final int next)
        {
            this.next = next;
        }

        /**
         * Moves to the next section, as {@link Buffer#getSectionHeader()} would.
         *
         * @return the element type of the section now looked at.
         * @throws UnderflowException    if there is no further section.
         * @throws IllegalStateException if the header is corrupt.
         */
        public Type nextSection()
        {
            final long header = headerAt(next);
            final Type type = Type.ofOrdinal((int)(header & 0xFF));
            count = (int)(header >>> 8);
            next = (int)align(next + SECTION_HEADER_BYTES + (long)count * type.size());
            return type;
        }

        /**
         * @return element count of the section looked at.
         */
        public int sectionSize()
        {
            return count;
        }
    }

    /** Where the header after the current section is (the read position before the first section). */
    private int nextSectionStart()
    {
        return sectionType == null ? position
            : (int)align(sectionStart + SECTION_HEADER_BYTES + (long)sectionCount * sectionType.size());
    }

    /** The header at byte {@code at}, checked against the committed bytes. */
    private long headerAt(final int at)
    {
        if (at + SECTION_HEADER_BYTES > limit)
        {
            throw new UnderflowException("no further section: the next header would be at byte " + at +
                " but only " + limit + " bytes were committed");
        }
        final long header = headers.get(at >> 3);
        final Type type = Type.ofOrdinal((int)(header & 0xFF));
        final long count = header >>> 8;
        if (type == null || at + SECTION_HEADER_BYTES + count * type.size() > limit)
        {
            throw new IllegalStateException("corrupt section header at byte " + at + ": 0x" +
                Long.toHexString(header));
        }
        return header;
    }

    /**
     * Element count of the current section: all of it while reading, written so far while writing.
     *
     * @throws IllegalStateException if there is no current section or the buffer is freed.
     */
    public int getSectionSize()
    {
        checkLive();
        if (sectionType == null)
        {
            throw new IllegalStateException("no current section");
        }
        return sectionCount;
    }

    public void read(final byte[] dst, final int off, final int n)
    {
        final int at = readAt(Type.BYTE, n);
        views.bytes.get(at, dst, off, n);
        consumed(n, n);
    }

    public void read(final char[] dst, final int off, final int n)
    {
        final int at = readAt(Type.CHAR, n);
        views.chars.get(at >> 1, dst, off, n);
        consumed(n, n << 1);
    }

    public void read(final short[] dst, final int off, final int n)
    {
        final int at = readAt(Type.SHORT, n);
        views.shorts.get(at >> 1, dst, off, n);
        consumed(n, n << 1);
    }

    public void read(final boolean[] dst, final int off, final int n)
    {
        final int at = readAt(Type.BOOLEAN, n);
        Objects.checkFromIndexSize(off, n, dst.length);
        final ByteBuffer bytes = views.bytes;
        for (int i = 0; i < n; i++)
        {
            dst[off + i] = bytes.get(at + i) != 0;
        }
        consumed(n, n);
    }

    public void read(final int[] dst, final int off, final int n)
    {
        final int at = readAt(Type.INT, n);
        views.ints.get(at >> 2, dst, off, n);
        consumed(n, n << 2);
    }

    public void read(final long[] dst, final int off, final int n)
    {
        final int at = readAt(Type.LONG, n);
        views.longs.get(at >> 3, dst, off, n);
        consumed(n, n << 3);
    }

    public void read(final float[] dst, final int off, final int n)
    {
        final int at = readAt(Type.FLOAT, n);
        views.floats.get(at >> 2, dst, off, n);
        consumed(n, n << 2);
    }

    public void read(final double[] dst, final int off, final int n)
    {
        final int at = readAt(Type.DOUBLE, n);
        views.doubles.get(at >> 3, dst, off, n);
        consumed(n, n << 3);
    }

    /** Copy {@code n} bytes to {@code dst} from its absolute index {@code dstIndex}; position and limit unchanged. */
    public void read(final ByteBuffer dst, final int dstIndex, final int n)
    {
        final int at = readAt(Type.BYTE, n);
        wholeOf(dst, dstIndex, n).put(dstIndex, views.bytes, at, n);
        consumed(n, n);
    }

    public void read(final CharBuffer dst, final int dstIndex, final int n)
    {
        final int at = readAt(Type.CHAR, n);
        wholeOf(dst, dstIndex, n).put(dstIndex, views.chars, at >> 1, n);
        consumed(n, n << 1);
    }

    public void read(final ShortBuffer dst, final int dstIndex, final int n)
    {
        final int at = readAt(Type.SHORT, n);
        wholeOf(dst, dstIndex, n).put(dstIndex, views.shorts, at >> 1, n);
        consumed(n, n << 1);
    }

    public void read(final IntBuffer dst, final int dstIndex, final int n)
    {
        final int at = readAt(Type.INT, n);
        wholeOf(dst, dstIndex, n).put(dstIndex, views.ints, at >> 2, n);
        consumed(n, n << 2);
    }

    public void read(final LongBuffer dst, final int dstIndex, final int n)
    {
        final int at = readAt(Type.LONG, n);
        wholeOf(dst, dstIndex, n).put(dstIndex, views.longs, at >> 3, n);
        consumed(n, n << 3);
    }

    public void read(final FloatBuffer dst, final int dstIndex, final int n)
    {
        final int at = readAt(Type.FLOAT, n);
        wholeOf(dst, dstIndex, n).put(dstIndex, views.floats, at >> 2, n);
        consumed(n, n << 2);
    }

    public void read(final DoubleBuffer dst, final int dstIndex, final int n)
    {
        final int at = readAt(Type.DOUBLE, n);
        wholeOf(dst, dstIndex, n).put(dstIndex, views.doubles, at >> 3, n);
        consumed(n, n << 3);
    }

    /**
     * Store the next {@code n} elements at {@code dst[indexes[idxOff + i]]}: the inverse of {@code gather}. If an
     * index is out of bounds, elements before it are stored but none is consumed.
     */
    public void scatter(final byte[] dst, final int[] indexes, final int idxOff, final int n)
    {
        final int at = scatterAt(Type.BYTE, indexes, idxOff, n);
        final ByteBuffer bytes = views.bytes;
        for (int i = 0; i < n; i++)
        {
            dst[indexes[idxOff + i]] = bytes.get(at + i);
        }
        consumed(n, n);
    }

    public void scatter(final char[] dst, final int[] indexes, final int idxOff, final int n)
    {
        final int at = scatterAt(Type.CHAR, indexes, idxOff, n) >> 1;
        final CharBuffer chars = views.chars;
        for (int i = 0; i < n; i++)
        {
            dst[indexes[idxOff + i]] = chars.get(at + i);
        }
        consumed(n, n << 1);
    }

    public void scatter(final short[] dst, final int[] indexes, final int idxOff, final int n)
    {
        final int at = scatterAt(Type.SHORT, indexes, idxOff, n) >> 1;
        final ShortBuffer shorts = views.shorts;
        for (int i = 0; i < n; i++)
        {
            dst[indexes[idxOff + i]] = shorts.get(at + i);
        }
        consumed(n, n << 1);
    }

    public void scatter(final boolean[] dst, final int[] indexes, final int idxOff, final int n)
    {
        final int at = scatterAt(Type.BOOLEAN, indexes, idxOff, n);
        final ByteBuffer bytes = views.bytes;
        for (int i = 0; i < n; i++)
        {
            dst[indexes[idxOff + i]] = bytes.get(at + i) != 0;
        }
        consumed(n, n);
    }

    public void scatter(final int[] dst, final int[] indexes, final int idxOff, final int n)
    {
        final int at = scatterAt(Type.INT, indexes, idxOff, n) >> 2;
        final IntBuffer ints = views.ints;
        for (int i = 0; i < n; i++)
        {
            dst[indexes[idxOff + i]] = ints.get(at + i);
        }
        consumed(n, n << 2);
    }

    public void scatter(final long[] dst, final int[] indexes, final int idxOff, final int n)
    {
        final int at = scatterAt(Type.LONG, indexes, idxOff, n) >> 3;
        final LongBuffer longs = views.longs;
        for (int i = 0; i < n; i++)
        {
            dst[indexes[idxOff + i]] = longs.get(at + i);
        }
        consumed(n, n << 3);
    }

    public void scatter(final float[] dst, final int[] indexes, final int idxOff, final int n)
    {
        final int at = scatterAt(Type.FLOAT, indexes, idxOff, n) >> 2;
        final FloatBuffer floats = views.floats;
        for (int i = 0; i < n; i++)
        {
            dst[indexes[idxOff + i]] = floats.get(at + i);
        }
        consumed(n, n << 2);
    }

    public void scatter(final double[] dst, final int[] indexes, final int idxOff, final int n)
    {
        final int at = scatterAt(Type.DOUBLE, indexes, idxOff, n) >> 3;
        final DoubleBuffer doubles = views.doubles;
        for (int i = 0; i < n; i++)
        {
            dst[indexes[idxOff + i]] = doubles.get(at + i);
        }
        consumed(n, n << 3);
    }

    /**
     * Deserialize the next {@code n} objects of the current {@link Type#OBJECT} section into {@code dst}, resolving
     * their classes in {@code loader}: the receiving rank's loader, which may differ from the sender's.
     *
     * @throws IllegalStateException if a class is not found in {@code loader}.
     */
    public void read(final Object[] dst, final int off, final int n, final ClassLoader loader)
    {
        readAt(Type.OBJECT, n);
        Objects.checkFromIndexSize(off, n, dst.length);
        if (n > 0)
        {
            objects.read(dst, off, n, loader);
        }
        consumed(n, 0);
    }

    /**
     * As {@link #read(Object[], int, int, ClassLoader)} with the current thread's context class loader, or this
     * class's loader if there is none.
     */
    public void read(final Object[] dst, final int off, final int n)
    {
        final ClassLoader context = Thread.currentThread().getContextClassLoader();
        read(dst, off, n, context != null ? context : Buffer.class.getClassLoader());
    }

    /**
     * Byte order of multi-byte elements written and read from now on. Section headers do not depend on it; writer
     * and reader must use the same encoding for the same section.
     *
     * @param order new encoding.
     */
    public void setEncoding(final ByteOrder order)
    {
        Objects.requireNonNull(order, "order");
        checkLive();
        encoding = order;
        views = storage.views(order);
    }

    /**
     * @return byte order of multi-byte elements; {@link ByteOrder#nativeOrder()} for a fresh buffer.
     */
    public ByteOrder getEncoding()
    {
        checkLive();
        return encoding;
    }

    /** Discard all sections and make the buffer writable from the start. The encoding is kept. */
    public void clear()
    {
        checkLive();
        reset();
    }

    /**
     * Return this buffer to its factory; same as {@code factory.destroyBuffer(this)}. The buffer must not be used
     * afterwards.
     *
     * @throws IllegalStateException if it was already freed.
     */
    public void free()
    {
        factory.destroyBuffer(this);
    }

    public String toString()
    {
        final String[] states = {"freed", "writing", "reading"};
        return "Buffer[" + states[state] + ", capacity=" + capacity + ", position=" + position + ", limit=" + limit +
            ", section=" + sectionType + "]";
    }

    /** Hand out this buffer for a new message of up to {@code capacity} static bytes. Called by the factory. */
    void activate(final int capacity)
    {
        this.capacity = capacity;
        encoding = NATIVE;
        views = storage.views(NATIVE);
        reset();
    }

    /**
     * Mark this buffer free, atomically so that only one of two racing frees succeeds.
     *
     * @throws IllegalStateException if it was already free.
     */
    void retire()
    {
        if ((int)STATE.getAndSet(this, FREE) == FREE)
        {
            throw new IllegalStateException("buffer already freed (double free): " + this);
        }
        objects = null;
    }

    private void reset()
    {
        state = WRITING;
        position = 0;
        limit = 0;
        sectionType = null;
        if (objects != null)
        {
            objects.clear();
        }
    }

    private void closeSection()
    {
        if (sectionType != null)
        {
            headers.put(sectionStart >> 3, (long)sectionCount << 8 | sectionType.ordinal());
            sectionType = null;
        }
    }

    private int checkLive()
    {
        final int state = this.state;
        if (state == FREE)
        {
            throw new IllegalStateException("buffer has been freed; it must not be used after free()");
        }
        return state;
    }

    private void checkWriting()
    {
        if (checkLive() != WRITING)
        {
            throw new IllegalStateException("buffer is committed for reading; call clear() before writing");
        }
    }

    private void checkReading()
    {
        if (checkLive() != READING)
        {
            throw new IllegalStateException("buffer is not committed; call commit() before reading");
        }
    }

    /** Validate a write of {@code n} elements of {@code type}; returns the byte index of the first. */
    private int writeAt(final Type type, final int n)
    {
        checkWriting();
        if (sectionType != type)
        {
            throw new IllegalStateException(sectionType == null ?
                "cannot write " + type + " elements: no section started; call putSectionHeader(" + type + ") first" :
                "cannot write " + type + " elements: the current section holds " + sectionType);
        }
        if (n < 0)
        {
            throw new IllegalArgumentException("negative element count: " + n);
        }
        final long end = position + (long)n * type.size();
        if (end > capacity)
        {
            throw new OverflowException("cannot write " + n + " " + type + " elements at byte " + position +
                ": needs " + (end - position) + " bytes, capacity is " + capacity);
        }
        return position;
    }

    private int gatherAt(final Type type, final int[] indexes, final int idxOff, final int n)
    {
        final int at = writeAt(type, n);
        Objects.checkFromIndexSize(idxOff, n, indexes.length);
        return at;
    }

    private void wrote(final int n, final int bytes)
    {
        position += bytes;
        sectionCount += n;
    }

    /** Validate a read of {@code n} elements of {@code type}; returns the byte index of the first. */
    private int readAt(final Type type, final int n)
    {
        checkReading();
        if (sectionType != type)
        {
            throw new IllegalStateException(sectionType == null ?
                "cannot read " + type + " elements: no current section; call getSectionHeader() first" :
                "cannot read " + type + " elements: the current section holds " + sectionType);
        }
        if (n < 0)
        {
            throw new IllegalArgumentException("negative element count: " + n);
        }
        if (n > sectionCount - sectionUsed)
        {
            throw new UnderflowException("cannot read " + n + " " + type + " elements: the section has " +
                (sectionCount - sectionUsed) + " of " + sectionCount + " left");
        }
        return position;
    }

    private int scatterAt(final Type type, final int[] indexes, final int idxOff, final int n)
    {
        final int at = readAt(type, n);
        Objects.checkFromIndexSize(idxOff, n, indexes.length);
        return at;
    }

    private void consumed(final int n, final int bytes)
    {
        position += bytes;
        sectionUsed += n;
    }

    /**
     * {@code buffer} itself if {@code [index, index + n)} is below its limit, else a duplicate whose limit is its
     * capacity: NIO transfers take absolute indexes regardless of the caller's limit, allocating only past it.
     */
    @SuppressWarnings("unchecked")
    private static <B extends java.nio.Buffer> B wholeOf(final B buffer, final int index, final int n)
    {
        return index + n <= buffer.limit() ? buffer : (B)buffer.duplicate().clear();
    }

    private static long align(final long offset)
    {
        return (offset + SECTION_ALIGNMENT - 1) & -SECTION_ALIGNMENT;
    }
}
