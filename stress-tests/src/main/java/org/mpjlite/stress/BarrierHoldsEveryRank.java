package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.collective.BuiltinOp;
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
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * No rank leaves a Barrier before every rank has arrived, and what a rank wrote before the Barrier
 * is visible to every rank after it: with ranks that spin the Barrier is carried in the ranks'
 * epoch lines, with ranks that park it is the slot's epoch round. Each rank writes a plain field of
 * its own, calls Barrier and reads every other rank's field of that round; three rounds, with
 * {@link Tunables#LINE_PHASES} less one Allreduces in the lines before the second, so that the
 * second Barrier rewrites the lines' region of the first: a line overwritten while read, or a
 * phase taken for another, shows too.
 *
 * <p>Each rank reports {@code 100 * a + 10 * b + c}, where a, b, c are 1 when it saw every other
 * rank's write of rounds one, two (after the Allreduces) and three, and adds 1000 when every
 * Allreduce's sum is right. Only {@code 1111} on every rank is correct: a 0 digit means a Barrier
 * returned before some rank had arrived (or its write was not visible): FORBIDDEN.
 */
@Outcome(id = "1111, 1111", expect = Expect.ACCEPTABLE, desc = "Every Barrier held every rank, and its writes were seen.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A Barrier let a rank through early, or a sum was wrong.")
public abstract class BarrierHoldsEveryRank {
    private static final int COLLECTIVE_CONTEXT = 1;
    private static final Reduction SUM = BuiltinOp.SUM.on(Layout.basic(BasicType.INT));

    private final Job job;
    private final int ranks;
    /** Per round, per rank: set by the rank before the round's Barrier, plain. */
    private final int[][] wrote;

    BarrierHoldsEveryRank(WaitMode waitMode) {
        this(2, waitMode);
    }

    BarrierHoldsEveryRank(int ranks, WaitMode waitMode) {
        this.ranks = ranks;
        this.wrote = new int[3][ranks];
        job = Job.create(JobConfig.builder().ranks(ranks).matching(MatchingKind.LOCKED).waitMode(waitMode).build());
    }

    int run(int rank) {
        Team team = Team.world(job.rank(rank), COLLECTIVE_CONTEXT);
        int result = 0;
        for (int round = 0; round < 3; round++) {
            if (round == 1) {
                boolean sums = true;
                for (int k = 0; k < Tunables.LINE_PHASES - 1; k++) {
                    int[] in = {rank + 1 + k};
                    int[] out = new int[1];
                    Collectives.allreduce(team, rank, in, 0, out, 0, 1, BasicType.INT, SUM, false, null, "Allreduce",
                        "");
                    sums &= out[0] == ranks * (ranks + 1) / 2 + ranks * k;
                }
                result += sums ? 1000 : 0;
            }
            wrote[round][rank] = 1;
            Collectives.barrier(team, rank, null, "Barrier", "");
            boolean all = true;
            for (int other = 0; other < ranks; other++) {
                all &= wrote[round][other] == 1;
            }
            result += all ? (round == 0 ? 100 : round == 1 ? 10 : 1) : 0;
        }
        return result;
    }

    /** Waiters spin before they park (ranks fit on the cores): the Barrier in the lines. */
    @JCStressTest
    @State
    public static class InLines extends BarrierHoldsEveryRank {
        public InLines() {
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

    /** Waiters park at once: the slot's round, completed through the team's completion word and a ring. */
    @JCStressTest
    @State
    public static class Parking extends BarrierHoldsEveryRank {
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

    /** Three ranks that spin: the Barrier in the lines, rank 2 on a thread of the second actor. */
    @JCStressTest
    @Outcome(id = "1111, 1111, 1111", expect = Expect.ACCEPTABLE, desc = "Every Barrier held every rank, and its writes were seen.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A Barrier let a rank through early, or a sum was wrong.")
    @State
    public static class InLinesThree extends BarrierHoldsEveryRank {
        public InLinesThree() {
            super(3, WaitMode.SPIN);
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

    /** Three ranks that park: waiters are woken down the tree (rank 0 rings ranks 1 and 2). */
    @JCStressTest
    @Outcome(id = "1111, 1111, 1111", expect = Expect.ACCEPTABLE, desc = "Every Barrier held every rank, and its writes were seen.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A Barrier let a rank through early, or a sum was wrong.")
    @State
    public static class ParkingThree extends BarrierHoldsEveryRank {
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
