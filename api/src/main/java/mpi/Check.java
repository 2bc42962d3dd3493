package mpi;

import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.ObjectSerializer;
import org.mpjlite.smpdev.data.TypeMap;

/**
 * Argument checks shared by every call: each failure is an {@link MPIException} with the MPI error
 * class and a message naming the call and the argument.
 */
final class Check {
    private Check() {
    }

    /** The buffer holds {@code count} items of {@code type} from {@code offset}. */
    static void buffer(String call, Object buf, int offset, int count, Datatype type) {
        buffer(call, "buffer", buf, offset, count, type == null ? 1 : type.units(), type);
    }

    /**
     * The buffer named {@code which} ("send buffer"...) holds {@code count} items of {@code type} from
     * {@code offset}, an item being {@code units} elements of the type's storage type.
     */
    static void buffer(String call, String which, Object buf, int offset, int count, int units, Datatype type) {
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype is null");
        }
        type.usable(call);
        if (count < 0) {
            throw new MPIException(MPI.ERR_COUNT, call + ": count must be >= 0, was " + count);
        }
        if (buf == null && count == 0 || type.map.elements() == 0) {
            // No data to address (no items, or a type without data such as an empty Struct): MPI
            // allows any buffer, NULL included.
            return;
        }
        if (buf == null) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": " + which + " is null");
        }
        int capacity = type.basic.capacityOf(buf);
        if (capacity < 0) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype " + type + " does not match the " + which + ", a "
                + BasicType.describe(buf) + (type.mixed()
                ? " (the datatype mixes element types: its buffer is a byte[] or a ByteBuffer)"
                : " (a " + type + " buffer is a " + type.basic.arrayClass().getSimpleName()
                + (type.basic == BasicType.OBJECT ? ")" : " or a java.nio buffer of that type)")));
        }
        if (offset < 0) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": offset must be >= 0, was " + offset);
        }
        if (type.direct()) {
            if (!fits(offset, count, units, capacity)) {
                throw new MPIException(MPI.ERR_BUFFER, call + ": offset " + offset + " + count " + count
                    + (units == 1 ? "" : " of " + type + " (" + (long) count * units + " elements)")
                    + " is beyond the end of the " + which + " (" + BasicType.describe(buf) + " of " + capacity + " "
                    + type.basic.mpiName() + " elements)");
            }
            return;
        }
        derivedBuffer(call, which, buf, offset, (long) count * (units / type.units()), capacity, type);
    }

    /** A buffer of a non-contiguous type: every item's data inside it, at whole elements unless bytes. */
    private static void derivedBuffer(String call, String which, Object buf, int offset, long items, int capacity,
                                      Datatype type) {
        TypeMap map = type.map;
        boolean bytes = buf instanceof java.nio.ByteBuffer || buf instanceof byte[];
        if (!map.isAligned() && !bytes) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype " + type + " has displacements or bounds that are"
                + " not whole " + type.basic.mpiName() + " elements; it can address a ByteBuffer only, not the " + which
                + ", a " + BasicType.describe(buf));
        }
        if (items == 0 || map.size() == 0) {
            return;
        }
        long origin = (long) offset * map.unit();
        long last = (items - 1) * map.extent();
        long lo = origin + map.trueLb() + Math.min(0, last);
        long hi = origin + map.trueLb() + map.trueExtent() + Math.max(0, last);
        long end = (long) capacity * map.unit();
        if (lo < 0 || hi > end) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": " + items + " items of " + type + " from offset " + offset
                + " reach " + (lo < 0 ? "before the start" : "beyond the end") + " of the " + which + " ("
                + BasicType.describe(buf) + " of " + capacity + " " + type.basic.mpiName() + " elements; the items span "
                + "units " + Math.floorDiv(lo, map.unit()) + " to " + Math.floorDiv(hi - 1, map.unit()) + ")");
        }
    }

    /**
     * Every object element an MPI.OBJECT-based send would serialize is null or {@code Serializable}
     * (objects they reference are checked by serialization itself).
     */
    static void serializable(String call, Object buf, int offset, int count, Datatype type) {
        Object[] objects = (Object[]) buf;
        type.map.walk(offset, count, Long.MAX_VALUE, (t, pos, n) -> {
            for (int i = (int) pos; i < pos + n; i++) {
                if (!ObjectSerializer.serializable(objects[i])) {
                    throw new MPIException(MPI.ERR_ARG, call + ": element " + i + " of the send buffer, a "
                        + objects[i].getClass().getName() + ", is not Serializable");
                }
            }
        });
    }

    /** A root: a rank of the communicator. */
    static void root(String call, int root, int size) {
        if (root < 0 || root >= size) {
            throw new MPIException(MPI.ERR_ROOT, call + ": root " + root + " is not in the communicator (size "
                + size + ", valid 0.." + (size - 1) + ")");
        }
    }

    /** An array of one non-negative count per rank. */
    static void counts(String call, String name, int[] counts, int size) {
        if (counts == null) {
            throw new MPIException(MPI.ERR_COUNT, call + ": " + name + " is null");
        }
        if (counts.length < size) {
            throw new MPIException(MPI.ERR_COUNT, call + ": " + name + " has " + counts.length
                + " entries, the communicator " + size + " ranks");
        }
        for (int i = 0; i < size; i++) {
            if (counts[i] < 0) {
                throw new MPIException(MPI.ERR_COUNT, call + ": " + name + "[" + i + "] must be >= 0, was "
                    + counts[i]);
            }
        }
    }

    /**
     * Displacements, one per rank, such that every block {@code [displs[i], displs[i] + counts[i])} of
     * items lies in the buffer named {@code which} from {@code offset}.
     */
    static void displs(String call, String name, int[] displs, int[] counts, String which, Object buf, int offset,
                       Datatype type, int size) {
        if (displs == null || displs.length < size) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + name + (displs == null ? " is null"
                : " has " + displs.length + " entries, the communicator " + size + " ranks"));
        }
        buffer(call, which, buf, offset, 0, type.units(), type);
        int capacity = type.basic.capacityOf(buf);
        for (int i = 0; i < size; i++) {
            if (displs[i] < 0) {
                throw new MPIException(MPI.ERR_ARG, call + ": " + name + "[" + i + "] must be >= 0, was " + displs[i]);
            }
            if (offset + ((long) displs[i] + counts[i]) * type.units() > capacity) {
                throw new MPIException(MPI.ERR_BUFFER, call + ": block " + i + " (" + name + "[" + i + "] " + displs[i]
                    + " + count " + counts[i] + ", from offset " + offset + ") is beyond the end of the " + which + " ("
                    + BasicType.describe(buf) + " of " + capacity + " " + type.basic.mpiName() + " elements)");
            }
        }
    }

    /** Data sent as {@code sent} can be received as {@code received}. */
    static void sameType(String call, Datatype sent, Datatype received) {
        if (sent == null || received == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + (sent == null ? "send" : "receive")
                + " datatype is null");
        }
        // Predefined types (pairs) must agree item for item; derived types by their elements (callers
        // compare the counts where they must match).
        if (!received.basic.receives(sent.basic)
            || (sent.predefined() && received.predefined() && sent.units() != received.units())) {
            throw new MPIException(MPI.ERR_TYPE, call + ": send datatype " + sent + " does not match receive datatype "
                + received);
        }
    }

    /** A reduction operation applicable to the datatype; returns it as the engine sees it. */
    static org.mpjlite.smpdev.collective.Reduction op(String call, Op op, Datatype type) {
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype is null");
        }
        if (op == null) {
            throw new MPIException(MPI.ERR_OP, call + ": operation is null");
        }
        return op.on(type, call);
    }

    /** A destination rank: {@code PROC_NULL} or a rank of the communicator. */
    static void dest(String call, int dest, int size) {
        if (!isDest(dest, size)) {
            throw new MPIException(MPI.ERR_RANK, call + ": destination rank " + dest
                + " is not in the communicator (size " + size + ", valid 0.." + (size - 1) + " or MPI.PROC_NULL)");
        }
    }

    /**
     * Whether {@code count} items of {@code units} elements each, from element {@code offset}, end
     * within {@code capacity} elements (offset and count not negative).
     */
    static boolean fits(int offset, int count, int units, int capacity) {
        return (long) offset + (long) count * units <= capacity;
    }

    /** Whether a send may name {@code dest} in a communicator of {@code size}: a rank or PROC_NULL. */
    static boolean isDest(int dest, int size) {
        return dest == MPI.PROC_NULL || dest >= 0 && dest < size;
    }

    /** Whether a send may carry {@code tag}: 0..TAG_UB. */
    static boolean isSendTag(int tag) {
        return tag >= 0 && tag <= MPI.TAG_UB_VALUE;
    }

    /** Whether a receive may name {@code source} in a communicator of {@code size}: a rank, ANY_SOURCE or PROC_NULL. */
    static boolean isSource(int source, int size) {
        return source == MPI.ANY_SOURCE || source == MPI.PROC_NULL || source >= 0 && source < size;
    }

    /** Whether a receive may name {@code tag}: 0..TAG_UB or ANY_TAG. */
    static boolean isRecvTag(int tag) {
        return tag == MPI.ANY_TAG || tag >= 0 && tag <= MPI.TAG_UB_VALUE;
    }

    /** A source rank: {@code ANY_SOURCE}, {@code PROC_NULL} or a rank of the communicator. */
    static void source(String call, int source, int size) {
        if (!isSource(source, size)) {
            throw new MPIException(MPI.ERR_RANK, call + ": source rank " + source
                + " is not in the communicator (size " + size + ", valid 0.." + (size - 1)
                + ", MPI.ANY_SOURCE or MPI.PROC_NULL)");
        }
    }

    /** A send tag: 0..TAG_UB. */
    static void sendTag(String call, int tag) {
        if (!isSendTag(tag)) {
            throw new MPIException(MPI.ERR_TAG, call + ": tag must be in 0.." + MPI.TAG_UB_VALUE + ", was " + tag);
        }
    }

    /** A receive tag: 0..TAG_UB or {@code ANY_TAG}. */
    static void recvTag(String call, int tag) {
        if (!isRecvTag(tag)) {
            throw new MPIException(MPI.ERR_TAG, call + ": tag must be in 0.." + MPI.TAG_UB_VALUE
                + " or MPI.ANY_TAG, was " + tag);
        }
    }

    /** A receive buffer must be writable. */
    static void writable(String call, Object buf) {
        if (buf instanceof java.nio.Buffer && ((java.nio.Buffer) buf).isReadOnly()) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": the receive buffer is read-only");
        }
    }
}
