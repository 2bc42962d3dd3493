package org.mpjlite.smpdev.p2p;

import org.mpjlite.matching.Mailbox;
import org.mpjlite.matching.MessageRing;
import org.mpjlite.matching.ReceiveLine;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.Request;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.Copier;
import org.mpjlite.smpdev.data.Packing;
import org.mpjlite.smpdev.data.Stash;
import org.mpjlite.smpdev.data.TypeMap;
import org.mpjlite.smpdev.diag.CallSite;

/**
 * The message path of the device: send protocols and receive posting, between ranks of one job.
 *
 * <p>A small message (at most {@link ReceiveLine#DATA_BYTES} bytes of contiguous elements of one
 * basic type) to a rank whose published receive takes it is left in that rank's receive line, and
 * the receiver completes the receive from there ({@link Transfer#matchedInLine}). Any other send
 * first asks the destination's mailbox for a receive that is already posted: if there is one (the
 * locked mailbox's list, or the lock-free mailbox's published receive), the data moves straight
 * from the sender's buffer into the receiver's, one copy, whatever the size and mode.
 * A small eager message (at most {@link MessageRing#DATA_BYTES} bytes of one basic type) that finds
 * no receive to claim goes into the next cell of the sender's {@link MessageRing} to the receiver
 * (lock-free mailbox only), which the receiver reads when it matches: the cell's line crosses (and
 * the spill's or overflow's, for a message longer than the cell's own data) and nothing is
 * allocated. A ring is opened for a stream: once {@link Tunables#RING_AFTER_UNCLAIMED} messages of
 * up to {@link Tunables#RING_OPENING_BYTES} in a row found no receive to claim, or by a longer
 * message that finds the receiver's inbox still holding messages (a ping-pong's message that
 * arrived before its receive finds it empty, and opens none). Once a sender has a ring to a
 * receiver, all its messages there keep the ring's order, and it claims posted receives only while
 * the ring is drained: for a message the ring can take, as the sender last read the receiver's
 * progress ({@link MessageRing#seemsDrained}: a stream reads nothing the receiver writes, and keeps
 * to its ring), for any other as it is now. A receive that takes a cell's
 * message as it would take it in its line gets it straight from the cell
 * ({@link Transfer#matchedInCell}). Otherwise the protocol decides:
 * <ul>
 *   <li>eager (standard or ready mode, at most the eager threshold): the data is copied into the
 *       message's own reused array (up to {@link Tunables#SMALL_COPY_BYTES}) or a pooled buffer, and
 *       the send completes at once;</li>
 *   <li>buffered: the same, charged against the buffer attached with {@code Buffer_attach};</li>
 *   <li>rendezvous (larger messages, and every synchronous send): the message points at the
 *       sender's buffer; the receiver copies once, straight from it, and completes the send.</li>
 * </ul>
 *
 * <p>Messages and the requests of blocking receives are recycled per rank ({@link Recycler}), and a
 * message left in a receive line or a ring cell is no object on the sender's side, so a small
 * message allocates nothing in steady state.
 *
 * <p>Arguments are validated by the API layer; ranks here are world ranks for routing, and envelope
 * sources are ranks within the communicator. Stateless; thread-safe.
 */
public final class PointToPoint {
    private PointToPoint() {
    }

    /**
     * Starts a send of {@code count} elements of a basic type. The returned request is already
     * complete for eager and buffered sends.
     *
     * @param source the sender's rank in the communicator (the envelope's source)
     * @param index  first element of the sender's buffer
     */
    public static SendRequest isend(Rank me, Rank dest, int context, int source, int tag, Object buffer, int index,
                                    int count, BasicType type, SendMode mode, String call) {
        return isend(me, dest, context, source, tag, buffer, index, count, TypeMap.of(type), mode, call);
    }

    /**
     * Starts a send of {@code items} items of a datatype. Contiguous data moves as basic elements;
     * non-contiguous data and objects are gathered (objects serialized) into a stash at once, so the
     * message carries a copy taken at send time; the protocol then decides when the send completes.
     *
     * @param index first unit ({@link TypeMap#unit()}) of the sender's buffer
     * @throws IllegalArgumentException if an object element is not serializable
     */
    public static SendRequest isend(Rank me, Rank dest, int context, int source, int tag, Object buffer, int index,
                                    int items, TypeMap map, SendMode mode, String call) {
        return isend(me, dest, context, source, tag, buffer, index, items, map, mode, call, 0);
    }

