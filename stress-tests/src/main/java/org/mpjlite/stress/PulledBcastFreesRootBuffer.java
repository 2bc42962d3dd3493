package org.mpjlite.stress;

import java.util.Arrays;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.collective.Collectives;
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
 * Bcasts too large for a line between ranks that park (and, of up to
 * {@code SPINNING_PULLED_BCAST_MAX_BYTES}, between ranks that spin), after the first on the team:
 * each member copies the message straight from the root's buffer and returns, and the root returns
 * only once every member has copied, so it may overwrite its buffer at once. A root that returned
 * earlier (with ranks that spin: one that took a member's line, marked before its copy, for its
 * arrival), or a member that read another round's buffer, would deliver a torn or wrong message.
 *
 * <p>Rank r: a first Bcast of {@code 7} (every rank waits), then four rounds {@code k}: a Bcast of
 * {@code COLLECTIVE_EAGER_BYTES / 8 + 1} longs (4 KB + 8 B), every one {@code 100 k + root}, from root
 * {@code k % ranks}, whose root fills its buffer with -1 the moment the call returns; then a
 * Barrier. Each rank adds up the first element of every message it holds after the call (the root
 * before overwriting), or reports -1 if any element differs from the first: 7 + 600 + the roots'
 * numbers, 609 with two ranks, 610 with three, on every rank. Only those totals are correct:
 * FORBIDDEN otherwise.
 */
@Outcome(id = "609, 609", expect = Expect.ACCEPTABLE, desc = "Every member copied every message whole before its root overwrote it.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A root returned before a member had copied its message, or a message was torn or lost.")
public abstract class PulledBcastFreesRootBuffer {
    private static final int COLLECTIVE_CONTEXT = 1;
    private static final int LONGS = Tunables.COLLECTIVE_EAGER_BYTES / Long.BYTES + 1;
    private static final int ROUNDS = 4;

    private final Job job;
    private final int ranks;
    private final long[][] buffers;

    PulledBcastFreesRootBuffer(int ranks, WaitMode waits) {
        this.ranks = ranks;
        job = Job.create(JobConfig.builder().ranks(ranks).matching(MatchingKind.LOCKED).waitMode(waits).build());
        buffers = new long[ranks][LONGS];
    }

    long run(int rank) {
        Team team = Team.world(job.rank(rank), COLLECTIVE_CONTEXT);
        long[] buf = buffers[rank];
        long total = 0;
        for (int k = -1; k < ROUNDS; k++) {
            int root = k < 0 ? 0 : k % ranks;
            Arrays.fill(buf, rank == root ? (k < 0 ? 7 : 100L * k + root) : -2);
            Collectives.bcast(team, rank, buf, 0, LONGS, BasicType.LONG, root, null, "Bcast", "");
            long first = buf[0];
            if (rank == root) {
                Arrays.fill(buf, -1);
            } else {
                for (long x : buf) {
                    if (x != first) {
                        return -1;
                    }
                }
            }
            total += first;
        }
        Collectives.barrier(team, rank, null, "Barrier", "");
        return total;
    }

    /** Two ranks. */
    @JCStressTest
    @State
    public static class Two extends PulledBcastFreesRootBuffer {
        public Two() {
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

    /** Two ranks that spin: the root waits for the member's epoch word, stored after its copy. */
    @JCStressTest
    @State
    public static class SpinningTwo extends PulledBcastFreesRootBuffer {
        public SpinningTwo() {
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

    /** Three ranks (rank 2 on a thread of the second actor): members are woken down a tree. */
    @JCStressTest
    @Outcome(id = "610, 610, 610", expect = Expect.ACCEPTABLE,
        desc = "Every member copied every message whole before its root overwrote it.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A root returned before a member had copied its message, or a message was torn or lost.")
    @State
    public static class Three extends PulledBcastFreesRootBuffer {
        public Three() {
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
