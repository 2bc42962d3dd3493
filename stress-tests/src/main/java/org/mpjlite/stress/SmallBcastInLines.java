package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.collective.CollectiveRequest;
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
 * Small Bcast, carried in the root's epoch line (one line per rank per epoch parity), back to back
 * with a non-blocking Bcast in between, the root changing: the non-blocking call returns at once,
 * so a rank reaches the third collective, which reuses the lines of the first's parity, possibly
 * before the others have read the first's message there. A line must not be overwritten before
 * that, and each small Bcast must deliver exactly its own root's message.
 *
 * <p>Rank r: A = bcast from 0 of 10 (r + 1) = 10; starts iBcast from 1 of 100 (r + 1) = 200;
 * B = bcast from 1 of 1000 (r + 1) + A = 2010; C = bcast from 0 of 10000 (r + 1) + B = 12010;
 * waits for the iBcast. Each rank reports {@code ((A * 1000 + D) * 10000 + B) * 100000 + C}. Only
 * {@code 10200201012010} on every rank is correct: anything else means a Bcast delivered another
 * phase's or another root's message, a line was overwritten while read, or a message was lost:
 * FORBIDDEN.
 */
@Outcome(id = "10200201012010, 10200201012010", expect = Expect.ACCEPTABLE,
    desc = "Every Bcast delivered exactly its root's message.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A Bcast delivered another phase's or root's message, or lost it.")
public abstract class SmallBcastInLines {
    private static final int COLLECTIVE_CONTEXT = 1;

    private final Job job;

    SmallBcastInLines(int ranks, WaitMode waitMode) {
        job = Job.create(JobConfig.builder().ranks(ranks).matching(MatchingKind.LOCKED).waitMode(waitMode).build());
    }

    long run(int rank) {
        Team team = Team.world(job.rank(rank), COLLECTIVE_CONTEXT);
        long a = bcast(team, rank, 10L * (rank + 1), 0);
        long[] d = {100L * (rank + 1)};
        CollectiveRequest request = new CollectiveRequest(job.rank(rank));
        Collectives.bcast(team, rank, d, 0, 1, BasicType.LONG, 1, request, "iBcast", "");
        long b = bcast(team, rank, 1000L * (rank + 1) + a, 1);
        long c = bcast(team, rank, 10000L * (rank + 1) + b, 0);
        request.await("Wait");
        return ((a * 1000 + d[0]) * 10000 + b) * 100000 + c;
    }

    private static long bcast(Team team, int rank, long value, int root) {
        long[] buf = {value};
        Collectives.bcast(team, rank, buf, 0, 1, BasicType.LONG, root, null, "Bcast", "");
        return buf[0];
    }

    /** Waiters spin before they park (ranks fit on the cores). */
    @JCStressTest
    @State
    public static class Spinning extends SmallBcastInLines {
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
    public static class Parking extends SmallBcastInLines {
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
     * Three ranks that park: members are woken down a tree after the completion word (rank 0 rings
     * ranks 1 and 2; rank 2 runs on a thread of the second actor); rank 2 is never a root.
     */
    @JCStressTest
    @Outcome(id = "10200201012010, 10200201012010, 10200201012010", expect = Expect.ACCEPTABLE,
        desc = "Every Bcast delivered exactly its root's message.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A Bcast delivered another phase's or root's message, or lost it.")
    @State
    public static class ParkingThree extends SmallBcastInLines {
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
