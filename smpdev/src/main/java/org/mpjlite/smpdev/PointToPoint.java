package org.mpjlite.smpdev;

import org.mpjlite.queues.Mailbox;

/**
 * The message path of the device: send protocols and receive posting, between ranks of one job.
 *
 * <p>A send first asks the destination's mailbox for a receive that is already posted: if there is
 * one (locked mailbox), the data moves straight from the sender's buffer into the receiver's, one
 * copy, whatever the size and mode. Otherwise the protocol decides:
 * <ul>
 *   <li>eager (standard or ready mode, at most the eager threshold): the data is copied into a pooled
 *       buffer and the send completes at once;</li>
 *   <li>buffered: the same, charged against the buffer attached with {@code Buffer_attach};</li>
 *   <li>rendezvous (larger messages, and every synchronous send): the message points at the
 *       sender's buffer; the receiver copies once, straight from it, and completes the send.</li>
 * </ul>
 *
 * <p>Arguments are validated by the API layer; ranks here are world ranks for routing, and envelope
 * sources are ranks within the communicator. Stateless; thread-safe.
 */
public final class PointToPoint {
    private PointToPoint() {
    }

    /**
     * Starts a send. The returned request is already complete for eager and buffered sends.
     *
     * @param source the sender's rank in the communicator (the envelope's source)
     * @param index  first element of the sender's buffer
     */
    public static SendRequest isend(Rank me, Rank dest, int context, int source, int tag, Object buffer, int index,
                                    int count, BasicType type, SendMode mode, String call) {
        Message m = new Message(context, source, tag, type, count);
        m.call = call;
        if (me.job().config().check()) {
            m.site = CallSite.here();
        }
        Mailbox<Message, RecvRequest> box = dest.mailbox();
        RecvRequest posted = box.matchPosted(m);
        if (posted != null) {
            m.data = buffer;
            m.dataIndex = index;
            dest.job().transfer().matched(posted, m);
            return me.completedSend();
        }
        long bytes = (long) count * type.size();
        SendRequest request;
        if (mode == SendMode.BUFFERED) {
            BsendBuffer attached = me.bsendBuffer(call);
            m.bsendBytes = attached.reserve((int) bytes, call);
            m.bsendBuffer = attached;
            m.stash = Stash.fill(me.job().buffers(), buffer, index, count, type);
            request = me.completedSend();
        } else if (mode != SendMode.SYNCHRONOUS && bytes <= me.job().config().eagerThreshold()) {
            m.stash = Stash.fill(me.job().buffers(), buffer, index, count, type);
            request = me.completedSend();
        } else {
            request = new SendRequest(me, dest, context, tag, count, type, call);
            m.data = buffer;
            m.dataIndex = index;
            m.sender = request;
        }
        box.deliver(m);
        dest.wake();
        return request;
    }

    /** Posts a receive; it may be complete on return. */
    public static RecvRequest irecv(Rank me, int context, int source, int tag, Object buffer, int index,
                                    int capacity, BasicType type, String call) {
        RecvRequest r = new RecvRequest(me, context, source, tag, buffer, index, capacity, type, call);
        if (me.job().config().check()) {
            r.site = CallSite.here();
        }
        me.mailbox().post(r);
        return r;
    }

    /** The earliest waiting message the pattern accepts, left in place; null if none. */
    public static Message iprobe(Rank me, int context, int source, int tag) {
        return me.mailbox().probe(context, source, tag);
    }

    /** Waits for a message the pattern accepts and returns it, left in place. */
    public static Message probe(Rank me, int context, int source, int tag, String call) {
        ProbeWait wait = new ProbeWait(me, context, source, tag);
        me.await(wait, call);
        return wait.found;
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
    public static int firstComplete(Request[] requests) {
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
        me.mailbox().progress();
    }
}