    /**
     * As {@link #isend(Rank, Rank, int, int, int, Object, int, int, TypeMap, SendMode, String)}, for a
     * traced send: the message carries {@code flow} to the receive that gets it (0: not traced).
     */
    public static SendRequest isend(Rank me, Rank dest, int context, int source, int tag, Object buffer, int index,
                                    int items, TypeMap map, SendMode mode, String call, long flow) {
        MessageRing ring = dest == me ? null : me.endpoint().rings().to(dest);
        // A claim of a posted receive would overtake this sender's messages still in its ring. As
        // last seen: a stream keeps to its ring without reading the index the receiver writes. A
        // buffered send claims none: it goes through the attached buffer whether or not its receive
        // is posted, so that it fails without one (or when it is full) every time, not only when the
        // receiver is late.
        boolean claims = mode != SendMode.BUFFERED && (ring == null || ring.seemsDrained());
        if (flow == 0 && claims && inLine(dest, context, source, tag, buffer, index, items, map)) {
            if (ring == null && dest != me) {
                me.endpoint().rings().claimed(dest, map.size() * items);
            }
            return me.endpoint().completedSend();
        }
        return send(me, dest, context, source, tag, buffer, index, items, map, mode, call, flow, ring, claims);
    }

    /** Every send but one left in the receive line: the ring, a claimed receive, or the protocol. */
    private static SendRequest send(Rank me, Rank dest, int context, int source, int tag, Object buffer, int index,
                                    int items, TypeMap map, SendMode mode, String call, long flow, MessageRing ring,
                                    boolean claims) {
        long bytes = map.size() * items;
        boolean fits = flow == 0 && dest != me && fitsRing(me, map, bytes, mode);
        if (fits && !claims) {
            return inRing(me, dest, ring, context, source, tag, buffer, index, items, map, call, null);
        }
        if (!claims && mode != SendMode.BUFFERED) {
            // A message the ring cannot take: worth a fresh look, since a claim spares it a copy
            // (not a buffered one's, which claims no receive: see isend).
            claims = ring.isDrained();
        }
        Message m = me.endpoint().recycler().message(context, source, tag, map, items, call);
        m.flow = flow;
        if (me.job().config().check()) {
            m.site = CallSite.here();
        }
        boolean gathered = !map.isContiguous() || map.isObjects();
        if (gathered) {
            m.stash = Packing.gather(me.job().buffers(), buffer, (long) index * map.unit(), items, map);
        }
        Mailbox<Message, RecvRequest> box = dest.endpoint().mailbox();
        RecvRequest posted = claims ? box.matchPosted(m) : null;
        if (posted != null) {
            if (!gathered) {
                m.pointAt(buffer, index);
            }
            dest.endpoint().transfer().matched(posted, m);
            if (dest != me) {
                // Consumed on this thread, not the receiver's: this rank keeps it for its next send.
                me.endpoint().recycler().keep(m);
                if (fits && ring == null) {
                    me.endpoint().rings().claimed(dest, bytes);
                }
            }
            return me.endpoint().completedSend();
        }
        if (fits) {
            if (ring == null) {
                ring = me.endpoint().rings().unclaimed(dest, bytes);
            }
            if (ring != null) {
                return inRing(me, dest, ring, context, source, tag, buffer, index, items, map, call, m);
            }
        }
        SendRequest request;
        if (mode == SendMode.BUFFERED) {
            BsendBuffer attached = me.endpoint().bsendBuffer(call);
            m.bsendBytes = attached.reserve((int) bytes, call);
            m.bsendBuffer = attached;
            if (!gathered) {
                m.stash = Stash.fill(me.job().buffers(), buffer, index, m.count, m.type);
            }
            request = me.endpoint().completedSend();
        } else if (mode != SendMode.SYNCHRONOUS && bytes <= me.job().config().eagerThreshold()) {
            if (!gathered) {
                m.eagerCopy(me.job().buffers(), buffer, index);
            }
            request = me.endpoint().completedSend();
        } else {
            request = new SendRequest(me, dest, context, tag, items, map, call);
            me.endpoint().sendWaiting(request);
            if (!gathered) {
                m.pointAt(buffer, index);
            }
            request.waitsOn(m);
        }
        if (ring != null) {
            m.followsIndicesOf(ring); // matched after every index this rank claimed before
        }
        box.deliver(m);
        dest.doorbell().ring();
        return request;
    }

