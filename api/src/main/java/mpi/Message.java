package mpi;

import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.p2p.PointToPoint;
import org.mpjlite.smpdev.p2p.RecvRequest;

/**
 * A matched message (Open MPI Java's {@code Message}, MPI-3.1 §3.8.2): {@link #mProbe} or
 * {@link #imProbe} finds a message and removes it from matching, so that no other receive or probe,
 * of this thread or any other thread of the rank ({@code THREAD_MULTIPLE}), can take it; then
 * {@link #mRecv} or {@link #imRecv} receives exactly that message. This is the thread-safe form of
 * probe-then-receive: with {@code probe} and {@code recv}, another thread can receive the probed
 * message in between.
 *
 * <p>A new message is the null message ({@code MPI_MESSAGE_NULL}, {@link #isNull()}). A matched
 * probe with source {@code MPI.PROC_NULL} gives the no-process message ({@code MPI_MESSAGE_NO_PROC},
 * {@link #isNoProc()}), whose receive returns at once with source {@code PROC_NULL}, tag
 * {@code ANY_TAG} and no elements. Receiving a message makes it the null message again; receiving
 * the null message is {@code MPI_ERR_REQUEST}, as in Open MPI.
 *
 * <p>A message taken by a matched probe and never received is lost to the program: Finalize names
 * it in its warning, and its sender, if it waits for the receive (a synchronous send or a message
 * above the eager threshold), waits forever, which the deadlock report shows.
 *
 * <p>Not thread-safe: like a request, one message object is used by one thread at a time (MPI's
 * rule for handles); the matching it does is safe against every other thread of the rank.
 */
public final class Message {
    /** The matched message, or null for the null and no-process messages. */
    private org.mpjlite.smpdev.p2p.Message matched;
    /** The communicator it was matched on: errors of the receive go through its error handler. */
    private Comm comm;
    private boolean noProc;

    /** The null message ({@code MPI_MESSAGE_NULL}). */
    public Message() {
    }

    /** True for the null message: nothing matched, or the matched message was received. */
    public boolean isNull() {
        return matched == null && !noProc;
    }

    /** True for the no-process message a matched probe of {@code MPI.PROC_NULL} gives. */
    public boolean isNoProc() {
        return noProc;
    }

    /**
     * MPI_Mprobe: waits for a message from {@code source} (or {@code MPI.ANY_SOURCE}) with
     * {@code tag} (or {@code MPI.ANY_TAG}) on {@code comm}, removes it from matching and makes this
     * object that message. Returns its status (source, tag, and the count it carries).
     */
    public Status mProbe(int source, int tag, Comm comm) {
        return probe("mProbe", source, tag, comm, true);
    }

    /**
     * MPI_Improbe: as {@link #mProbe}, but returns at once: null (this object unchanged) when no
     * matching message has arrived.
     */
    public Status imProbe(int source, int tag, Comm comm) {
        return probe("imProbe", source, tag, comm, false);
    }

    /**
     * MPI_Mrecv: receives this matched message into {@code buf} ({@code count} items of
     * {@code type}) and returns its status; this object becomes the null message. A message longer
     * than the buffer is {@code MPI_ERR_TRUNCATE} (the buffer gets the part that fits), a mismatched
     * type {@code MPI_ERR_TYPE}; either way the message is consumed.
     */
    public Status mRecv(Object buf, int count, Datatype type) {
        String call = "mRecv";
        Comm c = comm;
        try {
            org.mpjlite.smpdev.diag.Tracer t = c == null ? null : c.rank(call).tracer();
            long start = t == null ? 0 : t.now();
            RecvRequest op = receive(call, c, buf, count, type);
            Status s = op == null ? Status.procNull() : PointToPointCalls.received(op, call, t);
            if (t != null) {
                PointToPointCalls.traced(t, start, call, c, s.source, s.tag, count, type);
            }
            return s;
        } catch (MPIException e) {
            throw c == null ? e : c.raise(e);
        }
    }

    /**
     * MPI_Imrecv: receives this matched message as {@link #mRecv} does and returns its request;
     * this object becomes the null message. The message has already arrived, so the data is moved
     * before this returns and the request is complete (its wait returns the status, or throws a
     * truncation or type error).
     */
    public Request imRecv(Object buf, int count, Datatype type) {
        String call = "imRecv";
        Comm c = comm;
        try {
            RecvRequest op = receive(call, c, buf, count, type);
            Request r = new Request(c.rank(call), op, op == null ? Status.procNull() : null, c);
            if (op != null) {
                RequestAudit.receive(r, call, c, op.source(), op.tag(), count, type);
            }
            return r;
        } catch (MPIException e) {
            throw c == null ? e : c.raise(e);
        }
    }

    private Status probe(String call, int source, int tag, Comm c, boolean block) {
        if (c == null) {
            throw new MPIException(MPI.ERR_COMM, call + ": communicator is null");
        }
        try {
            Rank me = c.rank(call);
            Check.source(call, source, c.peerCount(me));
            Check.recvTag(call, tag);
            if (source == MPI.PROC_NULL) {
                matched = null;
                noProc = true;
                comm = c;
                return Status.procNull();
            }
            org.mpjlite.smpdev.p2p.Message m = block ? PointToPoint.mprobe(me, c.context, source, tag, call)
                : PointToPoint.improbe(me, c.context, source, tag);
            if (m == null) {
                me.pollMissed();
                return null;
            }
            matched = m;
            noProc = false;
            comm = c;
            return Status.of(m);
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    /**
     * Receives the matched message on {@code c}, leaving this object the null message; null for
     * the no-process message, which receives nothing. The arguments are checked first: a call with
     * a bad buffer leaves the message matched.
     */
    private RecvRequest receive(String call, Comm c, Object buf, int count, Datatype type) {
        if (isNull()) {
            throw new MPIException(MPI.ERR_REQUEST, call + ": the message is the null message (MPI_MESSAGE_NULL):"
                + " no matched probe (mProbe/imProbe) gave it a message, or it was already received");
        }
        Rank me = c.rank(call);
        Check.buffer(call, buf, 0, count, type);
        Check.writable(call, buf);
        org.mpjlite.smpdev.p2p.Message m = matched;
        matched = null;
        noProc = false;
        if (m == null) {
            return null;
        }
        return PointToPoint.mrecv(me, m, buf, 0, count, type.map, call);
    }
}
