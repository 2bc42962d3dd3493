package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;
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
 * Small Bcast, carried in the root's epoch line (one line per rank for each of
 * {@link Tunables#LINE_PHASES} phases), back to back with non-blocking collectives in between, the
 * root changing. The first small Bcast on a team waits for every rank; later ones return as soon
 * as the rank has its message (the root at once), and the non-blocking calls return at once too:
 * so a root may mark its line of a Bcast's region with a later phase before another rank has read
 * the message there, and a rank may reach the collective that reuses the region of the second,
 * {@code LINE_PHASES} phases later, before the others have read the second's message. The message
 * must stay until it is read, and each small Bcast must deliver exactly its own root's message.
 *
 * <p>Rank r: A = bcast from 0 of 10 (r + 1) = 10 (the first: every rank waits); B = bcast from 1 of
 * 1000 (r + 1) + A = 2010 (returns early); starts iBcast from 1 of 100 (r + 1) = 200 and
 * {@code LINE_PHASES - 1} iBarriers (the last marks the region of B); C = bcast from 0 of 10000 (r + 1) + B = 12010 (returns early); E = bcast from 1 of
 * 200 longs, each 100000 (r + 1) + C = 212010 (too large for the lines: the root's part in the slot
 * carries it; returns early); waits for the requests. Each rank reports
 * {@code ((A * 1000 + D) * 10000 + B) * 100000 + C}, or -1 if any element of E is not 212010. Only
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
        long b = bcast(team, rank, 1000L * (rank + 1) + a, 1);
        long[] d = {100L * (rank + 1)};
        CollectiveRequest request = new CollectiveRequest(job.rank(rank));
        Collectives.bcast(team, rank, d, 0, 1, BasicType.LONG, 1, request, "iBcast", "");
        CollectiveRequest[] barriers = NonBlockingBarriers.start(job, team, rank, Tunables.LINE_PHASES - 1);
        long c = bcast(team, rank, 10000L * (rank + 1) + b, 0);
        long[] e = new long[200];
        java.util.Arrays.fill(e, 100000L * (rank + 1) + c);
        Collectives.bcast(team, rank, e, 0, e.length, BasicType.LONG, 1, null, "Bcast", "");
        NonBlockingBarriers.awaitAll(request, barriers);
        for (long x : e) {
            if (x != 212010) {
                return -1;
            }
        }
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
