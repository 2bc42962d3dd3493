package org.mpjlite.matching;

import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;

/**
 * A mailbox whose senders never lock: each message is offered to a JCTools multi-producer,
 * single-consumer queue (the inbox), and the owning rank drains the inbox and does all matching
 * itself.
 *
 * <p>Senders are lock-free (one atomic add in the queue). The owner's side ({@link #post},
 * {@link #probe}, {@link #progress}, ...) is serialized by an owner lock that only the owning rank's
 * own threads can contend for (never senders); the inbox's single consumer is whoever holds it. The
 * handler runs on the owner's threads, under the owner lock.
 *
 * <p>Ordering: one sender's offers enter the inbox in program order and the owner drains in
 * queue order, so non-overtaking holds. Memory ordering: the queue's offer/poll is a release/acquire
 * pair, publishing the message's fields. {@link #deliver} ends with a full fence so that a sender's
 * subsequent volatile read of the owner's parked-waiter state cannot be reordered before the
 * offer's element store (the Dekker handshake with a parking owner).
 */
public final class LockFreeMailbox<M extends Envelope, R extends Envelope> implements Mailbox<M, R> {
    private static final int CHUNK = 256;

    private final MpscUnboundedXaddArrayQueue<M> inbox = new MpscUnboundedXaddArrayQueue<>(CHUNK);
    private final ReentrantLock ownerLock = new ReentrantLock();
    private final MatchLists<M, R> lists = new MatchLists<>();
    private final MatchHandler<M, R> handler;

    public LockFreeMailbox(MatchHandler<M, R> handler) {
        this.handler = handler;
    }

    @Override
    public void deliver(M message) {
        inbox.offer(message);
        VarHandle.fullFence();
    }

    @Override
    public R matchPosted(M message) {
        return null; // senders never touch the owner's lists
    }

    @Override
    public void post(R receive) {
        ownerLock.lock();
        try {
            drain();
            M message = lists.takeUnexpected(receive);
            if (message == null) {
                lists.addPosted(receive);
            } else {
                handler.matched(receive, message);
            }
        } finally {
            ownerLock.unlock();
        }
    }

    @Override
    public M probe(int context, int source, int tag) {
        ownerLock.lock();
        try {
            drain();
            return lists.peekUnexpected(context, source, tag);
        } finally {
            ownerLock.unlock();
        }
    }

    @Override
    public M take(int context, int source, int tag) {
        ownerLock.lock();
        try {
            drain();
            return lists.takeUnexpected(context, source, tag);
        } finally {
            ownerLock.unlock();
        }
    }

    @Override
    public boolean cancel(R receive) {
        ownerLock.lock();
        try {
            // Drain first: a message already in the inbox that matches this receive wins over the
            // cancel, exactly as if it had been matched before the cancel was called.
            drain();
            return lists.removePosted(receive);
        } finally {
            ownerLock.unlock();
        }
    }

    @Override
    public void progress() {
        if (inbox.isEmpty()) {
            return;
        }
        ownerLock.lock();
        try {
            drain();
        } finally {
            ownerLock.unlock();
        }
    }

    @Override
    public boolean hasArrivals() {
        return !inbox.isEmpty();
    }

    @Override
    public List<M> unexpectedSnapshot() {
        ownerLock.lock();
        try {
            drain();
            return lists.unexpected();
        } finally {
            ownerLock.unlock();
        }
    }

    @Override
    public List<R> postedSnapshot() {
        ownerLock.lock();
        try {
            drain();
            return lists.posted();
        } finally {
            ownerLock.unlock();
        }
    }

    /** Moves every arrived message to a posted receive or to the unexpected list. Owner lock held. */
    private void drain() {
        M message;
        while ((message = inbox.relaxedPoll()) != null) {
            R receive = lists.takePostedFor(message);
            if (receive == null) {
                lists.addUnexpected(message);
            } else {
                handler.matched(receive, message);
            }
        }
    }
}
