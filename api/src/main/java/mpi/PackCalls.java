package mpi;

import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.Packing;

/**
 * Packing ({@code MPI.PACKED}), the implementation of both dialects: into and out of a
 * {@code byte[]} or {@code ByteBuffer} (packed data, native byte order), or an mpjbuf buffer (MPJ
 * Express's typed sections), and the packed size. The public methods of {@link Comm} name the call
 * and delegate here. Local calls; stateless; thread-safe.
 */
final class PackCalls {
    private PackCalls() {
    }

    /**
     * Packs {@code count} items of {@code type} into {@code out} (a {@code byte[]} or
     * {@code ByteBuffer}) from byte {@code position}: their elements one after the other in native
     * byte order (objects: a length and their serialization). Returns the position after them.
     */
    static int pack(Comm c, String call, Object in, int offset, int count, Datatype type, Object out, int position) {
        c.localRank(call);
        Slices.Parent from = Slices.addressed(in, offset, count, type);
        in = Slices.buffer(from, in);
        offset = Slices.offset(from, offset);
        Check.buffer(call, "input buffer", in, offset, count, type.units(), type);
        int room = packedRoom(call, "output buffer", out, position);
        if (type.map.isObjects()) {
            Check.serializable(call, in, offset, count, type);
        } else if ((long) count * type.map.size() > room - position) {
            throw new MPIException(MPI.ERR_TRUNCATE, call + ": " + count + " x " + type + " take "
                + (long) count * type.map.size() + " packed bytes, the output buffer has " + (room - position)
                + " left from position " + position);
        }
        try {
            return (int) Packing.pack(in, (long) offset * type.unit(), count, type.map, out, position);
        } catch (IndexOutOfBoundsException e) {
            throw new MPIException(MPI.ERR_TRUNCATE, call + ": the output buffer is too small: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new MPIException(MPI.ERR_ARG, call + ": cannot serialize the input buffer: " + e.getMessage());
        }
    }

    /** Unpacks {@code count} items of {@code type} out of packed data from byte {@code position}. */
    static int unpack(Comm c, String call, Object in, int position, Object out, int offset, int count, Datatype type) {
        c.localRank(call);
        Slices.Parent to = Slices.addressed(out, offset, count, type);
        out = Slices.buffer(to, out);
        offset = Slices.offset(to, offset);
        int room = packedRoom(call, "input buffer", in, position);
        Check.buffer(call, "output buffer", out, offset, count, type.units(), type);
        Check.writable(call, out);
        if (!type.map.isObjects() && (long) count * type.map.size() > room - position) {
            throw new MPIException(MPI.ERR_TRUNCATE, call + ": " + count + " x " + type + " take "
                + (long) count * type.map.size() + " packed bytes, the input buffer has " + (room - position)
                + " left from position " + position);
        }
        try {
            return (int) Packing.unpack(in, position, out, (long) offset * type.unit(), count, type.map,
                Thread.currentThread().getContextClassLoader());
        } catch (RuntimeException e) {
            throw new MPIException(MPI.ERR_TRUNCATE, call + ": cannot unpack " + count + " x " + type
                + " from position " + position + ": " + e.getMessage());
        }
    }

    /** Packs into an mpjbuf buffer (MPJ Express): typed sections appended at its write position. */
    static int pack(Comm c, String call, Object in, int offset, int count, Datatype type, mpjbuf.Buffer out,
                    int position) {
        c.localRank(call);
        Check.buffer(call, "input buffer", in, offset, count, type.units(), type);
        if (out == null) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": output buffer is null");
        }
        if (type.map.isObjects()) {
            Check.serializable(call, in, offset, count, type);
        }
        try {
            if (position != out.position()) {
                throw new MPIException(MPI.ERR_ARG, call + ": position " + position + " is not where the buffer is"
                    + " written next (" + out.position() + ")");
            }
            long end = Packing.gatheredEnd(out, count, type.map);
            if (end > out.capacity()) {
                throw new MPIException(MPI.ERR_TRUNCATE, call + ": the output buffer is too small: " + count + " x "
                    + type + " from position " + position + " need its bytes up to " + end + ", and its capacity is "
                    + out.capacity() + " (nothing was packed)");
            }
            Packing.gatherInto(out, in, (long) offset * type.unit(), count, type.map);
            return out.position();
        } catch (mpjbuf.OverflowException e) {
            throw new MPIException(MPI.ERR_TRUNCATE, call + ": the output buffer is too small: " + e.getMessage());
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": cannot pack into the output buffer: " + e.getMessage());
        }
    }

    /**
     * Unpacks out of an mpjbuf buffer (MPJ Express); at position 0 the buffer is committed (or
     * rewound) first, so Pack then Unpack from 0 reads what was packed.
     */
    static int unpack(Comm c, String call, mpjbuf.Buffer in, int position, Object out, int offset, int count,
                      Datatype type) {
        c.localRank(call);
        if (in == null) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": input buffer is null");
        }
        Check.buffer(call, "output buffer", out, offset, count, type.units(), type);
        Check.writable(call, out);
        try {
            if (position == 0) {
                // Reading from the start: ends the writing (or rewinds a buffer already read).
                in.commit();
            }
            if (position != in.position()) {
                throw new MPIException(MPI.ERR_ARG, call + ": position " + position + " is not where the buffer is"
                    + " read next (" + in.position() + ")");
            }
            // Checked first: an Unpack that fails on the data's type or count reads nothing, so a retry at
            // the same position (with the right datatype) reads what a first correct call would have.
            Packing.checkScatterFrom(in, out, (long) offset * type.unit(), count, type.map);
            Packing.scatterFrom(in, Thread.currentThread().getContextClassLoader(), out,
                (long) offset * type.unit(), count, type.map);
            return in.position();
        } catch (mpjbuf.UnderflowException e) {
            throw new MPIException(MPI.ERR_TRUNCATE, call + ": the input buffer holds less: " + e.getMessage());
        } catch (IllegalStateException e) {
            throw new MPIException(MPI.ERR_TYPE, call + ": the input buffer does not hold " + type + " data: "
                + e.getMessage());
        }
    }

    /**
     * An upper bound of the bytes that packing {@code count} items of {@code type} takes, in a byte
     * array and in an mpjbuf buffer alike (which adds section headers).
     */
    static int packSize(Comm c, String call, int count, Datatype type) {
        c.localRank(call);
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype is null");
        }
        type.usable(call);
        if (count < 0) {
            throw new MPIException(MPI.ERR_COUNT, call + ": count must be >= 0, was " + count);
        }
        if (type.map.isObjects()) {
            throw new MPIException(MPI.ERR_TYPE, call + ": the packed size of MPI.OBJECT data is known only once"
                + " they are serialized; pack into a large enough buffer (Pack reports MPI.ERR_TRUNCATE if it is not)");
        }
        return Packing.packSize(type.map, count);
    }

    /** The capacity of a packed-data buffer, checking that {@code position} is inside it. */
    private static int packedRoom(String call, String which, Object buf, int position) {
        int room;
        if (buf instanceof byte[]) {
            room = ((byte[]) buf).length;
        } else if (buf instanceof java.nio.ByteBuffer) {
            room = ((java.nio.ByteBuffer) buf).capacity();
        } else {
            throw new MPIException(buf == null ? MPI.ERR_BUFFER : MPI.ERR_TYPE, call + ": " + which + " is "
                + (buf == null ? "null" : "a " + BasicType.describe(buf)
                + "; packed data live in a byte[] or a ByteBuffer"));
        }
        if (position < 0 || position > room) {
            throw new MPIException(MPI.ERR_ARG, call + ": position " + position + " is outside the " + which + " (0.."
                + room + ")");
        }
        return room;
    }
}
