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
}
