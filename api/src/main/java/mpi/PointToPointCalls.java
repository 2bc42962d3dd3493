package mpi;

import java.nio.Buffer;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.data.Copier;
import org.mpjlite.smpdev.data.Packing;
import org.mpjlite.smpdev.diag.Tracer;
import org.mpjlite.smpdev.p2p.Message;
import org.mpjlite.smpdev.p2p.PointToPoint;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.mpjlite.smpdev.p2p.SendMode;
import org.mpjlite.smpdev.p2p.SendRequest;

/**
 * The point-to-point implementation every dialect's call goes through (send, receive, their
 * non-blocking and persistent forms, send-receive, probe): checks the arguments against the
 * communicator, starts the device operation on its contexts and hands errors to the communicator's
 * error handler ({@link Comm#raise}). The public methods of {@link Comm} name the call and delegate
 * here. A call of the common kind (a predefined type in a buffer of its own type, valid peer and tag)
 * is posted on a plain path ({@link #plainRecv}, {@link #isPlainSend}) that decides with a few
 * comparisons; every other call, and every wrong one, takes the general path, which checks each
 * argument and says what is wrong. Stateless; thread-safe as MPI requires at {@code THREAD_MULTIPLE}.
 */
final class PointToPointCalls {
    private PointToPointCalls() {
    }

    private static SendRequest startSend(Comm c, String call, Rank me, Object buf, int offset, int count, Datatype type,
                                         int dest, int tag, SendMode mode) {
        if (isPlainSend(c, me, buf, offset, count, type, dest, tag, mode)) {
            return startPlainSend(c, call, me, buf, offset, count, type, dest, tag, mode);
        }
        Slices.Parent from = Slices.addressed(buf, offset, count, type);
        offset = Slices.offset(from, offset);
        buf = Reinterpreted.forSend(call, Slices.buffer(from, buf), offset, count, type);
        Check.buffer(call, buf, offset, count, type);
        Check.dest(call, dest, c.peerCount(me));
        Check.sendTag(call, tag);
        if (dest == MPI.PROC_NULL) {
            return null;
        }
        if (type.map.isObjects()) {
            Check.serializable(call, buf, offset, count, type);
        }
        if (mode == SendMode.BUFFERED && Reinterpreted.openMpi(call)
            && (long) type.map.size() * count <= me.job().config().eagerThreshold()) {
            mode = SendMode.STANDARD; // Open MPI's buffered send of an eager-sized message: see Comm#bSend
        }
        try {
            Rank to = c.target(me, dest);
            Tracer t = me.tracer();
            long flow = t == null ? 0 : t.sending(to.id(), type.map.size() * count);
            return PointToPoint.isend(me, to, c.sendContext, c.rankIn(me), tag, buf, offset, count, type.map, mode,
                call, flow);
        } catch (IllegalArgumentException e) {
            throw new MPIException(MPI.ERR_ARG, call + ": cannot serialize the send buffer: " + e.getMessage());
        }
    }

    /** Starts a send {@link #isPlainSend} has found of the common kind. */
    private static SendRequest startPlainSend(Comm c, String call, Rank me, Object buf, int offset, int count,
                                              Datatype type, int dest, int tag, SendMode mode) {
        return PointToPoint.isend(me, c.target(me, dest), c.sendContext, c.rankIn(me), tag, buf, offset, count,
            type.map, mode, call, 0);
    }

    /**
     * Whether a send is the common one {@link #startSend} starts without the general path's lookups:
     * a predefined datatype of primitive elements from an array of exactly its element type or a
     * java.nio buffer it addresses ({@link Datatype#plainCapacity}), in bounds, to a rank of the
     * communicator, with a valid tag, in a mode other than buffered, on a rank that does not trace.
     * Such a send needs no slice's parent, no byte view, no serialization and no further check. When
     * not, the general path checks every argument and reports what is wrong.
     */
    private static boolean isPlainSend(Comm c, Rank me, Object buf, int offset, int count, Datatype type, int dest,
                                       int tag, SendMode mode) {
        return type != null && mode != SendMode.BUFFERED && me.tracer() == null && offset >= 0 && count >= 0
            && Check.fits(offset, count, type.units(), type.plainCapacity(buf))
            && Check.isSendTag(tag) && dest != MPI.PROC_NULL && Check.isDest(dest, c.peerCount(me));
    }

    private static RecvRequest startRecv(Comm c, String call, Rank me, Object buf, int offset, int count, Datatype type,
                                         int source, int tag) {
        Slices.Parent to = Slices.addressed(buf, offset, count, type);
        buf = Slices.buffer(to, buf);
        offset = Slices.offset(to, offset);
        checkRecvArguments(c, call, me, buf, offset, count, type, source, tag);
        if (source == MPI.PROC_NULL) {
            return null;
        }
        return PointToPoint.irecv(me, c.context, source, tag, buf, offset, count, type.map, call,
            Reinterpreted.openMpi(call));
    }

