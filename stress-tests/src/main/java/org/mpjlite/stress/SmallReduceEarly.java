package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.collective.BuiltinOp;
import org.mpjlite.smpdev.collective.CollectiveRequest;
import org.mpjlite.smpdev.collective.Collectives;
import org.mpjlite.smpdev.collective.Layout;
import org.mpjlite.smpdev.collective.Reduction;
import org.mpjlite.smpdev.collective.Team;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.wait.WaitMode;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * Small Reduce back to back, the root changing, with a non-blocking Barrier in between. The first
 * Reduce on a team waits for every rank; in later ones every rank but the root returns as soon as
 * its contribution is copied into its part, and overwrites its buffer at once, while the root may
 * not have read the copy yet; its next Reduce must not disturb the copy either, nor may the root
 * sum another Reduce's contributions.
 *
 * <p>Rank r contributes r + 1 to the first Reduce (root 0), 10 (r + 1) to the second (root 1),
 * 100 (r + 1) to the third (root 0), overwriting each contribution with -1000 as soon as the call
 * returns. With n ranks, rank 0 reports {@code first * 100000 + third}, rank 1 {@code second}, any
 * other rank 0. Only the sums of every rank's contribution are correct; anything else means a
 * contribution was read after its rank overwrote it, read from another Reduce, or lost: FORBIDDEN.
 */
@Outcome(id = "300300, 30", expect = Expect.ACCEPTABLE, desc = "Every Reduce summed exactly its own contributions.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A contribution was read late, from another Reduce, or lost.")
public abstract class SmallReduceEarly {
    private static final int COLLECTIVE_CONTEXT = 1;
    private static final Reduction SUM = BuiltinOp.SUM.on(Layout.basic(BasicType.LONG));

    private final Job job;

    SmallReduceEarly(int ranks, WaitMode waitMode) {
        job = Job.create(JobConfig.builder().ranks(ranks).matching(MatchingKind.LOCKED).waitMode(waitMode).build());
    }

    long run(int rank) {
        Team team = Team.world(job.rank(rank), COLLECTIVE_CONTEXT);
        long first = reduce(team, rank, rank + 1, 0);
        long second = reduce(team, rank, 10L * (rank + 1), 1);
        CollectiveRequest barrier = new CollectiveRequest(job.rank(rank));
        Collectives.barrier(team, rank, barrier, "iBarrier", "");
        long third = reduce(team, rank, 100L * (rank + 1), 0);
        barrier.await("Wait");
        return rank == 0 ? first * 100000 + third : rank == 1 ? second : 0;
    }

    private static long reduce(Team team, int rank, long value, int root) {
        long[] in = {value};
        long[] out = {0};
        Collectives.reduce(team, rank, in, 0, out, 0, 1, BasicType.LONG, SUM, root, false, null, "Reduce", "");
        in[0] = -1000;
        return out[0];
    }

    /** Waiters spin before they park (ranks fit on the cores). */
    @JCStressTest
    @State
    public static class Spinning extends SmallReduceEarly {
        public Spinning() {
            super(2, WaitMode.SPIN);
        }

        @Actor
        public void rank0(JJ_Result r) {
            r.r1 = run(0);
        }

        @Actor
        public void rank1(JJ_Result r) {
            r.r2 = run(1);
        }
    }

    /** Waiters park at once, so every hand-off also goes through a wake-up. */
    @JCStressTest
    @State
    public static class Parking extends SmallReduceEarly {
        public Parking() {
            super(2, WaitMode.PARK);
        }

        @Actor
        public void rank0(JJ_Result r) {
            r.r1 = run(0);
        }

        @Actor
        public void rank1(JJ_Result r) {
            r.r2 = run(1);
        }
    }

    /**
     * Three ranks that park: the rank that completes a phase rings the root; rank 2 is never a
     * root and runs on a thread of the second actor.
     */
    @JCStressTest
    @Outcome(id = "600600, 60, 0", expect = Expect.ACCEPTABLE, desc = "Every Reduce summed exactly its own contributions.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A contribution was read late, from another Reduce, or lost.")
    @State
    public static class ParkingThree extends SmallReduceEarly {
        public ParkingThree() {
            super(3, WaitMode.PARK);
        }

        @Actor
        public void rank0(JJJ_Result r) {
            r.r1 = run(0);
        }

        /** Ranks 1 and 2: jcstress schedules at most one actor per core, so rank 2 runs on a thread of this actor. */
        @Actor
        public void ranks1And2(JJJ_Result r) {
            long[] both = TwoRanksOneActor.run(this::run, 1, 2);
            r.r2 = both[0];
            r.r3 = both[1];
        }
    }
}
