package org.mpjlite.stress;

import java.util.Arrays;
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
 * Bcasts too long for the root's own lines and short enough for the lines ({@link Tunables#LINE_BCAST_REGION_BYTES}
 * to {@link Tunables#LINE_BCAST_BYTES} bytes) carry their message in the team's Bcast area of the
 * phase, which every root of that phase writes, {@link Tunables#LINE_PHASES} phases apart. Later
 * Bcasts return as soon as the rank has its message (the root at once), and non-blocking calls
 * return at once too, so the root of the second Bcast here may reach the one that reuses its area,
 * {@code LINE_PHASES} phases later, before the other rank has read the second's message: the
 * message must stay until it is read, and each Bcast must deliver exactly its own root's message.
 *
 * <p>Rank r, each message {@value #LONGS} longs of one value: A = bcast from 0 of 10 (r + 1) = 10
 * (the first: every rank waits); B = bcast from 1 of 1000 (r + 1) + A = 2010 (returns early);
 * starts iBcast from 1 of 100 (r + 1) = 200 and {@code LINE_PHASES - 2} iBarriers; C = bcast from
 * 1, in B's area, of 10000 (r + 1) + B = 22010 (returns early; rank 0 may still be reading B);
 * waits for the requests. Each rank reports {@code ((A * 1000 + D) * 10000 + B) * 100000 + C}, or
 * -1 if the elements of a message differ. Only {@code 10200201022010} on every rank is correct:
 * anything else means a Bcast delivered another phase's or another root's message, the area was
 * overwritten while read, or a message was lost: FORBIDDEN.
 */
@Outcome(id = "10200201022010, 10200201022010", expect = Expect.ACCEPTABLE,
    desc = "Every Bcast delivered exactly its root's message.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A Bcast delivered another phase's or root's message, or lost it.")
public abstract class BcastInArea {
    /** 512 bytes: past the root's own lines, within the lines' limit. */
    private static final int LONGS = 64;
    private static final int COLLECTIVE_CONTEXT = 1;

    private final Job job;

    BcastInArea(int ranks, WaitMode waitMode) {
        job = Job.create(JobConfig.builder().ranks(ranks).matching(MatchingKind.LOCKED).waitMode(waitMode).build());
    }

    long run(int rank) {
        Team team = Team.world(job.rank(rank), COLLECTIVE_CONTEXT);
        long a = bcast(team, rank, 10L * (rank + 1), 0);
        long b = bcast(team, rank, 1000L * (rank + 1) + a, 1);
        long[] d = {100L * (rank + 1)};
        CollectiveRequest request = new CollectiveRequest(job.rank(rank));
        Collectives.bcast(team, rank, d, 0, 1, BasicType.LONG, 1, request, "iBcast", "");
        CollectiveRequest[] barriers = NonBlockingBarriers.start(job, team, rank, Tunables.LINE_PHASES - 2);
        long c = bcast(team, rank, 10000L * (rank + 1) + b, 1);
        NonBlockingBarriers.awaitAll(request, barriers);
        if (a < 0 || b < 0 || c < 0) {
            return -1;
        }
        return ((a * 1000 + d[0]) * 10000 + b) * 100000 + c;
    }

    /** A Bcast of {@link #LONGS} copies of {@code value}; its value, or -1 if its elements differ. */
    private static long bcast(Team team, int rank, long value, int root) {
        long[] buf = new long[LONGS];
        Arrays.fill(buf, value);
        Collectives.bcast(team, rank, buf, 0, LONGS, BasicType.LONG, root, null, "Bcast", "");
        for (long x : buf) {
            if (x != buf[0]) {
                return -1;
            }
        }
        return buf[0];
    }

    /** Waiters spin before they park (ranks fit on the cores). */
    @JCStressTest
    @State
    public static class Spinning extends BcastInArea {
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
    public static class Parking extends BcastInArea {
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

    /** Three ranks that park (rank 2 runs on a thread of the second actor and is never a root). */
    @JCStressTest
    @Outcome(id = "10200201022010, 10200201022010, 10200201022010", expect = Expect.ACCEPTABLE,
        desc = "Every Bcast delivered exactly its root's message.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A Bcast delivered another phase's or root's message, or lost it.")
    @State
    public static class ParkingThree extends BcastInArea {
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
