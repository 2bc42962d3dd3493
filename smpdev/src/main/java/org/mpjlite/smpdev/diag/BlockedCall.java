package org.mpjlite.smpdev.diag;

import java.util.BitSet;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.wait.Condition;

/**
 * A rank's thread parked in a blocking MPI call: which call, what it waits for, and the thread
 * (whose stack shows the user's line). One per blocking call, kept across the thread's wake-ups and
 * re-parks, so that its identity tells the deadlock detector the rank has not moved.
 *
 * <p>Immutable; published through a concurrent map of the rank.
 */
public final class BlockedCall {
    final String call;
    final Condition condition;
    final Thread thread;

    public BlockedCall(String call, Condition condition, Thread thread) {
        this.call = call;
        this.condition = condition;
        this.thread = thread;
    }

    /** The thread parked in the call. */
    public Thread thread() {
        return thread;
    }

    /** The call's arguments for a report, or empty when its condition does not describe itself. */
    String describe(Job job) {
        return condition instanceof Awaited a ? a.describe(job) : "";
    }

    /** Adds the world ranks that could end the wait: the condition's, or every rank. */
    void addAwaitedRanks(Job job, BitSet ranks) {
        if (condition instanceof Awaited a) {
            a.addAwaitedRanks(job, ranks);
        } else {
            ranks.set(0, job.size());
        }
    }
}