    /**
     * Whether a send may go through a {@link MessageRing}: an eager message (standard or ready mode,
     * within the eager threshold) of at most {@link MessageRing#DATA_BYTES} bytes of one basic type
     * (its datatype the basic one, so the receiver's message of the cell has the sender's signature),
     * not under {@code --check} (whose messages carry their call site).
     */
    private static boolean fitsRing(Rank me, TypeMap map, long bytes, SendMode mode) {
        BasicType type = map.base();
        return type != null && map == TypeMap.of(type) && !map.isObjects() && bytes <= MessageRing.DATA_BYTES
            && (mode == SendMode.STANDARD || mode == SendMode.READY) && bytes <= me.job().config().eagerThreshold()
            && !me.job().config().check();
    }

    /**
     * Sends a small message through the sender's ring to {@code dest}: into the next cell, which the
     * receiver reads when it matches (one line crosses, nothing is allocated); or, when the ring is
     * full, through the inbox carrying the index it claimed. Complete on return (eager).
     */
    private static SendRequest inRing(Rank me, Rank dest, MessageRing ring, int context, int source, int tag,
                                      Object buffer, int index, int items, TypeMap map, String call, Message made) {
        BasicType type = map.base();
        // The message for the inbox is made ready before the claim when the ring looks full: nothing
        // that can fail (an allocation) may come between a claim and its delivery, which the
        // receiver waits for.
        Message m = made;
        boolean ready = false;
        if (!ring.hasCell(ring.nextIndex())) {
            m = eagerMessage(me, m, context, source, tag, buffer, index, items, map, call);
            ready = true;
        }
        long claimed = ring.claim();
        boolean inCell = ring.hasCell(claimed);
        boolean written = false;
        try {
            written = inCell && CellData.write(buffer, index, ring, claimed, items, type);
            if (!written && !ready) {
                // The ring is full (another thread of this rank filled it since the look above), or
                // its mailbox has no room for the overflow the message needs: through the inbox.
                m = eagerMessage(me, m, context, source, tag, buffer, index, items, map, call);
            }
        } catch (RuntimeException | Error e) {
            if (inCell) { // the receiver waits for every claimed index: this one carries no message
                ring.publish(claimed, context, source, tag, MessageRing.NO_MESSAGE, 0, 0, call);
            }
            throw e;
        }
        if (written) {
            ring.publish(claimed, context, source, tag, Message.kindOf(type), items, items * type.size(), call);
            if (m != null) {
                me.endpoint().recycler().keep(m);
            }
        } else {
            m.takesIndex(ring, claimed);
            dest.endpoint().mailbox().deliver(m);
        }
        dest.doorbell().ring();
        return me.endpoint().completedSend();
    }

    /** An eager message carrying its own copy of the data: {@code m} if made already, else a new one. */
    private static Message eagerMessage(Rank me, Message m, int context, int source, int tag, Object buffer, int index,
                                        int items, TypeMap map, String call) {
        if (m == null) {
            m = me.endpoint().recycler().message(context, source, tag, map, items, call);
        }
        m.eagerCopy(me.job().buffers(), buffer, index);
        return m;
    }

    /**
     * Leaves a small message of contiguous elements of one basic type in the destination's receive
     * line, if the receive published there takes it: the sender claims the receive, writes the
     * data, the status and the filled word into the line the receiver polls, and the receiver moves
     * the data into its buffer and completes the receive ({@link Transfer#matchedInLine}). One
     * line (two past its first 8 bytes of data) crosses to the receiver; no message is made. True
     * if the message went this way, false if it must take the general path.
     */
    private static boolean inLine(Rank dest, int context, int source, int tag, Object buffer, int index, int items,
                                  TypeMap map) {
        long bytes = map.size() * items;
        int kind = RecvRequest.lineKind(map);
        if (bytes > ReceiveLine.DATA_BYTES || kind == 0) {
            return false;
        }
        Mailbox<Message, RecvRequest> box = dest.endpoint().mailbox();
        long claimed = box.claimLine(context, source, tag, kind, (int) bytes);
        if (claimed == Mailbox.NO_CLAIM) {
            return false;
        }
        ReceiveLine line = box.line();
        BasicType type = map.base();
        int count = (int) (map.elements() * items); // contiguous elements of one type: no division
        Copier.copy(buffer, index, line.data(), 0, count, type);
        line.fill(claimed, source, tag, count);
        dest.doorbell().ring();
        return true;
    }

