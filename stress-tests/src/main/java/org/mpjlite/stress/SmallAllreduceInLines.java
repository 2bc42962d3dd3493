package org.mpjlite.stress;

import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.collective.CollectiveRequest;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;
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
import org.openjdk.jcstress.infra.results.JJJ_Result;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * Small Allreduce, carried in the ranks' epoch lines (one line per rank for each of
 * {@link Tunables#LINE_PHASES} phases), back to back with non-blocking collectives in between: they
 * return at once, so a rank reaches the Allreduce that reuses the lines' region of the first one,
 * {@code LINE_PHASES} phases later, possibly before the other rank has read the first's
 * contribution there. The line must not be overwritten before that (the rank waits until every
 * rank has arrived at the phase after the first), and each small Allreduce must read exactly its
 * own phase's contributions.
 *
 * <p>Rank r: A = allreduce(r + 1) = 3; starts iAllreduce(10 (r + 1)) = 30 and {@code LINE_PHASES - 2}
 * iBarriers; B = allreduce(100 (r + 1) + A) = 306 (in the region of A); C = allreduce(1000 (r + 1)
 * + B) = 3612; waits for the non-blocking calls. Each rank reports
 * {@code ((A * 100 + D) * 1000 + B) * 10000 + C}. Only {@code 3303063612} on both ranks is correct:
 * anything else means a small Allreduce read another phase's line, or a line was overwritten while
 * read, or a result was lost: FORBIDDEN.
 */
@Outcome(id = "3303063612, 3303063612", expect = Expect.ACCEPTABLE, desc = "Every collective saw exactly its own data.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A small Allreduce read another phase's contribution, or a result was lost.")
public abstract class SmallAllreduceInLines {
    private static final int COLLECTIVE_CONTEXT = 1;
    private static final Reduction SUM = BuiltinOp.SUM.on(Layout.basic(BasicType.LONG));

    private final Job job;

    SmallAllreduceInLines(WaitMode waitMode) {
        this(2, waitMode);
    }

    SmallAllreduceInLines(int ranks, WaitMode waitMode) {
        job = Job.create(JobConfig.builder().ranks(ranks).matching(MatchingKind.LOCKED).waitMode(waitMode).build());
    }

    long run(int rank) {
        Team team = Team.world(job.rank(rank), COLLECTIVE_CONTEXT);
        long a = allreduce(team, rank, rank + 1);
        long[] d = {10L * (rank + 1)};
        CollectiveRequest request = new CollectiveRequest(job.rank(rank));
        Collectives.allreduce(team, rank, null, 0, d, 0, 1, BasicType.LONG, SUM, true, request, "iAllreduce", "");
        CollectiveRequest[] barriers = NonBlockingBarriers.start(job, team, rank, Tunables.LINE_PHASES - 2);
        long b = allreduce(team, rank, 100L * (rank + 1) + a);
        long c = allreduce(team, rank, 1000L * (rank + 1) + b);
        NonBlockingBarriers.awaitAll(request, barriers);
        return ((a * 100 + d[0]) * 1000 + b) * 10000 + c;
    }

    private static long allreduce(Team team, int rank, long value) {
        long[] in = {value};
        long[] out = new long[1];
        Collectives.allreduce(team, rank, in, 0, out, 0, 1, BasicType.LONG, SUM, false, null, "Allreduce", "");
        return out[0];
    }

    /** Waiters spin before they park (ranks fit on the cores). */
    @JCStressTest
    @State
    public static class Spinning extends SmallAllreduceInLines {
        public Spinning() {
            super(WaitMode.SPIN);
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
    public static class Parking extends SmallAllreduceInLines {
        public Parking() {
            super(WaitMode.PARK);
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
     * Three ranks that park: the member that completes a phase reduces once for all and publishes
     * the result in a line the others read after waking, and the others are woken down a tree
     * (rank 0 rings ranks 1 and 2; rank 2 runs on a thread of the second actor). Sums over three ranks: A = 6, D = 60, B = 618, C = 7854.
     */
    @JCStressTest
    @Outcome(id = "6606187854, 6606187854, 6606187854", expect = Expect.ACCEPTABLE,
        desc = "Every collective saw exactly its own data.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A result read from another phase, or a result was lost.")
    @State
    public static class ParkingThree extends SmallAllreduceInLines {
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
