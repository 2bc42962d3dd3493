package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.wait.WaitMode;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Barrier-style Init: both ranks of a job call {@code Init} concurrently; each reports how many ranks
 * were registered when its Init returned. No rank may leave Init before every rank registered, so each
 * must see the full process table. The job waits in {@link WaitMode#PARK} mode, so the first rank parks
 * and this also exercises the last rank's wake-up of the others (a lost one hangs the run, which
 * jcstress reports as a failure, never as an acceptable outcome).
 *
 * <p>Only {@code 2, 2} is acceptable; a smaller count means a rank left Init early: FORBIDDEN.
 */
@Outcome(id = "2, 2", expect = Expect.ACCEPTABLE, desc = "Every rank saw the full process table.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A rank left Init before every rank registered.")
public abstract class InitSeesFullTable {
    private final Job job;

    InitSeesFullTable(MatchingKind matching) {
        job = Device.job(matching, 2, Tunables.DEFAULT_EAGER_THRESHOLD, WaitMode.PARK);
    }

    int init(int rank) {
        job.rank(rank).init(Rank.THREAD_MULTIPLE, "Init");
        return job.registeredRanks();
    }

    /** With {@link MatchingKind#LOCKED} mailboxes. */
    @JCStressTest
    @State
    public static class Locked extends InitSeesFullTable {
        public Locked() {
            super(MatchingKind.LOCKED);
        }

        @Actor
        public void rank0(II_Result r) {
            r.r1 = init(0);
        }

        @Actor
        public void rank1(II_Result r) {
            r.r2 = init(1);
        }
    }

    /** With {@link MatchingKind#LOCK_FREE} mailboxes. */
    @JCStressTest
    @State
    public static class LockFree extends InitSeesFullTable {
        public LockFree() {
            super(MatchingKind.LOCK_FREE);
        }

        @Actor
        public void rank0(II_Result r) {
            r.r1 = init(0);
        }

        @Actor
        public void rank1(II_Result r) {
            r.r2 = init(1);
        }
    }
}
