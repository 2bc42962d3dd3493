package org.mpjlite.smpdev;

/**
 * A rank's main thread parked in a blocking MPI call: which call, what it waits for, and the
 * thread (whose stack shows the user's line). One per blocking call, kept across the thread's
 * wake-ups and re-parks, so that its identity tells the deadlock detector the rank has not moved.
 *
 * <p>Immutable; published through a volatile field of {@link Rank}.
 */
final class BlockedCall {
    final String call;
    final WaitStrategy.Condition condition;
    final Thread thread;

    BlockedCall(String call, WaitStrategy.Condition condition, Thread thread) {
        this.call = call;
        this.condition = condition;
        this.thread = thread;
    }
}
