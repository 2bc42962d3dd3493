package mpi;

import org.mpjlite.smpdev.Message;
import org.mpjlite.smpdev.PointToPoint;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.RecvRequest;
import org.mpjlite.smpdev.SendMode;
import org.mpjlite.smpdev.SendRequest;

/**
 * A communicator: a group of ranks and a matching context, so that traffic on one communicator
 * never matches receives on another. Point-to-point in both dialects: mpiJava 1.2 ({@code Send},
 * {@code Recv}... with element offsets) and Open MPI Java ({@code send}, {@code recv}... without;
 * use {@link MPI#slice} for an offset). Buffers are arrays of any primitive type or {@code java.nio}
 * buffers, direct or heap, addressed from index 0 (the position is ignored, as in Open MPI).
 *
 * <p>{@code COMM_WORLD} and {@code COMM_SELF} of programs run from a shared class loader (embedded
 * lambdas) resolve their rank from the calling thread; every other communicator is bound to its
 * rank. Thread-safe as MPI requires at {@code THREAD_MULTIPLE}.
 */
public class Comm {
    static {
        MPIException.install();
    }

    /** The rank this communicator belongs to; null: the calling thread's. */
    private final Rank bound;
    /** Matching context of point-to-point traffic. */
    final int context;
    /** True for COMM_SELF. */
    private final boolean self;

    Comm(Rank bound, int context, boolean self) {
        this.bound = bound;
        this.context = context;
        this.self = self;
    }

    /** The calling rank, for a communication call: initialized, not finalized, job alive. */
    final Rank rank(String call) {
        Rank r = localRank(call);
        r.checkAlive(call);
        return r;
    }

    /** The calling rank, for a local query: initialized and not finalized. */
    final Rank localRank(String call) {
        Rank r = bound != null ? bound : Rank.current();
        if (r == null) {
            throw new MPIException(MPI.ERR_OTHER, call + ": MPI is not initialized (call MPI.Init first)");
        }
        r.checkLifecycle(call);
        return r;
    }

    final int size(Rank me) {
        return self ? 1 : me.job().size();
    }

    final int rankIn(Rank me) {
        return self ? 0 : me.id();
    }

    private Rank peer(Rank me, int commRank) {
        return self ? me : me.job().rank(commRank);
    }

    // ---- the implementation every dialect's call goes through ---------------------------------

    private SendRequest startSend(String call, Rank me, Object buf, int offset, int count, Datatype type, int dest,
                                  int tag, SendMode mode) {
        Check.buffer(call, buf, offset, count, type);
        Check.dest(call, dest, size(me));
        Check.sendTag(call, tag);
        if (dest == MPI.PROC_NULL) {
            return null;
        }
        return PointToPoint.isend(me, peer(me, dest), context, rankIn(me), tag, buf, offset, count, type.basic,
            mode, call);
    }

    private RecvRequest startRecv(String call, Rank me, Object buf, int offset, int count, Datatype type, int source,
                                  int tag) {
        Check.buffer(call, buf, offset, count, type);
        Check.writable(call, buf);
        Check.source(call, source, size(me));
        Check.recvTag(call, tag);
        if (source == MPI.PROC_NULL) {
            return null;
        }
        return PointToPoint.irecv(me, context, source, tag, buf, offset, count, type.basic, call);
    }

    final void send(String call, Object buf, int offset, int count, Datatype type, int dest, int tag, SendMode mode) {
        Rank me = rank(call);
        SendRequest op = startSend(call, me, buf, offset, count, type, dest, tag, mode);
        if (op != null) {
            op.await(call);
        }
    }

    final Request isend(String call, Object buf, int offset, int count, Datatype type, int dest, int tag,
                        SendMode mode) {
        Rank me = rank(call);
        SendRequest op = startSend(call, me, buf, offset, count, type, dest, tag, mode);
        return new Request(me, op, op == null ? Status.procNull() : null);
    }

    final Status recv(String call, Object buf, int offset, int count, Datatype type, int source, int tag) {
        Rank me = rank(call);
        RecvRequest op = startRecv(call, me, buf, offset, count, type, source, tag);
        if (op == null) {
            return Status.procNull();
        }
        op.await(call);
        if (op.failed()) {
            throw op.error();
        }
        return Status.of(op);
    }

    final Request irecv(String call, Object buf, int offset, int count, Datatype type, int source, int tag) {
        Rank me = rank(call);
        RecvRequest op = startRecv(call, me, buf, offset, count, type, source, tag);
        return new Request(me, op, op == null ? Status.procNull() : null);
    }