    /** The checks of {@link #startRecv}, of a buffer that is no longer a slice nor reinterpreted. */
    private static void checkRecvArguments(Comm c, String call, Rank me, Object buf, int offset, int count,
                                           Datatype type, int source, int tag) {
        Check.buffer(call, buf, offset, count, type);
        Check.writable(call, buf);
        Check.source(call, source, c.peerCount(me));
        Check.recvTag(call, tag);
    }

    /** Checks a receive's arguments as {@link #startRecv} does, posting nothing. */
    private static void checkRecv(Comm c, String call, Rank me, Object buf, int offset, int count, Datatype type,
                                  int source, int tag) {
        Slices.Parent to = Slices.addressed(buf, offset, count, type);
        checkRecvArguments(c, call, me, Slices.buffer(to, buf), Slices.offset(to, offset), count, type, source, tag);
    }

    /**
     * The common receive, posted without the general path's lookups: a predefined datatype of
     * primitive elements into an array of exactly its element type or a writable java.nio buffer
     * it addresses ({@link Datatype#plainCapacity}), in bounds, from a rank of the communicator or
     * {@code ANY_SOURCE}, with a valid tag, on a rank that neither traces nor audits its requests.
     * Such a receive needs no slice's parent, no byte view and no further check, and is posted as
     * {@link #startRecv} would post it. Null, having done nothing, when any of that does not hold:
     * the general path then checks every argument and reports what is wrong.
     */
    private static RecvRequest plainRecv(Comm c, String call, Rank me, Object buf, int offset, int count,
                                         Datatype type, int source, int tag) {
        if (type == null || me.tracer() != null || me.openRequests() != null || offset < 0 || count < 0
            || !Check.fits(offset, count, type.units(), type.plainCapacity(buf))
            || buf instanceof Buffer b && b.isReadOnly()
            || !Check.isRecvTag(tag) || source == MPI.PROC_NULL || !Check.isSource(source, c.peerCount(me))) {
            return null;
        }
        return PointToPoint.irecv(me, c.context, source, tag, buf, offset, count, type.map, call,
            Reinterpreted.openMpi(call));
    }

