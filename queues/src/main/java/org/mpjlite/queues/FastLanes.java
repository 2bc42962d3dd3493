package org.mpjlite.queues;

import java.util.function.Consumer;

/**
 * Messages that reach the owner of a {@link LockFreeMailbox} beside its inbox: one lane per sender
 * that has one (Open MPI's fast boxes), polled by the owner.
 *
 * <p>Non-overtaking across the two paths is shared between the senders and the mailbox. A sender
 * puts a message in its lane only when every message it queued in the inbox before has been
 * drained (counted by {@link #beforeInbox}); and the mailbox, before it matches a message drained
 * from the inbox, takes its sender's lane first ({@link #beforeInbox} again), since whatever is in
 * that lane was sent earlier. So the owner sees each sender's messages in the order they were sent.
 *
 * <p>Threads: {@link #drain} and {@link #beforeInbox} are called only with the mailbox's owner lock
 * held (one consumer at a time); {@link #hasArrivals} by any thread.
 *
 * @param <M> message type
 */
public interface FastLanes<M extends Envelope> {
    /** No lanes: every message comes through the inbox. */
    @SuppressWarnings("rawtypes")
    FastLanes NONE = new FastLanes() {
        @Override
        public boolean hasArrivals() {
            return false;
        }

        @Override
        public void drain(Consumer sink) {
        }

        @Override
        public void beforeInbox(Envelope message, Consumer sink) {
        }
    };

    /** The lanes of no mailbox: every message comes through the inbox. */
    @SuppressWarnings("unchecked")
    static <M extends Envelope> FastLanes<M> none() {
        return NONE;
    }

    /** True when some lane holds a message (cheap; any thread). */
    boolean hasArrivals();

    /** Hands every message waiting in the lanes to {@code sink}, each lane in its order. */
    void drain(Consumer<M> sink);

    /**
     * {@code message} was just taken from the inbox: hands what waits in its sender's lane to
     * {@code sink} (sent earlier), then counts the message as drained for its sender.
     */
    void beforeInbox(M message, Consumer<M> sink);
}
