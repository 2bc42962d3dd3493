package org.mpjlite.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.Random;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpjlite.JobFailedException;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.smpdev.DeadlockException;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.wait.WaitMode;

/**
 * A blocking Bcast after the first on a communicator is read in place when ranks park and it is too
 * large for the epoch lines (past {@link Tunables#LINE_BCAST_BYTES}), and when ranks spin and it is
 * more than {@link Tunables#SPINNING_PULLED_BCAST_MIN_BYTES} and at most
 * {@link Tunables#SPINNING_PULLED_BCAST_MAX_BYTES}: every member copies the whole message from the
 * root's buffer and leaves, and the root returns once every member has copied (its wait reads the
 * members' epoch words, which they store after the copy; with ranks that spin, not their lines,
 * which they mark before). The data must be exactly the root's on both sides of every bound,
 * whatever the root does with its buffer after it returns, whatever the calls around it, and a call
 * that differs must still end the job with the report. The wait mode is forced, whatever the
 * machine.
 */
class PulledBcastsTest {
    /** The fewest ints past the lines' limit. */
    private static final int PAST_LINES = Tunables.LINE_BCAST_BYTES / Integer.BYTES + 1;
    /** Ranks that spin: the most ints copied into the slot, the fewest pulled, the most pulled. */
    private static final int SLOT = Tunables.SPINNING_PULLED_BCAST_MIN_BYTES / Integer.BYTES;
    private static final int FIRST_PULLED = SLOT + 1;
    private static final int LAST_PULLED = Tunables.SPINNING_PULLED_BCAST_MAX_BYTES / Integer.BYTES;

    private static void assertPattern(int[] v, int length, int seed, String what) {
        for (int e = 0; e < length; e++) {
            if (v[e] != seed + e) {
                assertEquals(seed + e, v[e], what + ", element " + e);
            }
        }
    }

    /**
     * Bcasts on both sides of the bounds back to back (parking: 1 KB + 4 B to 1 MB; spinning: around
     * 2 KB and 16 KB), the root changing and ranks pausing at random, between small Bcasts that leave
     * early, early Reduces and non-blocking collectives, so that members run ahead of a root still
     * waiting for the slowest: every element exact.
     */
    @ParameterizedTest(name = "{0}, {1} ranks")
    @CsvSource({"PARK, 2", "PARK, 3", "PARK, 4", "PARK, 7", "SPIN, 2", "SPIN, 3"})
    void backToBackBcastsStayExactBetweenOtherCollectives(WaitMode waits, int ranks) {
        int[] lengths = waits == WaitMode.PARK ? new int[] {PAST_LINES, 1024 + 1, 8 * 1024, 64 * 1024, 256 * 1024}
            : new int[] {SLOT, FIRST_PULLED, 1024 + 1, LAST_PULLED, LAST_PULLED + 1};
        int longest = Arrays.stream(lengths).max().getAsInt();
        Jobs.options().ranks(ranks).waitMode(waits).run(() -> {
            MPI.Init(new String[0]);
            int me = MPI.COMM_WORLD.Rank();
            Random pauses = new Random(me);
            int[] v = new int[longest];
            for (int i = 0; i < 200; i++) {
                int root = i / 3 % ranks;
                if (pauses.nextInt(10) == 0) {
                    Thread.sleep(0, 300_000);
                }
                int length = lengths[i % lengths.length];
                Arrays.fill(v, 0, length, -1);
                if (me == root) {
                    for (int e = 0; e < length; e++) {
                        v[e] = 97 * i + e;
                    }
                }
                MPI.COMM_WORLD.Bcast(v, 0, length, MPI.INT, root);
                assertPattern(v, length, 97 * i, "Bcast " + i + " of " + length + " ints from rank " + root);
                int smallRoot = (root + 1) % ranks;
                long[] small = {me == smallRoot ? i : -1};
                MPI.COMM_WORLD.Bcast(small, 0, 1, MPI.LONG, smallRoot);
                assertEquals(i, small[0], "small Bcast " + i);
                if (i % 4 == 1) {
                    Request r = MPI.COMM_WORLD.iBarrier();
                    long[] in = {me + i};
                    long[] out = {-1};
                    MPI.COMM_WORLD.Reduce(in, 0, out, 0, 1, MPI.LONG, MPI.SUM, root);
                    if (me == root) {
                        assertEquals((long) ranks * (ranks - 1) / 2 + (long) ranks * i, out[0], "Reduce " + i);
                    }
                    r.Wait();
                }
            }
            MPI.Finalize();
            return null;
        });
    }

