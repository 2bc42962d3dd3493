package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.collective.CollectiveRequest;
import org.mpjlite.smpdev.collective.Collectives;
import org.mpjlite.smpdev.collective.Team;

/**
 * Non-blocking Barriers a rank starts back to back: each moves the rank on by one phase of the
 * team without waiting, so that a later blocking collective may reuse a phase's lines while other
 * ranks still read them. Stateless.
 */
final class NonBlockingBarriers {
    private NonBlockingBarriers() {
    }

    /** Starts {@code count} iBarriers of {@code rank} on {@code team}; their requests. */
    static CollectiveRequest[] start(Job job, Team team, int rank, int count) {
        CollectiveRequest[] barriers = new CollectiveRequest[count];
        for (int k = 0; k < count; k++) {
            barriers[k] = new CollectiveRequest(job.rank(rank));
            Collectives.barrier(team, rank, barriers[k], "iBarrier", "");
        }
        return barriers;
    }

    /** Waits for {@code first}, then for each of {@code barriers}, in order. */
    static void awaitAll(CollectiveRequest first, CollectiveRequest[] barriers) {
        first.await("Wait");
        for (CollectiveRequest barrier : barriers) {
            barrier.await("Wait");
        }
    }
}
