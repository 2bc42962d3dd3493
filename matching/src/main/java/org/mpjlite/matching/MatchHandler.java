package org.mpjlite.matching;

/**
 * What a {@link Mailbox} does with a receive and the message it matched: move the data and complete
 * both sides. The mailbox has already removed both from its lists, so each pair is handed over
 * exactly once, and pairs between one sender and one receiver are handed over in the order the
 * messages arrived.
 *
 * <p>Called on whichever thread made the match: a sender's thread (locked mailbox, receive already
 * posted) or a thread of the receiving rank. Implementations must be thread-safe.
 *
 * @param <M> message type
 * @param <R> receive type
 */
@FunctionalInterface
public interface MatchHandler<M extends Envelope, R extends Envelope> {
    void matched(R receive, M message);

    /**
     * A sender left a message for {@code receive} in the mailbox's {@link ReceiveLine} (status and
     * data): move the data into the receive and complete it. Called once per such message, on a
     * thread of the receiving rank, under the mailbox's owner lock (or on the thread the mailbox is
     * confined to), before the line is published again. The completion may be a release store
     * rather than a volatile write: a thread of the owner that parks passes the owner lock
     * ({@link Mailbox#passOwnerLock}) between registering and re-checking. Only receives posted with
     * a line kind ({@link Envelope#takesInLine}) get messages this way; a handler whose receives
     * never take any is never called here.
     */
    default void matchedInLine(R receive, ReceiveLine line) {
        throw new UnsupportedOperationException("this handler takes no message left in a receive line");
    }

    /**
     * The message at {@code index} of a {@link MessageRing}, still in its cell, matched
     * {@code receive}, which takes it as it would in the line ({@link Envelope#takesAsLine}: same
     * kind, and it fits): move the data into the receive and complete it. Called on a thread of
     * the receiving rank, under the mailbox's owner lock (or on the thread the mailbox is confined
     * to), before the cell is handed back to its sender; the completion may be a release store, as
     * for {@link #matchedInLine}. Only receives posted with a line kind get messages this way.
     */
    default void matchedInCell(R receive, MessageRing ring, long index) {
        throw new UnsupportedOperationException("this handler takes no message in a ring's cell");
    }
}
