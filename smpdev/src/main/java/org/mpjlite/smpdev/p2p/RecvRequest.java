package org.mpjlite.smpdev.p2p;

import org.mpjlite.matching.MessageRing;
import org.mpjlite.matching.ReceiveLine;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.Request;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.TypeMap;

/**
 * A receive: a pattern (context, source or {@code ANY_SOURCE}, tag or {@code ANY_TAG}) and the user
 * buffer the matched message is copied into.
 *
 * <p>A request is reused ({@link #recycle}) once complete and unreachable: the fields below are
 * written by the receiving thread before the request is posted, which publishes them.
 */
public final class RecvRequest extends Request {
    Object buffer;
    /** Offset in the buffer, in units of {@link TypeMap#unit()}. */
    int index;
    /** Items of {@link #map} the buffer takes. */
    int capacity;
    TypeMap map;
    String call;
    /** The user's line of the receive, taken under {@link JobConfig#check()} only; else null. */
    StackTraceElement site;
    /**
     * The receive reads a message of MPI.BYTE as the raw bytes of its own elements, as Open MPI's
     * bindings do (set before the receive is posted, then read by the thread that matches it).
     */
    boolean bytesAsMemory;
    /** Where the classes of received objects resolve: the receiving thread's context loader when posted. */
    ClassLoader loader;
    /**
     * The trace flow of the message received, 0 if none: written by the matching thread before the
     * request's completion (a volatile write) publishes it.
     */
    long flow;
    /** This request's place in its rank's {@link Recycler} ring, or -1 if it has none. */
    int slot = -1;
    /** True while the request is free for reuse in that ring (the rank's user thread only). */
    boolean free;

    RecvRequest(Rank owner, int context, int source, int tag, Object buffer, int index, int capacity,
                TypeMap map, String call) {
        super(owner, context, source, tag);
        aim(buffer, index, capacity, map, call);
    }

    /** Makes a completed, recycled request a new receive; the caller owns it. */
    void reuse(int context, int source, int tag, Object buffer, int index, int capacity, TypeMap map, String call) {
        reuse(context, source, tag);
        aim(buffer, index, capacity, map, call);
        site = null;
        bytesAsMemory = false;
        flow = 0;
    }

    /**
     * References are stored only when they change (a blocking receive usually reuses the same
     * buffer): a recycled request is an old object, and a reference store into one costs the G1
     * collector's write barrier a fence. So a spare request keeps its last buffer until reused.
     */
    private void aim(Object buffer, int index, int capacity, TypeMap map, String call) {
        if (this.buffer != buffer) {
            this.buffer = buffer;
        }
        if (this.map != map) {
            this.map = map;
        }
        if (this.call != call) {
            this.call = call;
        }
        ClassLoader l = map.isObjects() ? Thread.currentThread().getContextClassLoader() : null;
        if (this.loader != l) {
            this.loader = l;
        }
        this.index = index;
        this.capacity = capacity;
    }

    /**
     * Lets a sender leave a message of up to {@link ReceiveLine#DATA_BYTES} bytes in the mailbox's
     * line for this receive, and the mailbox match it with one of up to {@link MessageRing#DATA_BYTES}
     * bytes still in a ring's cell, when it takes contiguous elements of one basic type (the
     * sender's must be the same type) and has room for them; called before the receive is posted,
     * once its fields are final.
     */
    void offersLine() {
        int kind = lineKind(map);
        takesInLine(kind, kind == 0 ? 0 : (int) Math.min((long) capacity * map.size(), MessageRing.DATA_BYTES));
    }

    /**
     * The kind of data a receive line carries for items of {@code map}: one per basic type, for
     * contiguous elements of that type; 0 (none) for anything else (mixed types, gaps, packed data,
     * objects). A sender and a receive meet in the line only with the same kind.
     */
    static int lineKind(TypeMap map) {
        BasicType type = map.base();
        return map.isContiguous() && type != null && !map.isPacked() && !map.isObjects() ? Message.kindOf(type) : 0;
    }

    /**
     * Hands this completed receive back for reuse by a later receive of its rank. Only for a
     * request nobody else can reach any more: a blocking receive whose status has been read, or a
     * non-blocking one that the API has collected (the program's request no longer refers to it).
     */
    public void recycle() {
        owner.endpoint().recycler().recycle(this);
    }

    /** The trace flow of the message this receive got (read after completion); 0 if none. */
    public long flow() {
        return flow;
    }

    /** The receive call, for reports. */
    public String call() {
        return call;
    }

    @Override
    public boolean cancel() {
        if (owner.endpoint().mailbox().cancel(this)) {
            completeCancelled();
            return true;
        }
        return false;
    }

    @Override
    public String describe(Job job) {
        return pattern(job, context, source, tag) + ", count=" + capacity + ", " + map.describeSignature();
    }

    @Override
    public void addAwaitedRanks(Job job, java.util.BitSet ranks) {
        job.addSourceRanks(context, source, ranks);
    }

    /** {@code source=1, tag=MPI.ANY_TAG, comm=MPI.COMM_WORLD}: a receive or probe pattern. */
    static String pattern(Job job, int context, int source, int tag) {
        return "source=" + (source == ANY_SOURCE ? "MPI.ANY_SOURCE" : String.valueOf(source))
            + ", tag=" + (tag == ANY_TAG ? "MPI.ANY_TAG" : String.valueOf(tag))
            + ", comm=" + job.contextName(context);
    }

    @Override
    public String toString() {
        return call + "(source=" + source + ", tag=" + tag + ", count=" + capacity + ", " + map.describeSignature() + ")";
    }
}
