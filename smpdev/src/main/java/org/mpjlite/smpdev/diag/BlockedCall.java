package org.mpjlite.smpdev.diag;

import java.util.BitSet;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.wait.Condition;

/**
 * A rank's thread parked in a blocking MPI call: which call, what it waits for, and the thread
 * (whose stack shows the user's line). One per blocking call, kept across the thread's wake-ups and
 * re-parks, so that its identity tells the deadlock detector the rank has not moved.
 *
 * <p>Published through a concurrent map of the rank. Immutable but for the count of parks, written
 * only by the blocked thread (a volatile write per park, on the slow path) and read by the
 * deadlock detector.
 */
public final class BlockedCall {
    final String call;
    final Condition condition;
    final Thread thread;
    /** How often the thread has parked in this call; only the blocked thread writes it. */
    private volatile long parks;

    public BlockedCall(String call, Condition condition, Thread thread) {
        this.call = call;
        this.condition = condition;
        this.thread = thread;
    }

    /** Counts one more park of the blocked thread; called by that thread only. */
    public void countPark() {
        parks = parks + 1; // single writer: no lost update
    }

    /** How often the blocked thread has parked in this call so far. */
    long parks() {
        return parks;
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
