package mpi;

import org.mpjlite.smpdev.BasicType;

/**
 * Argument checks shared by every call: each failure is an {@link MPIException} with the MPI error
 * class and a message naming the call and the argument.
 */
final class Check {
    private Check() {
    }

    /** The buffer holds {@code count} elements of {@code type} from {@code offset}. */
    static void buffer(String call, Object buf, int offset, int count, Datatype type) {
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype is null");
        }
        if (count < 0) {
            throw new MPIException(MPI.ERR_COUNT, call + ": count must be >= 0, was " + count);
        }
        if (buf == null) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": buffer is null");
        }
        int capacity = type.basic.capacityOf(buf);
        if (capacity < 0) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype " + type + " does not match the buffer, a "
                + BasicType.describe(buf) + " (a " + type + " buffer is a "
                + type.basic.arrayClass().getSimpleName() + " or a java.nio buffer of that type)");
        }
        if (offset < 0) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": offset must be >= 0, was " + offset);
        }
        if ((long) offset + count > capacity) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": offset " + offset + " + count " + count
                + " is beyond the end of the buffer (" + BasicType.describe(buf) + " of " + capacity + " "
                + type + " elements)");
        }
    }

    /** A destination rank: {@code PROC_NULL} or a rank of the communicator. */
    static void dest(String call, int dest, int size) {
        if (dest != MPI.PROC_NULL && (dest < 0 || dest >= size)) {
            throw new MPIException(MPI.ERR_RANK, call + ": destination rank " + dest
                + " is not in the communicator (size " + size + ", valid 0.." + (size - 1) + " or MPI.PROC_NULL)");
        }
    }

    /** A source rank: {@code ANY_SOURCE}, {@code PROC_NULL} or a rank of the communicator. */
    static void source(String call, int source, int size) {
        if (source != MPI.ANY_SOURCE && source != MPI.PROC_NULL && (source < 0 || source >= size)) {
            throw new MPIException(MPI.ERR_RANK, call + ": source rank " + source
                + " is not in the communicator (size " + size + ", valid 0.." + (size - 1)
                + ", MPI.ANY_SOURCE or MPI.PROC_NULL)");
        }
    }

    /** A send tag: 0..TAG_UB. */
    static void sendTag(String call, int tag) {
        if (tag < 0 || tag > MPI.TAG_UB_VALUE) {
            throw new MPIException(MPI.ERR_TAG, call + ": tag must be in 0.." + MPI.TAG_UB_VALUE + ", was " + tag);
        }
    }

    /** A receive tag: 0..TAG_UB or {@code ANY_TAG}. */
    static void recvTag(String call, int tag) {
        if (tag != MPI.ANY_TAG && (tag < 0 || tag > MPI.TAG_UB_VALUE)) {
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
