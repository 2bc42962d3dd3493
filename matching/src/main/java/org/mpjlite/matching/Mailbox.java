package org.mpjlite.matching;

import java.util.List;

/**
 * The matching structure of one rank: messages addressed to it meet the receives it posts.
 *
 * <p>MPI rules every implementation keeps:
 * <ul>
 *   <li>a receive matches the <em>earliest arrived</em> message it accepts; a message matches the
 *       <em>earliest posted</em> receive that accepts it (together: non-overtaking order between a
 *       pair of ranks on a communicator);</li>
 *   <li>every message is handed to {@link MatchHandler#matched} (or to a matched probe) exactly
 *       once, unless its sender withdrew it first ({@link SentEnvelope#withdraw}), and so is every
 *       receive, unless it was cancelled first; a withdrawn message is as if never sent.</li>
 * </ul>
 *
 * <p>Threads: {@link #deliver} may be called by any thread at any time. The other methods are the
 * owner's: they may be called by several threads of the owning rank at once (MPI_THREAD_MULTIPLE).
 *
 * @param <M> message type
 * @param <R> receive type
 */
public interface Mailbox<M extends Envelope, R extends Envelope> {

    /**
     * A message arrives. Either it matches a posted receive (the handler runs, possibly on this
     * thread) or it is kept as unexpected until a receive or a probe finds it.
     */
    void deliver(M message);

    /**
     * For a sender about to deliver: removes and returns the earliest posted receive that accepts
     * the message, so the sender can move the data straight into it; {@code null} if there is none,
     * or if this mailbox never lets senders see posted receives (the lock-free one). Taking a
     * receive here is a match: the caller must complete it, and must not also {@link #deliver} the
     * message. A posted receive never accepts a message that is waiting as unexpected, so taking it
     * keeps matching order.
     */
    R matchPosted(M message);

    /** What {@link #claimLine} returns when the sender may not leave its message in the line. */
    long NO_CLAIM = -1;

    /**
     * For a sender about to deliver a small message: claims the earliest posted receive, as
     * {@link #matchPosted} would take it, if it also takes {@code bytes} bytes of data of {@code kind}
     * in this mailbox's {@link #line}; returns the claim, which the sender then passes to
     * {@link ReceiveLine#fill} after writing its data there (the owner completes the receive), or
     * {@link #NO_CLAIM}. Mailboxes without a line never let a sender claim one.
     */
    default long claimLine(int context, int source, int tag, int kind, int bytes) {
        return NO_CLAIM;
    }

    /** The line where a sender leaves the small message it claimed with {@link #claimLine}; null if none. */
    default ReceiveLine line() {
        return null;
    }

    /**
     * For a sender that streams small messages here: a new {@link MessageRing} for its messages to
     * this mailbox, or null if this mailbox opens no (more) rings. Once a sender has one, every
     * message it sends here keeps the ring's order. Any thread; rare.
     */
    default MessageRing openRing() {
        return null;
    }

    /**
     * Whether messages delivered to the inbox wait to be matched (any thread, without the owner's
     * lock: a hint, which may be stale as soon as it is read). A sender whose last message is
     * still there is streaming. False for a mailbox without an inbox of its own.
     */
    default boolean inboxBusy() {
        return false;
    }

    /**
     * Takes and releases the owner lock, for a thread of the owner about to park: called after it
     * registers on its rank's doorbell and before it re-checks what it waits for. A mailbox whose
     * handler completes receives under that lock with a release store rather than a volatile write
     * ({@link MatchHandler#matchedInLine}, {@link MatchHandler#matchedInCell}) relies on it: either
     * the completer's critical section came first, and the caller's re-check sees the completion,
     * or the caller's pass came first, and the completer's ring sees the registration. Nothing for
     * a mailbox that completes nothing that way, or one confined to the calling thread (whose
     * owner completions are its own).
     */
    default void passOwnerLock() {
    }

    /** Posts a receive: it matches the earliest unexpected message it accepts, or waits posted. */
    void post(R receive);

    /**
     * The earliest unexpected message the pattern accepts, left in place; {@code null} if none.
     * The returned message may be matched by another thread of the owner as soon as this returns.
     */
    M probe(int context, int source, int tag);

    /**
     * Removes and returns the earliest unexpected message the pattern accepts (matched probe);
     * {@code null} if none.
     */
    M take(int context, int source, int tag);

    /** Withdraws a posted receive. False if it is not posted (already matched, or never posted). */
    boolean cancel(R receive);

    /**
     * Matches whatever has arrived but not yet been looked at. A no-op where delivery matches at
     * once; the lock-free mailbox matches here, on the owner's threads.
     */
    void progress();

    /**
     * True when a message has arrived that {@link #progress} has not matched, or is arriving: its
     * sender has taken its place and is storing it (cheap; any thread). A waiter registered on the
     * rank's doorbell that finds this true after its {@link #progress} does not park: the message's
     * sender may have read the doorbell before the waiter registered.
     */
    boolean hasArrivals();

    /**
     * Lets {@code poster} (the rank's thread that called Init) leave a receive it posts while an
     * earlier one waits for the owner's next call to put in its place, rather than serialize the
     * post with the owner's other threads: what this mailbox then does is as if the receive had been
     * posted at the call. A no-op for a mailbox that saves nothing by it.
     */
    default void deferPostsOf(Thread poster) {
    }

    /**
     * From now on only {@code owner} (the calling thread) calls the owner's methods: a rank at
     * {@code THREAD_SINGLE} or {@code THREAD_FUNNELED}. A mailbox may then skip the locking that
     * serializes the owner's threads. Snapshots stay callable from any thread, for reports.
     */
    default void confineTo(Thread owner) {
    }

    /**
     * Snapshot of the unexpected messages, oldest first (diagnostics: the owner's threads, or for a
     * report on a parked rank any thread).
     */
    List<M> unexpectedSnapshot();

    /** Snapshot of the posted receives, oldest first (as {@link #unexpectedSnapshot}). */
    List<R> postedSnapshot();
}
