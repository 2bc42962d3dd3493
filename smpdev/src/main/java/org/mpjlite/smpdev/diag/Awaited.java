package org.mpjlite.smpdev.diag;

import java.util.BitSet;
import org.mpjlite.smpdev.Job;

/**
 * What a blocked call waits for, as a deadlock or time-limit report describes it: implemented by
 * the conditions of blocking calls next to {@link org.mpjlite.smpdev.wait.Condition}, which is
 * only what the waiter polls. A condition that does not implement it is reported by its call's
 * name alone and as waiting for any rank.
 *
 * <p>Called on the supervising thread while the waiter is parked: implementations read only state
 * that is safely published (final fields, volatile completion flags).
 */
public interface Awaited {
    /**
     * The arguments of the blocked call ({@code source=1, tag=7, comm=MPI.COMM_WORLD}); empty if
     * there is nothing to add to the call's name.
     */
    String describe(Job job);

    /** Adds the world ranks whose action could satisfy this wait (the wait-for graph); by default any rank. */
    default void addAwaitedRanks(Job job, BitSet ranks) {
        ranks.set(0, job.size());
    }
}
