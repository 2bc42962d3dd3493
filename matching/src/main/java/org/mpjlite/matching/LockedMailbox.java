package org.mpjlite.matching;

import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A mailbox guarded by one lock per rank (MPJ Express guards all ranks with one JVM-wide lock).
 *
 * <p>A sender takes the receiver's lock, looks for a posted receive and, if there is one, removes
 * it; the data then moves on the sender's thread, outside the lock, straight into the receive
 * buffer. Otherwise the message joins the unexpected list. A receiver does the mirror image.
 *
 * <p>Thread safety: every list operation runs under {@link #lock}; the lock's release/acquire
 * orders the envelope fields and the list links. The handler runs after the lock is released, so a
 * long copy never blocks other senders. Progress: blocking (lock-based), but critical sections are a
 * short list scan.
 */
public final class LockedMailbox<M extends Envelope, R extends Envelope> implements Mailbox<M, R> {
    private final ReentrantLock lock = new ReentrantLock();
    private final MatchLists<M, R> lists = new MatchLists<>();
    private final MatchHandler<M, R> handler;

    public LockedMailbox(MatchHandler<M, R> handler) {
        this.handler = handler;
    }

    @Override
    public void deliver(M message) {
        R receive;
        lock.lock();
        try {
            receive = lists.takePostedFor(message);
            if (receive == null) {
                lists.addUnexpected(message);
            } else if (message.withdrawable) {
                ((SentEnvelope) message).bind(); // its sender is still delivering it: nobody withdrew it
            }
        } finally {
            lock.unlock();
        }
        if (receive != null) {
            handler.matched(receive, message);
        }
    }

    @Override
    public R matchPosted(M message) {
        lock.lock();
        try {
            return lists.takePostedFor(message);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void post(R receive) {
        M message;
        lock.lock();
        try {
            message = lists.takeUnexpected(receive);
            if (message == null) {
                lists.addPosted(receive);
            }
        } finally {
            lock.unlock();
        }
        if (message != null) {
            handler.matched(receive, message);
        }
    }

    @Override
    public M probe(int context, int source, int tag) {
        lock.lock();
        try {
            return Envelope.exposed(lists.peekUnexpected(context, source, tag));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public M take(int context, int source, int tag) {
        lock.lock();
        try {
            return Envelope.exposed(lists.takeUnexpected(context, source, tag));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean cancel(R receive) {
        lock.lock();
        try {
            return lists.removePosted(receive);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void progress() {
        // Delivery matches at once: nothing is ever left waiting to be looked at.
    }

    @Override
    public boolean hasArrivals() {
        return false;
    }

    @Override
    public List<M> unexpectedSnapshot() {
        lock.lock();
        try {
            return lists.unexpected();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<R> postedSnapshot() {
        lock.lock();
        try {
            return lists.posted();
        } finally {
            lock.unlock();
        }
    }
}
