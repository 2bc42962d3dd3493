package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Rank;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Barrier-style Init: three ranks call {@code Init} concurrently; each reports how many ranks were
 * registered when its Init returned. No rank may leave Init before every rank registered, so each must
 * see the full process table. Three ranks on a two-core machine make the waiters park (the default
 * wait mode spins only while ranks fit on the cores), so this also exercises the last rank's wake-up of
 * the others.
 *
 * <p>Only {@code 3, 3, 3} is acceptable; a smaller count means a rank left Init early: FORBIDDEN.
 */
@Outcome(id = "3, 3, 3", expect = Expect.ACCEPTABLE, desc = "Every rank saw the full process table.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A rank left Init before every rank registered.")
public abstract class InitSeesFullTable {
    private final Job job;

    InitSeesFullTable(MatchingKind matching) {
        job = Device.job(matching, 3);
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
        public void rank0(III_Result r) {
            r.r1 = init(0);
        }

        @Actor
        public void rank1(III_Result r) {
            r.r2 = init(1);
        }

        @Actor
        public void rank2(III_Result r) {
            r.r3 = init(2);
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
        public void rank0(III_Result r) {
            r.r1 = init(0);
        }

        @Actor
        public void rank1(III_Result r) {
            r.r2 = init(1);
        }

        @Actor
        public void rank2(III_Result r) {
            r.r3 = init(2);
        }
    }
}
