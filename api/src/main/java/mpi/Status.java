package mpi;

import org.mpjlite.smpdev.BasicType;
import org.mpjlite.smpdev.Message;
import org.mpjlite.smpdev.Request;

/**
 * What a completed receive (or a probe) found: source, tag, element count, cancellation. Both
 * dialects: mpiJava's public fields {@code source}, {@code tag}, {@code index} and
 * {@code Get_count}; Open MPI's {@code getSource()}, {@code getTag()}, {@code getCount(type)}.
 *
 * <p>A plain value object; not thread-safe.
 */
public class Status {
    /** Source rank of the message, in the communicator (mpiJava field). */
    public int source;
    /** Tag of the message (mpiJava field). */
    public int tag;
    /** Index of the request in the array given to Waitany/Testany/Waitsome/Testsome, else -1. */
    public int index = -1;

    private int count;
    private BasicType type;
    private boolean cancelled;

    /** An empty status: {@code ANY_SOURCE}, {@code ANY_TAG}, no elements. */
    public Status() {
        this(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, null);
    }

    Status(int source, int tag, int count, BasicType type) {
        this.source = source;
        this.tag = tag;
        this.count = count;
        this.type = type;
    }

    static Status of(Request r) {
        Status s = new Status(r.statusSource(), r.statusTag(), r.statusCount(), r.statusType());
        s.cancelled = r.isCancelled();
        return s;
    }

    static Status of(Message m) {
        return new Status(m.source(), m.tag(), m.count(), m.type());
    }

    static Status procNull() {
        return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, null);
    }

    Status withIndex(int i) {
        index = i;
        return this;
    }

    /**
     * Number of elements of {@code datatype} received: the message's bytes divided by the type's
     * size, or {@code MPI.UNDEFINED} when they do not divide evenly.
     */
    public int Get_count(Datatype datatype) {
        if (datatype == null) {
            throw new MPIException(MPI.ERR_TYPE, "Get_count: datatype is null");
        }
        if (type == null || count == 0) {
            return 0;
        }
        long bytes = (long) count * type.size();
        int size = datatype.basic.size();
        return bytes % size == 0 ? (int) (bytes / size) : MPI.UNDEFINED;
    }

    public int getCount(Datatype datatype) {
        return Get_count(datatype);
    }

    /** Basic elements received; for basic types the same as the count. */
    public int Get_elements(Datatype datatype) {
        return Get_count(datatype);
    }

    public int getElements(Datatype datatype) {
        return Get_count(datatype);
    }

    public boolean Test_cancelled() {
        return cancelled;
    }

    public boolean isCancelled() {
        return cancelled;
    }

    public int getSource() {
        return source;
    }

    public int getTag() {
        return tag;
    }

    public int getIndex() {
        return index;
    }

    /**
     * The error class of the operation: always {@code MPI.SUCCESS}, because an operation that fails
     * raises an {@link MPIException} instead of returning a status.
     */
    public int getError() {
        return MPI.SUCCESS;
    }

    @Override
    public String toString() {
        return "Status{source=" + source + ", tag=" + tag + ", count=" + count
            + (type == null ? "" : " x " + type.mpiName()) + (cancelled ? ", cancelled" : "")
            + (index >= 0 ? ", index=" + index : "") + '}';
    }
}