    /**
     * A member that calls the Bcast late, and a root that overwrites its buffer the moment it
     * returns: the root must not return before every member has copied, so every member gets the
     * message as it was at the call, from arrays and from a direct buffer.
     */
    @ParameterizedTest(name = "{0}, {1} ranks, {2} ints")
    @CsvSource({"PARK, 2, 65536", "PARK, 3, 65536", "PARK, 5, 65536", "SPIN, 2, " + FIRST_PULLED,
        "SPIN, 2, " + LAST_PULLED, "SPIN, 3, " + FIRST_PULLED, "SPIN, 3, " + LAST_PULLED})
    void theRootReturnsOnlyOnceEveryMemberHasCopied(WaitMode waits, int ranks, int length) {
        Jobs.options().ranks(ranks).waitMode(waits).run(() -> {
            MPI.Init(new String[0]);
            int me = MPI.COMM_WORLD.Rank();
            int[] first = new int[length];
            MPI.COMM_WORLD.Bcast(first, 0, length, MPI.INT, 0); // the first Bcast waits for every rank
            IntBuffer direct = MPI.newIntBuffer(length);
            for (int i = 0; i < 2 * ranks; i++) {
                int root = i % ranks;
                int late = (root + 1 + i / ranks) % ranks;
                if (me == late) {
                    Thread.sleep(20);
                }
                if (i % 2 == 0) {
                    int[] v = new int[length];
                    for (int e = 0; e < length; e++) {
                        v[e] = me == root ? 31 * i + e : -1;
                    }
                    MPI.COMM_WORLD.Bcast(v, 0, length, MPI.INT, root);
                    if (me == root) {
                        Arrays.fill(v, -7);
                    } else {
                        assertPattern(v, length, 31 * i, "Bcast " + i + " from rank " + root + " on rank " + me);
                    }
                } else {
                    for (int e = 0; e < length; e++) {
                        direct.put(e, me == root ? 31 * i + e : -1);
                    }
                    MPI.COMM_WORLD.bcast(direct, length, MPI.INT, root);
                    for (int e = 0; e < length; e++) {
                        if (me == root) {
                            direct.put(e, -7);
                        } else if (direct.get(e) != 31 * i + e) {
                            assertEquals(31 * i + e, direct.get(e), "Bcast " + i + " from rank " + root
                                + " on rank " + me + ", element " + e);
                        }
                    }
                }
            }
            MPI.Finalize();
            return null;
        });
    }

    /**
     * A later Bcast whose count differs on the last rank, one element more than the others': parking,
     * past the lines' limit everywhere (64 K ints) or across it (256 ints, the most in the lines,
     * against 257, pulled); spinning, across either bound of the pulled sizes. The job ends with the
     * report, and no rank reads past the root's message.
     */
    @ParameterizedTest(name = "{0}, {1} ranks, count {2}")
    @CsvSource({"PARK, 2, 65536", "PARK, 3, 65536", "PARK, 8, 65536", "PARK, 2, 256", "PARK, 3, 256", "PARK, 8, 256",
        "SPIN, 2, " + SLOT, "SPIN, 2, " + FIRST_PULLED, "SPIN, 2, " + LAST_PULLED, "SPIN, 3, " + SLOT,
        "SPIN, 3, " + LAST_PULLED})
    void aCountThatDiffersEndsTheJob(WaitMode waits, int ranks, int count) {
        if (waits == WaitMode.PARK && count < PAST_LINES) {
            assertEquals(PAST_LINES - 1, count, "the most ints in the lines");
        }
        JobFailedException e = secondBcastDiffersOnTheLastRank(waits, ranks, count, count + 1, 0);
        Jobs.assertMentions(e.getMessage(), "MPI_ERR_COUNT", "collective calls do not match: Bcast(root=0, count="
            + count + ", MPI.INT)", "does not match Bcast(root=0, count=" + (count + 1) + ", MPI.INT)");
    }