    static void send(Comm c, String call, Object buf, int offset, int count, Datatype type, int dest, int tag,
                     SendMode mode) {
        try {
            Rank me = c.rank(call);
            Tracer t = me.tracer();
            long start = t == null ? 0 : t.now();
            SendRequest op = startSend(c, call, me, buf, offset, count, type, dest, tag, mode);
            if (op != null) {
                op.await(call);
            }
            if (t != null) {
                traced(t, start, call, c, dest, tag, count, type);
            }
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Request isend(Comm c, String call, Object buf, int offset, int count, Datatype type, int dest, int tag,
                         SendMode mode) {
        return isend(c, call, buf, offset, count, type, dest, tag, mode, null);
    }

    /** Isend, or with {@code into} the persistent request it starts again (no new request). */
    private static Request isend(Comm c, String call, Object buf, int offset, int count, Datatype type, int dest,
                                 int tag, SendMode mode, Prequest into) {
        try {
            Rank me = c.rank(call);
            Tracer t = me.tracer();
            long start = t == null ? 0 : t.now();
            SendRequest op = startSend(c, call, me, buf, offset, count, type, dest, tag, mode);
            Request r = requestOf(me, op, c, into);
            RequestAudit.send(r, call, c, dest, tag, buf, offset, count, type);
            if (t != null) {
                traced(t, start, call, c, dest, tag, count, type);
            }
            return r;
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    /**
     * The program's request for an operation just started ({@code op}; null for a {@code PROC_NULL}
     * peer, which completes at once): a new one, or the persistent request {@code into}, started again.
     */
    private static Request requestOf(Rank me, org.mpjlite.smpdev.Request op, Comm c, Prequest into) {
        Status preset = op == null ? Status.procNull() : null;
        if (into == null) {
            return new Request(me, op, preset, c);
        }
        into.started(op, preset, c);
        return into;
    }

    /**
     * Waits for a blocking receive and returns its status, or throws its error. The device request
     * is then unreachable (a blocking receive never hands it to the program), so it is recycled.
     */
    static Status received(RecvRequest op, String call, Tracer t) {
        awaitReceived(op, call, t);
        return Status.taking(op);
    }

    /**
     * Waits for a blocking receive, or recycles it and throws its error; a received request is
     * left for the caller to read its status from and recycle ({@link Status#taking}).
     */
    private static void awaitReceived(RecvRequest op, String call, Tracer t) {
        op.await(call);
        if (t != null) {
            t.received(op.flow());
        }
        RuntimeException error = op.error();
        if (error != null) {
            op.recycle();
            throw error;
        }
    }

    /**
     * Records a point-to-point call in the rank's trace: {@code peer} as the program named it, or
     * the source of a message received from {@code MPI.ANY_SOURCE}.
     */
    static void traced(Tracer t, long start, String call, Comm c, int peer, int tag, int count,
                               Datatype type) {
        t.call(call, start, false, c.toString(), peer, tag, count, type.toString(), type.map.size() * count);
    }

    /**
     * A blocking receive up to its completion: the received request, its status not read yet and
     * not recycled, or null for a receive from {@code PROC_NULL}. Its callers, {@code Comm.recv}
     * and {@code Comm.Recv}, make the {@link Status} of it ({@link Status#taking}) in a method
     * small enough to inline into the program's loop, where the JIT drops a status the program
     * ignores; {@code bin/mpjrun} keeps this method out of line so that they stay that small.
     */
    static RecvRequest recv(Comm c, String call, Object buf, int offset, int count, Datatype type, int source,
                            int tag) {
        try {
            Rank me = c.rank(call);
            RecvRequest plain = plainRecv(c, call, me, buf, offset, count, type, source, tag);
            if (plain != null) {
                awaitReceived(plain, call, null);
                return plain;
            }
            Tracer t = me.tracer();
            long start = t == null ? 0 : t.now();
            Reinterpreted view = Reinterpreted.forRecv(call, buf, offset, count, type);
            RecvRequest op = startRecv(c, call, me, Reinterpreted.buffer(view, buf), offset, count, type, source, tag);
            if (op != null) {
                awaitReceived(op, call, t);
            }
            Reinterpreted.writeBack(view);
            if (t != null) {
                traced(t, start, call, c, op == null ? source : op.statusSource(), op == null ? tag : op.statusTag(),
                    count, type);
            }
            return op;
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Request irecv(Comm c, String call, Object buf, int offset, int count, Datatype type, int source, int tag) {
        return irecv(c, call, buf, offset, count, type, source, tag, null);
    }

    /** Irecv, or with {@code into} the persistent request it starts again (no new request). */
    private static Request irecv(Comm c, String call, Object buf, int offset, int count, Datatype type, int source,
                                 int tag, Prequest into) {
        try {
            Rank me = c.rank(call);
            RecvRequest plain = plainRecv(c, call, me, buf, offset, count, type, source, tag);
            if (plain != null) {
                return requestOf(me, plain, c, into);
            }
            Tracer t = me.tracer();
            long start = t == null ? 0 : t.now();
            Reinterpreted view = Reinterpreted.forRecv(call, buf, offset, count, type);
            RecvRequest op = startRecv(c, call, me, Reinterpreted.buffer(view, buf), offset, count, type, source, tag);
            Request r = requestOf(me, op, c, into);
            if (op != null && view != null) {
                r.onCompletion = view::writeBack;
            }
            RequestAudit.receive(r, call, c, source, tag, count, type);
            if (t != null) {
                traced(t, start, call, c, source, tag, count, type);
            }
            return r;
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Prequest sendInit(Comm c, String call, Object buf, int offset, int count, Datatype type, int dest, int tag,
                             SendMode mode) {
        try {
            Rank me = c.rank(call);
            Slices.Parent from = Slices.addressed(buf, offset, count, type);
            int at = Slices.offset(from, offset);
            Check.buffer(call, Reinterpreted.forSend(call, Slices.buffer(from, buf), at, count, type), at, count, type);
            Check.dest(call, dest, c.peerCount(me));
            Check.sendTag(call, tag);
            return new Prequest(me, (into, start) -> isend(c, startCall(call, start), buf, offset, count, type, dest, tag,
                mode, into));
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Prequest recvInit(Comm c, String call, Object buf, int offset, int count, Datatype type, int source,
                             int tag) {
        try {
            Rank me = c.rank(call);
            Slices.Parent from = Slices.addressed(buf, offset, count, type);
            int at = Slices.offset(from, offset);
            Check.buffer(call, Reinterpreted.forSend(call, Slices.buffer(from, buf), at, count, type), at, count, type);
            Check.writable(call, Slices.buffer(from, buf));
            Check.source(call, source, c.peerCount(me));
            Check.recvTag(call, tag);
            return new Prequest(me, (into, start) -> irecv(c, startCall(call, start), buf, offset, count, type, source,
                tag, into));
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    /**
     * The name a persistent request made by {@code init} starts under: {@code start}, the call the
     * program made (Start, Startall...), when it is of the init's dialect, which decides how the
     * buffer is read; else that dialect's Start.
     */
    private static String startCall(String init, String start) {
        boolean openMpi = Reinterpreted.openMpi(init);
        return Reinterpreted.openMpi(start) == openMpi ? start : openMpi ? "start" : "Start";
    }

    /**
     * Sendrecv up to its completion: the received request, its status not read yet and not
     * recycled, or null for a receive from {@code PROC_NULL}; its callers make the {@link Status}
     * of it ({@link Status#taking}), as {@link #recv}'s do. Each half takes the plain path when
     * it is of the common kind, as {@link #recv} and {@link #send} do.
     *
     * <p>A call that fails has no effect. The receive is posted before the send starts, so that a
     * sender finds it posted; but a send half not of the common kind may fail as it starts (a
     * check, an object that does not serialize), and a receive left posted by a failed call would
     * take a later message. So such a send starts first, once the receive half's arguments are
     * checked (its errors come first), and the receive is posted after it: both are started before
     * either is waited for, so the order does not change what can complete.
     */
    static RecvRequest sendRecv(Comm c, String call, Object sbuf, int soff, int scount, Datatype stype, int dest,
                                int stag, Object rbuf, int roff, int rcount, Datatype rtype, int source, int rtag) {
        try {
            Rank me = c.rank(call);
            Tracer t = me.tracer();
            long start = t == null ? 0 : t.now();
            boolean plainSend = isPlainSend(c, me, sbuf, soff, scount, stype, dest, stag, SendMode.STANDARD);
            RecvRequest r = plainSend ? plainRecv(c, call, me, rbuf, roff, rcount, rtype, source, rtag) : null;
            Reinterpreted view = null;
            SendRequest s = null;
            if (r == null) {
                view = Reinterpreted.forRecv(call, rbuf, roff, rcount, rtype);
                Object into = Reinterpreted.buffer(view, rbuf);
                if (!plainSend) {
                    checkRecv(c, call, me, into, roff, rcount, rtype, source, rtag);
                    s = startSend(c, call, me, sbuf, soff, scount, stype, dest, stag, SendMode.STANDARD);
                }
                r = startRecv(c, call, me, into, roff, rcount, rtype, source, rtag);
            }
            if (plainSend) {
                s = startPlainSend(c, call, me, sbuf, soff, scount, stype, dest, stag, SendMode.STANDARD);
            }
            if (s != null) {
                s.await(call);
            }
            if (r != null) {
                awaitReceived(r, call, t);
            }
            Reinterpreted.writeBack(view);
            if (t != null) {
                // The slice shows the send's side; the flows show both messages.
                traced(t, start, call, c, dest, stag, scount, stype);
            }
            return r;
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Status sendRecvReplace(Comm c, String call, Object buf, int offset, int count, Datatype type, int dest,
                                  int stag, int source, int rtag) {
        try {
            Check.buffer(call, buf, offset, count, type);
            if (!type.map.isContiguous()) {
                // The outgoing data leave from a copy of the whole buffer, so the receive can land in place.
                Object outgoing = Packing.copyOf(buf, type.basic);
                return Status.taking(sendRecv(c, call, outgoing, offset, count, type, dest, stag, buf, offset, count,
                    type, source, rtag));
            }
            Object incoming = type.basic.newArray(count * type.units());
            Status st = Status.taking(sendRecv(c, call, buf, offset, count, type, dest, stag, incoming, 0, count, type,
                source, rtag));
            if (source != MPI.PROC_NULL) {
                Copier.copy(incoming, 0, buf, offset, st.parts(), type.basic);
            }
            return st;
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    /**
     * Probe, or Iprobe when not {@code blocking}: the status of a waiting message the pattern
     * accepts; for Iprobe null if there is none yet.
     */
    static Status probe(Comm c, String call, int source, int tag, boolean blocking) {
        try {
            Rank me = c.rank(call);
            Check.source(call, source, c.peerCount(me));
            Check.recvTag(call, tag);
            if (source == MPI.PROC_NULL) {
                return Status.procNull();
            }
            Tracer t = me.tracer();
            long start = t == null ? 0 : t.now();
            Message m = blocking ? PointToPoint.probe(me, c.context, source, tag, call)
                : PointToPoint.iprobe(me, c.context, source, tag);
            if (m == null) {
                me.pollMissed();
            }
            if (t != null) {
                // An Iprobe that finds nothing counts its time only: a polling loop would fill the trace.
                if (m == null) {
                    t.untraced(start);
                } else {
                    t.call(call, start, false, c.toString(), m.source(), m.tag(), m.count(), null, m.bytes());
                }
            }
            return m == null ? null : Status.of(m);
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }
}