    final Prequest sendInit(String call, Object buf, int offset, int count, Datatype type, int dest, int tag,
                            SendMode mode) {
        Rank me = rank(call);
        Check.buffer(call, buf, offset, count, type);
        Check.dest(call, dest, size(me));
        Check.sendTag(call, tag);
        return new Prequest(me, () -> isend("Start", buf, offset, count, type, dest, tag, mode));
    }

    final Prequest recvInit(String call, Object buf, int offset, int count, Datatype type, int source, int tag) {
        Rank me = rank(call);
        Check.buffer(call, buf, offset, count, type);
        Check.source(call, source, size(me));
        Check.recvTag(call, tag);
        return new Prequest(me, () -> irecv("Start", buf, offset, count, type, source, tag));
    }

    final Status sendRecv(String call, Object sbuf, int soff, int scount, Datatype stype, int dest, int stag,
                          Object rbuf, int roff, int rcount, Datatype rtype, int source, int rtag) {
        Rank me = rank(call);
        RecvRequest r = startRecv(call, me, rbuf, roff, rcount, rtype, source, rtag);
        SendRequest s = startSend(call, me, sbuf, soff, scount, stype, dest, stag, SendMode.STANDARD);
        if (s != null) {
            s.await(call);
        }
        if (r == null) {
            return Status.procNull();
        }
        r.await(call);
        if (r.failed()) {
            throw r.error();
        }
        return Status.of(r);
    }

    final Status sendRecvReplace(String call, Object buf, int offset, int count, Datatype type, int dest,
                                 int stag, int source, int rtag) {
        Check.buffer(call, buf, offset, count, type);
        Object incoming = type.basic.newArray(count);
        Status st = sendRecv(call, buf, offset, count, type, dest, stag, incoming, 0, count, type, source, rtag);
        if (source != MPI.PROC_NULL) {
            org.mpjlite.smpdev.Copier.copy(incoming, 0, buf, offset, st.Get_count(type), type.basic);
        }
        return st;
    }

    final Status iprobe(String call, int source, int tag) {
        Rank me = rank(call);
        Check.source(call, source, size(me));
        Check.recvTag(call, tag);
        if (source == MPI.PROC_NULL) {
            return Status.procNull();
        }
        Message m = PointToPoint.iprobe(me, context, source, tag);
        return m == null ? null : Status.of(m);
    }

    final Status probe(String call, int source, int tag) {
        Rank me = rank(call);
        Check.source(call, source, size(me));
        Check.recvTag(call, tag);
        if (source == MPI.PROC_NULL) {
            return Status.procNull();
        }
        return Status.of(PointToPoint.probe(me, context, source, tag, call));
    }

    // ---- mpiJava 1.2 ------------------------------------------------------------------------

    public int Size() {
        return size(localRank("Size"));
    }

    public int Rank() {
        return rankIn(localRank("Rank"));
    }

    /** Ends the whole job with {@code errorcode} as its exit code. Does not return. */
    public void Abort(int errorcode) {
        Rank me = bound != null ? bound : Rank.current();
        if (me == null) {
            throw new MPIException(MPI.ERR_OTHER, "Abort: MPI is not initialized (call MPI.Init first)");
        }
        throw me.job().abort(me, errorcode);
    }

    public void Send(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        send("Send", buf, offset, count, type, dest, tag, SendMode.STANDARD);
    }

    public void Ssend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        send("Ssend", buf, offset, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    public void Bsend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        send("Bsend", buf, offset, count, type, dest, tag, SendMode.BUFFERED);
    }