    /** Posts a receive of {@code capacity} elements of a basic type; it may be complete on return. */
    public static RecvRequest irecv(Rank me, int context, int source, int tag, Object buffer, int index,
                                    int capacity, BasicType type, String call) {
        return irecv(me, context, source, tag, buffer, index, capacity, TypeMap.of(type), call);
    }

    /**
     * Posts a receive of up to {@code capacity} items of a datatype, from unit {@code index} of the
     * buffer; it may be complete on return.
     */
    public static RecvRequest irecv(Rank me, int context, int source, int tag, Object buffer, int index,
                                    int capacity, TypeMap map, String call) {
        return irecv(me, context, source, tag, buffer, index, capacity, map, call, false);
    }

    /**
     * As {@link #irecv(Rank, int, int, int, Object, int, int, TypeMap, String)}; with
     * {@code bytesAsMemory}, a message of MPI.BYTE is received as the raw bytes (native order) of the
     * receive's elements, whatever their type, as Open MPI's bindings receive it.
     */
    public static RecvRequest irecv(Rank me, int context, int source, int tag, Object buffer, int index,
                                    int capacity, TypeMap map, String call, boolean bytesAsMemory) {
        RecvRequest r = me.endpoint().recycler().receive(me, context, source, tag, buffer, index, capacity, map, call);
        r.bytesAsMemory = bytesAsMemory;
        if (me.job().config().check()) {
            r.site = CallSite.here();
        }
        r.offersLine();
        me.endpoint().mailbox().post(r);
        return r;
    }

    /** The earliest waiting message the pattern accepts, left in place; null if none. */
    public static Message iprobe(Rank me, int context, int source, int tag) {
        return me.endpoint().mailbox().probe(context, source, tag);
    }

    /** Waits for a message the pattern accepts and returns it, left in place. */
    public static Message probe(Rank me, int context, int source, int tag, String call) {
        ProbeWait wait = new ProbeWait(me, context, source, tag, false);
        me.await(wait, call);
        return wait.found;
    }

    /**
     * Matched probe (MPI_Improbe): removes the earliest waiting message the pattern accepts from
     * matching and returns it; null if none. No other receive or probe of any thread can match the
     * returned message; the caller must receive it with {@link #mrecv}.
     */
    public static Message improbe(Rank me, int context, int source, int tag) {
        Message m = me.endpoint().mailbox().take(context, source, tag);
        if (m != null) {
            me.endpoint().probed(m);
        }
        return m;
    }

    /** Matched probe (MPI_Mprobe): waits for a message the pattern accepts and removes it as {@link #improbe}. */
    public static Message mprobe(Rank me, int context, int source, int tag, String call) {
        ProbeWait wait = new ProbeWait(me, context, source, tag, true);
        me.await(wait, call);
        me.endpoint().probed(wait.found);
        return wait.found;
    }

    /**
     * Receives a message taken by a matched probe (MPI_Mrecv) into up to {@code capacity} items of
     * a datatype from unit {@code index} of the buffer: an eager message is copied from its copy, a
     * rendezvous one straight from the sender's buffer, and its sender completes. The returned
     * request is complete (or failed: type mismatch, truncation), on the calling thread.
     */
    public static RecvRequest mrecv(Rank me, Message message, Object buffer, int index, int capacity, TypeMap map,
                                    String call) {
        RecvRequest r = new RecvRequest(me, message.context(), message.source(), message.tag(), buffer, index,
            capacity, map, call);
        if (me.job().config().check()) {
            r.site = CallSite.here();
        }
        me.endpoint().received(message);
        me.endpoint().transfer().matched(r, message);
        return r;
    }

    /** Waits until every request is complete. */
    public static void awaitAll(Rank me, Request[] requests, String call) {
        me.await(new RequestsWait(requests, true), call);
    }

    /**
     * Waits until at least one of the requests (nulls skipped) is complete; returns the index of the
     * first complete one, or -1 if all are null.
     */
    public static int awaitAny(Rank me, Request[] requests, String call) {
        boolean any = false;
        for (Request r : requests) {
            any |= r != null;
        }
        if (!any) {
            return -1;
        }
        me.await(new RequestsWait(requests, false), call);
        return firstComplete(requests);
    }

    /** Index of the first complete request (nulls skipped), or -1. */
    private static int firstComplete(Request[] requests) {
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (r != null && r.isComplete()) {
                return i;
            }
        }
        return -1;
    }

    /** Lets the calling rank's mailbox match what has arrived (a Test or Iprobe makes progress). */
    public static void progress(Rank me) {
        me.endpoint().mailbox().progress();
    }
}
