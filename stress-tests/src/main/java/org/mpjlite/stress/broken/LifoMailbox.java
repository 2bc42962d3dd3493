package org.mpjlite.stress.broken;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;
import org.mpjlite.matching.Envelope;
import org.mpjlite.matching.Mailbox;
import org.mpjlite.matching.MatchHandler;

/**
 * DELIBERATELY BROKEN: a locked mailbox whose unexpected messages form a stack, so a receive matches
 * the <em>latest</em> arrived message it accepts instead of the earliest. Every message is still
 * matched exactly once; only the non-overtaking order is lost. Exists to prove that
 * {@link org.mpjlite.stress.mailbox.MailboxNonOvertaking} catches such a mailbox.
 */
final class LifoMailbox<M extends Envelope, R extends Envelope> implements Mailbox<M, R> {
    private final Deque<M> unexpected = new ArrayDeque<>();
    private final Deque<R> posted = new ArrayDeque<>();
    private final MatchHandler<M, R> handler;

    LifoMailbox(MatchHandler<M, R> handler) {
        this.handler = handler;
    }

    @Override
    public void deliver(M message) {
        R receive;
        synchronized (this) {
            receive = removeFirst(posted, r -> r.accepts(message));
            if (receive == null) {
                unexpected.push(message); // the bug: newest first
            }
        }
        if (receive != null) {
            handler.matched(receive, message);
        }
    }

    @Override
    public R matchPosted(M message) {
        return null;
    }

    @Override
    public void post(R receive) {
        M message;
        synchronized (this) {
            message = removeFirst(unexpected, receive::accepts);
            if (message == null) {
                posted.addLast(receive);
            }
        }
        if (message != null) {
            handler.matched(receive, message);
        }
    }

    @Override
    public synchronized M probe(int context, int source, int tag) {
        for (M m : unexpected) {
            if (pattern(context, source, tag, m)) {
                return m;
            }
        }
        return null;
    }

    @Override
    public synchronized M take(int context, int source, int tag) {
        return removeFirst(unexpected, m -> pattern(context, source, tag, m));
    }

    @Override
    public synchronized boolean cancel(R receive) {
        return posted.remove(receive);
    }

    @Override
    public void progress() {
    }

    @Override
    public boolean hasArrivals() {
        return false;
    }

    @Override
    public synchronized List<M> unexpectedSnapshot() {
        return new ArrayList<>(unexpected);
    }

    @Override
    public synchronized List<R> postedSnapshot() {
        return new ArrayList<>(posted);
    }

    private static boolean pattern(int context, int source, int tag, Envelope m) {
        return m.context() == context
            && (source == Envelope.ANY_SOURCE || source == m.source())
            && (tag == Envelope.ANY_TAG || tag == m.tag());
    }

    private static <E> E removeFirst(Deque<E> deque, Predicate<E> test) {
        for (Iterator<E> it = deque.iterator(); it.hasNext(); ) {
            E e = it.next();
            if (test.test(e)) {
                it.remove();
                return e;
            }
        }
        return null;
    }
}