    public void Rsend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        send("Rsend", buf, offset, count, type, dest, tag, SendMode.READY);
    }

    public Request Isend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return isend("Isend", buf, offset, count, type, dest, tag, SendMode.STANDARD);
    }

    public Request Ibsend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return isend("Ibsend", buf, offset, count, type, dest, tag, SendMode.BUFFERED);
    }

    public Request Issend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return isend("Issend", buf, offset, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    public Request Irsend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return isend("Irsend", buf, offset, count, type, dest, tag, SendMode.READY);
    }

    public Status Recv(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return recv("Recv", buf, offset, count, type, source, tag);
    }

    public Request Irecv(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return irecv("Irecv", buf, offset, count, type, source, tag);
    }

    public Prequest Send_init(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return sendInit("Send_init", buf, offset, count, type, dest, tag, SendMode.STANDARD);
    }

    public Prequest Bsend_init(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return sendInit("Bsend_init", buf, offset, count, type, dest, tag, SendMode.BUFFERED);
    }

    public Prequest Ssend_init(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return sendInit("Ssend_init", buf, offset, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    public Prequest Rsend_init(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return sendInit("Rsend_init", buf, offset, count, type, dest, tag, SendMode.READY);
    }

    public Prequest Recv_init(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return recvInit("Recv_init", buf, offset, count, type, source, tag);
    }

    public Status Sendrecv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, int dest, int sendtag,
                           Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int source, int recvtag) {
        return sendRecv("Sendrecv", sendbuf, sendoffset, sendcount, sendtype, dest, sendtag,
            recvbuf, recvoffset, recvcount, recvtype, source, recvtag);
    }

    public Status Sendrecv_replace(Object buf, int offset, int count, Datatype type, int dest, int sendtag,
                                   int source, int recvtag) {
        return sendRecvReplace("Sendrecv_replace", buf, offset, count, type, dest, sendtag, source, recvtag);
    }

    /** The status of a waiting message the pattern accepts, or null if there is none. */
    public Status Iprobe(int source, int tag) {
        return iprobe("Iprobe", source, tag);
    }

    public Status Probe(int source, int tag) {
        return probe("Probe", source, tag);
    }

    // ---- Open MPI Java ----------------------------------------------------------------------

    public final int getSize() {
        return size(localRank("getSize"));
    }

    public final int getRank() {
        return rankIn(localRank("getRank"));
    }

    public final void abort(int errorcode) {
        Abort(errorcode);
    }

    public final void send(Object buf, int count, Datatype type, int dest, int tag) {
        send("send", buf, 0, count, type, dest, tag, SendMode.STANDARD);
    }

    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) {
        send("sSend", buf, 0, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) {
        send("bSend", buf, 0, count, type, dest, tag, SendMode.BUFFERED);
    }

    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) {
        send("rSend", buf, 0, count, type, dest, tag, SendMode.READY);
    }

    public final Status recv(Object buf, int count, Datatype type, int source, int tag) {
        return recv("recv", buf, 0, count, type, source, tag);
    }

    /** Accepts NIO buffers (as Open MPI) and arrays (as MVAPICH2-J and mpiJava). */
    public final Request iSend(Object buf, int count, Datatype type, int dest, int tag) {
        return isend("iSend", buf, 0, count, type, dest, tag, SendMode.STANDARD);
    }

    public final Request ibSend(Object buf, int count, Datatype type, int dest, int tag) {
        return isend("ibSend", buf, 0, count, type, dest, tag, SendMode.BUFFERED);
    }

    public final Request isSend(Object buf, int count, Datatype type, int dest, int tag) {
        return isend("isSend", buf, 0, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    public final Request irSend(Object buf, int count, Datatype type, int dest, int tag) {
        return isend("irSend", buf, 0, count, type, dest, tag, SendMode.READY);
    }

    public final Request iRecv(Object buf, int count, Datatype type, int source, int tag) {
        return irecv("iRecv", buf, 0, count, type, source, tag);
    }

    public final Prequest sendInit(Object buf, int count, Datatype type, int dest, int tag) {
        return sendInit("sendInit", buf, 0, count, type, dest, tag, SendMode.STANDARD);
    }

    public final Prequest bSendInit(Object buf, int count, Datatype type, int dest, int tag) {
        return sendInit("bSendInit", buf, 0, count, type, dest, tag, SendMode.BUFFERED);
    }

    public final Prequest sSendInit(Object buf, int count, Datatype type, int dest, int tag) {
        return sendInit("sSendInit", buf, 0, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    public final Prequest rSendInit(Object buf, int count, Datatype type, int dest, int tag) {
        return sendInit("rSendInit", buf, 0, count, type, dest, tag, SendMode.READY);
    }

    public final Prequest recvInit(Object buf, int count, Datatype type, int source, int tag) {
        return recvInit("recvInit", buf, 0, count, type, source, tag);
    }

    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag) {
        return sendRecv("sendRecv", sendbuf, 0, sendcount, sendtype, dest, sendtag,
            recvbuf, 0, recvcount, recvtype, source, recvtag);
    }

    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source,
                                        int recvtag) {
        return sendRecvReplace("sendRecvReplace", buf, 0, count, type, dest, sendtag, source, recvtag);
    }

    public final Status iProbe(int source, int tag) {
        return iprobe("iProbe", source, tag);
    }

    public final Status probe(int source, int tag) {
        return probe("probe", source, tag);
    }

    @Override
    public String toString() {
        return self ? "MPI.COMM_SELF" : context == Intracomm.WORLD_CONTEXT ? "MPI.COMM_WORLD" : "Comm(context " + context + ")";
    }
}
