package org.mpjlite.stress;

import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.wait.WaitMode;
import org.mpjlite.smpdev.collective.BuiltinOp;
import org.mpjlite.smpdev.collective.Collectives;
import org.mpjlite.smpdev.collective.Layout;
import org.mpjlite.smpdev.collective.Reduction;
import org.mpjlite.smpdev.collective.Team;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Collectives used back-to-back: both ranks run Allreduce, Bcast and Allreduce again, one right after
 * the other, so a rank enters the next collective while the other may still be leaving the last one.
 * Each collective must see only its own contributions: a slot reused too early, or a contribution read
 * by the wrong collective, changes a sum.
 *
 * <p>Rank r contributes {@code r + 1} to the first Allreduce (sum 3), rank 1 broadcasts 7, and rank r
 * contributes {@code 10 * (r + 1) + bcast} to the second (sum 30 + 14 = 44). Each rank reports
 * {@code first * 10000 + bcast * 100 + second}. Only {@code 30744, 30744} is correct; anything else
 * means a collective mixed data with another: FORBIDDEN.
 */
@Outcome(id = "30744, 30744", expect = Expect.ACCEPTABLE, desc = "Every collective saw exactly its own data.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A collective read another's contribution or a stale slot.")
public abstract class CollectivesBackToBack {
    private static final int COLLECTIVE_CONTEXT = 1;
    private static final Reduction SUM = BuiltinOp.SUM.on(Layout.basic(BasicType.INT));

    private final Job job;

    CollectivesBackToBack(WaitMode waitMode) {
        this(2, waitMode);
    }

    CollectivesBackToBack(int ranks, WaitMode waitMode) {
        job = Job.create(JobConfig.builder().ranks(ranks).matching(MatchingKind.LOCKED).waitMode(waitMode).build());
    }

    int run(int rank) {
        Team team = Team.world(job.rank(rank), COLLECTIVE_CONTEXT);
        int[] in = {rank + 1};
        int[] out = new int[1];
        Collectives.allreduce(team, rank, in, 0, out, 0, 1, BasicType.INT, SUM, false, null, "Allreduce", "");
        int first = out[0];
        int[] value = {rank == 1 ? 7 : 0};
        Collectives.bcast(team, rank, value, 0, 1, BasicType.INT, 1, null, "Bcast", "");
        in[0] = 10 * (rank + 1) + value[0];
        Collectives.allreduce(team, rank, in, 0, out, 0, 1, BasicType.INT, SUM, false, null, "Allreduce", "");
        return first * 10000 + value[0] * 100 + out[0];
    }

    /** Waiters spin before they park (ranks fit on the cores). */
    @JCStressTest
    @State
    public static class Spinning extends CollectivesBackToBack {
        public Spinning() {
            super(WaitMode.SPIN);
        }

        @Actor
        public void rank0(II_Result r) {
            r.r1 = run(0);
        }

        @Actor
        public void rank1(II_Result r) {
            r.r2 = run(1);
        }
    }

    /** Waiters park at once, so every hand-off also goes through a wake-up. */
    @JCStressTest
    @State
    public static class Parking extends CollectivesBackToBack {
        public Parking() {
            super(WaitMode.PARK);
        }

        @Actor
        public void rank0(II_Result r) {
            r.r1 = run(0);
        }

        @Actor
        public void rank1(II_Result r) {
            r.r2 = run(1);
        }
    }

    /**
     * Three ranks that park: phases complete through the team's completion word and waiters are
     * woken down a tree (rank 0 rings ranks 1 and 2; rank 2 runs on a thread of the second actor), so a lost ring hangs a rank (a failure) and a
     * phase passed too early changes a sum. Sums over three ranks: 6, then 60 + 3 * 7 = 81.
     */
    @JCStressTest
    @Outcome(id = "60781, 60781, 60781", expect = Expect.ACCEPTABLE, desc = "Every collective saw exactly its own data.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A collective read another's contribution or a stale slot.")
    @State
    public static class ParkingThree extends CollectivesBackToBack {
        public ParkingThree() {
            super(3, WaitMode.PARK);
        }

        @Actor
        public void rank0(III_Result r) {
            r.r1 = run(0);
        }

        /** Ranks 1 and 2: jcstress schedules at most one actor per core, so rank 2 runs on a thread of this actor. */
        @Actor
        public void ranks1And2(III_Result r) {
            long[] both = TwoRanksOneActor.run(this::run, 1, 2);
            r.r2 = (int) both[0];
            r.r3 = (int) both[1];
        }
    }
}