    /**
     * A later pulled Bcast where the last rank names itself the root: two ranks act as the root, both
     * wait for every rank, and the job ends with the report.
     */
    @ParameterizedTest(name = "{0}, {1} ranks, count {2}")
    @CsvSource({"PARK, 2, 65536", "PARK, 3, 65536", "PARK, 8, 65536", "SPIN, 2, " + LAST_PULLED,
        "SPIN, 3, " + LAST_PULLED})
    void aRootThatDiffersEndsTheJob(WaitMode waits, int ranks, int count) {
        int last = ranks - 1;
        JobFailedException e = secondBcastDiffersOnTheLastRank(waits, ranks, count, count, last);
        Jobs.assertMentions(e.getMessage(), "MPI_ERR_ROOT", "collective calls do not match: Bcast(root=0, count="
            + count + ", MPI.INT)", "does not match Bcast(root=" + last + ", count=" + count + ", MPI.INT)");
    }

    /**
     * A job of {@code ranks} whose second Bcast of {@code count} ints from rank 0 (after a first that
     * every rank waits for) the last rank calls with {@code lastCount} ints from {@code lastRoot}
     * instead, then a Barrier: the failure it must end with.
     */
    private static JobFailedException secondBcastDiffersOnTheLastRank(WaitMode waits, int ranks, int count,
                                                                       int lastCount, int lastRoot) {
        int last = ranks - 1;
        return assertThrows(JobFailedException.class, () -> Jobs.options().ranks(ranks).waitMode(waits).run(() -> {
            MPI.Init(new String[0]);
            int[] buf = new int[Math.max(count, lastCount)];
            MPI.COMM_WORLD.Bcast(buf, 0, count, MPI.INT, 0);
            boolean odd = MPI.COMM_WORLD.Rank() == last;
            MPI.COMM_WORLD.Bcast(buf, 0, odd ? lastCount : count, MPI.INT, odd ? lastRoot : 0);
            MPI.COMM_WORLD.Barrier();
            MPI.Finalize();
            return 0;
        }));
    }

    /**
     * A later pulled Bcast the last rank never calls: the root, which waits for every member to
     * copy, blocks in it, a member that copied and left waits at Finalize, naming the Bcast it
     * returned from early, and the job ends with the deadlock report.
     */
    @ParameterizedTest(name = "{0}, {1} ranks, count {2}")
    @CsvSource({"PARK, 2, 65536", "PARK, 3, 65536", "SPIN, 2, " + FIRST_PULLED, "SPIN, 3, " + FIRST_PULLED})
    void aBcastAMemberSkipsIsReportedAsADeadlock(WaitMode waits, int ranks, int count) {
        int last = ranks - 1;
        JobFailedException e = assertThrows(JobFailedException.class, () -> Jobs.options().ranks(ranks)
            .waitMode(waits).run(() -> {
                MPI.Init(new String[0]);
                int[] buf = new int[count];
                MPI.COMM_WORLD.Bcast(buf, 0, count, MPI.INT, 0);
                if (MPI.COMM_WORLD.Rank() != last) {
                    MPI.COMM_WORLD.Bcast(buf, 0, count, MPI.INT, 0);
                }
                MPI.Finalize();
                return 0;
            }));
        assertEquals(DeadlockException.EXIT_CODE, e.exitCode(), e.getMessage());
        Jobs.assertMentions(e.getMessage(), "rank 0: Bcast(root=0, count=" + count + ", MPI.INT; waiting for rank "
            + last + " of the communicator)", "rank " + last + ": finished");
        if (ranks > 2) {
            Jobs.assertMentions(e.getMessage(), "rank 1: Finalize(waits for rank " + last + " of the communicator to"
                + " call Bcast(root=0, count=" + count + ", MPI.INT), which it returned from early)");
        }
    }
}
