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
import org.openjdk.jcstress.infra.results.JJJ_Result;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * Early Bcasts and Reduces back to back, more of them than the epoch lines hold phases
 * ({@link Tunables#LINE_PHASES}), so that the root of a run of Bcasts writes its lines of later
 * phases while another rank still reads an earlier one, comes round to the region of a phase that
 * rank may not have read yet, and a rank other than a Reduce's root returns from Reduces its root
 * has not summed yet. A line must stay until every rank has read it, each Bcast must deliver its
 * own root's message, and each Reduce sum its own contributions.
 *
 * <p>Rank r: a first Bcast and a first Reduce (every rank waits); then {@code 2 * LINE_PHASES + 3}
 * rounds {@code k}: a Bcast of two longs {@code 100 k + root} from root {@code k / 5 % ranks} (the
 * root changes every five rounds), and every third round a Reduce to rank 0 of {@code (r + 1) k};
 * then a Barrier (which settles them all). Each rank adds up what it received, rank 0 also its
 * sums, and reports the total, or -1 if the two longs of a Bcast differ. With eight phases (19
 * rounds): 7 + 17100 + the roots' numbers (9 with two ranks, 15 with three) on every rank, plus at
 * rank 0 the sums, 3 (1 + 63) = 192 with two ranks, 6 (1 + 63) = 384 with three. Only those totals
 * are correct: FORBIDDEN otherwise.
 */
@Outcome(id = "17308, 17116", expect = Expect.ACCEPTABLE,
    desc = "Every Bcast delivered its root's message, every Reduce summed its own contributions.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A line was overwritten while read, or a message or a contribution lost.")
public abstract class EarlyCallsRunAhead {
    private static final int COLLECTIVE_CONTEXT = 1;
    private static final Reduction SUM = BuiltinOp.SUM.on(Layout.basic(BasicType.LONG));
    private static final int ROUNDS = 2 * Tunables.LINE_PHASES + 3;

    private final Job job;
    private final int ranks;

    EarlyCallsRunAhead(int ranks, WaitMode waitMode) {
        this.ranks = ranks;
        job = Job.create(JobConfig.builder().ranks(ranks).matching(MatchingKind.LOCKED).waitMode(waitMode).build());
    }

    long run(int rank) {
        Team team = Team.world(job.rank(rank), COLLECTIVE_CONTEXT);
        long total = bcast(team, rank, 0, 7)[0] + reduce(team, rank, rank + 1);
        for (int k = 0; k < ROUNDS; k++) {
            int root = k / 5 % ranks;
            long[] got = bcast(team, rank, root, 100L * k + root);
            if (got[0] != got[1]) {
                return -1;
            }
            total += got[0];
            if (k % 3 == 0) {
                total += reduce(team, rank, (rank + 1L) * k);
            }
        }
        Collectives.barrier(team, rank, null, "Barrier", "");
        return total;
    }

    /** A Bcast of two longs {@code value} from {@code root}; what this rank received. */
    private static long[] bcast(Team team, int rank, int root, long value) {
        long[] buf = rank == root ? new long[] {value, value} : new long[] {-1, -2};
        Collectives.bcast(team, rank, buf, 0, 2, BasicType.LONG, root, null, "Bcast", "");
        return buf;
    }

    /** A Reduce (sum) to rank 0 of {@code value}, overwritten as soon as the call returns; the sum at rank 0, else 0. */
    private static long reduce(Team team, int rank, long value) {
        long[] in = {value};
        long[] out = {0};
        Collectives.reduce(team, rank, in, 0, out, 0, 1, BasicType.LONG, SUM, 0, false, null, "Reduce", "");
        in[0] = -1000;
        return rank == 0 ? out[0] : 0;
    }

    /** Waiters spin before they park (ranks fit on the cores). */
    @JCStressTest
    @State
    public static class Spinning extends EarlyCallsRunAhead {
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

    /** Waiters park at once, so every wait for a slower rank also goes through a wake-up. */
    @JCStressTest
    @State
    public static class Parking extends EarlyCallsRunAhead {
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

    /** Three ranks that park (rank 2 on a thread of the second actor): members are woken down a tree. */
    @JCStressTest
    @Outcome(id = "17506, 17122, 17122", expect = Expect.ACCEPTABLE,
        desc = "Every Bcast delivered its root's message, every Reduce summed its own contributions.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A line was overwritten while read, or a message or a contribution lost.")
    @State
    public static class ParkingThree extends EarlyCallsRunAhead {
        public ParkingThree() {
            super(3, WaitMode.PARK);
        }

        @Actor
        public void rank0(JJJ_Result r) {
            r.r1 = run(0);
        }

        @Actor
        public void ranks1And2(JJJ_Result r) {
            long[] both = TwoRanksOneActor.run(this::run, 1, 2);
            r.r2 = both[0];
            r.r3 = both[1];
        }
    }
}
