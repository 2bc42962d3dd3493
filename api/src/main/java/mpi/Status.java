package mpi;

import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.TypeMap;
import org.mpjlite.smpdev.p2p.Message;

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

    /** Basic elements received. */
    private int count;
    /** Their type; null when they mix types. */
    private BasicType type;
    /** Their bytes (OBJECT elements count one each). */
    private long bytes;
    private boolean cancelled;

    /** An empty status: {@code ANY_SOURCE}, {@code ANY_TAG}, no elements. */
    public Status() {
        this(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, null, 0);
    }

    Status(int source, int tag, int count, BasicType type, long bytes) {
        this.source = source;
        this.tag = tag;
        this.count = count;
        this.type = type;
        this.bytes = bytes;
    }

    /**
     * The status of the completed operation {@code r}. A constructor rather than a factory, as is the
     * one {@link #taking} uses for {@code PROC_NULL}: C2 inlines every constructor a call site has
     * executed, for escape analysis, but a static method only when the profile finds its call site
     * frequent, and a profile taken while the program's loop warms up sometimes does not. A status
     * made out of line escapes, and a loop that ignores it allocates one per call.
     */
    Status(org.mpjlite.smpdev.Request r) {
        this(r.statusSource(), r.statusTag(), r.statusCount(), r.statusType(), r.statusBytes());
        cancelled = r.isCancelled();
    }

    /**
     * The status of a completed blocking receive, which is then recycled (nothing else refers to
     * it); the empty status of {@link #procNull}, made here by its constructor, for a receive from
     * {@code PROC_NULL} (null). Small, so that it inlines with the constructors into a blocking
     * receive's caller, where the JIT's escape analysis drops a status the program ignores (see
     * {@code PointToPointCalls.recv}).
     */
    static Status taking(org.mpjlite.smpdev.p2p.RecvRequest op) {
        if (op == null) {
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, null, 0);
        }
        Status s = new Status(op);
        op.recycle();
        return s;
    }

    static Status of(Message m) {
        return new Status(m.source(), m.tag(), m.count(), m.type(), m.bytes());
    }

    static Status procNull() {
        return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, null, 0);
    }

    Status withIndex(int i) {
        index = i;
        return this;
    }

    /** MPJ Express: a status holds nothing to release; does nothing. */
    public void free() {
    }

    /**
     * Number of items of {@code datatype} received, or {@code MPI.UNDEFINED} when the elements
     * received are not a whole number of items. Items of a type of the received elements are counted
     * in elements (a pair is two); other types in bytes.
     */
    public int Get_count(Datatype datatype) {
        TypeMap map = counted("Get_count", datatype);
        if (count == 0 || map.size() == 0) {
            return 0;
        }
        if (sameElements(map)) {
            return count % map.elements() == 0 && wholeElements(map) ? (int) (count / map.elements()) : MPI.UNDEFINED;
        }
        return bytes % map.size() == 0 ? (int) (bytes / map.size()) : MPI.UNDEFINED;
    }

    public int getCount(Datatype datatype) {
        return Get_count(datatype);
    }

    /**
     * Basic elements received (a pair counts two; the elements of a derived type each count; a
     * complex number, a basic type in MPI, counts one), or {@code MPI.UNDEFINED} when the bytes
     * received end inside an element (raw bytes received as typed data).
     */
    public int Get_elements(Datatype datatype) {
        TypeMap map = counted("Get_elements", datatype);
        if (datatype.layout.isComplex()) {
            return Get_count(datatype);
        }
        if (count == 0 && bytes == 0) {
            return 0;
        }
        if (datatype.complexParts) { // a type of complex numbers: two parts make one basic element
            int parts = wholeElements(map) ? count : MPI.UNDEFINED;
            return parts == MPI.UNDEFINED || parts % 2 != 0 ? MPI.UNDEFINED : parts / 2;
        }
        if (map.base() == null || sameElements(map)) {
            return wholeElements(map) ? count : MPI.UNDEFINED;
        }
        int size = map.base().size();
        return bytes % size == 0 ? (int) (bytes / size) : MPI.UNDEFINED;
    }

    public int getElements(Datatype datatype) {
        return Get_elements(datatype);
    }

    /** The elements of the buffer's own type received: two per complex number, one per object. */
    int parts() {
        return count;
    }

    /** False when the bytes received end inside an element (raw bytes received as typed data). */
    private boolean wholeElements(TypeMap map) {
        return type == BasicType.OBJECT || bytes == map.bytesOf(count);
    }

    private static TypeMap counted(String call, Datatype datatype) {
        if (datatype == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype is null");
        }
        if (datatype.map == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype " + datatype + " has no elements to count");
        }
        return datatype.map;
    }

    /** True when the received elements are of the type's own (single) base type. */
    private boolean sameElements(TypeMap map) {
        return type != null && map.base() != null && map.base().receives(type) && map.elements() > 0;
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
            + (type == null ? "" : " x " + type.mpiName()) + " (" + bytes + " bytes)" + (cancelled ? ", cancelled" : "")
            + (index >= 0 ? ", index=" + index : "") + '}';
    }

    // ---- Open MPI: large counts and setters (MPI_Status_set_elements, MPI_Status_set_cancelled) ----

    /** {@link #getElements} as a {@link Count} (MPI_Get_elements_x). */
    public Count getElementsX(Datatype datatype) {
        return new Count(Get_elements(datatype));
    }

    /**
     * MPI_Status_set_elements: makes this status say that {@code count} basic elements of
     * {@code datatype} were received, so that {@link #getElements} returns {@code count} and
     * {@link #getCount} the items they make (for generalized requests and layered libraries).
     */
    public void setElements(Datatype datatype, int count) {
        TypeMap map = counted("setElements", datatype);
        if (count < 0) {
            throw new MPIException(MPI.ERR_COUNT, "setElements: count must be >= 0, was " + count);
        }
        // A complex number is one element to MPI and two parts here.
        long parts = datatype.complexParts ? 2L * count : count;
        if (parts > Integer.MAX_VALUE) {
            throw new MPIException(MPI.ERR_COUNT, "setElements: count " + count + " is more than a status here holds");
        }
        this.count = (int) parts;
        this.type = map.base();
        this.bytes = map.bytesOf(parts);
    }

    /** {@link #setElements} with a {@link Count} (MPI_Status_set_elements_x); at most {@code Integer.MAX_VALUE}. */
    public void setElementsX(Datatype datatype, Count count) {
        if (count == null) {
            throw new MPIException(MPI.ERR_ARG, "setElementsX: count is null");
        }
        long n = count.getCount();
        if (n < 0 || n > Integer.MAX_VALUE) {
            throw new MPIException(MPI.ERR_COUNT, "setElementsX: count " + n + " is " + (n < 0 ? "negative"
                : "more than a status here holds (" + Integer.MAX_VALUE + " elements)"));
        }
        setElements(datatype, (int) n);
    }

    /** MPI_Status_set_cancelled: what {@link #isCancelled} returns from now on. */
    public void setCancelled(boolean flag) {
        cancelled = flag;
    }
}
