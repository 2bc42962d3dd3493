package org.mpjlite.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.JobFailedException;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.DeadlockException;
import org.mpjlite.smpdev.Tunables;

/**
 * A small Bcast after the first on a communicator returns as soon as the rank has its message (the
 * root at once), a small Reduce as soon as a rank other than the root has given its contribution,
 * and the ranks compare their calls later: at the next collective, at Free, at Finalize. The data must be exactly the root's whatever the other collectives around it (general
 * path, non-blocking ones that return at once), and a call that differs must still end the job with
 * the report; under {@code --check} every Bcast waits for every rank, as the first one does.
 */
class EarlyBcastAndReduceTest {
    /** The line after the caller's: where the collective under test is called. */
    private static int nextLine() {
        return new Throwable().getStackTrace()[1].getLineNumber() + 1;
    }

    private static String at(int line) {
        return " at EarlyBcastAndReduceTest.java:" + line;
    }

    /**
     * Early Bcasts back to back, from a root that changes, between non-blocking collectives (which
     * mark the lines without waiting, so a root may be two phases ahead of a rank still to read its
     * message) and Bcasts on the general path.
     */
    @Worlds.AllSizes
    void deliverTheirRootsMessagesBetweenOtherCollectives(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            for (int i = 0; i < 300; i++) {
                int root = i % n;
                long[] a = {me == root ? 1000L * i + root : -1};
                MPI.COMM_WORLD.bcast(a, 1, MPI.LONG, root);
                assertEquals(1000L * i + root, a[0], "iteration " + i);
                int[] b = new int[12];
                if (me == (root + 1) % n) {
                    java.util.Arrays.fill(b, i);
                }
                Request r1 = MPI.COMM_WORLD.iBarrier();
                Request r2 = MPI.COMM_WORLD.iBcast(b, 12, MPI.INT, (root + 1) % n);
                double[] c = {me == root ? i + 0.5 : 0};
                MPI.COMM_WORLD.bcast(c, 1, MPI.DOUBLE, root);
                assertEquals(i + 0.5, c[0], "iteration " + i);
                Request.waitAll(new Request[] {r1, r2});
                assertEquals(i, b[11], "iteration " + i);
                int[] big = new int[64];
                if (me == root) {
                    java.util.Arrays.fill(big, -i);
                }
                if (i % 3 == 0) {
                    MPI.COMM_WORLD.Bcast(big, 0, 64, MPI.INT, root);
                    assertEquals(-i, big[63], "iteration " + i);
                }
            }
            return null;
        });
    }

    /**
     * The root of back-to-back early Bcasts runs ahead of a rank that has not called them yet, up to
     * one less than the lines' phases ({@link Tunables#LINE_PHASES}), as Open MPI's root runs ahead
     * on eager messages: the slow rank waits, with a bound, for the root to signal that it has
     * returned from all of them, and only then makes its own calls, which still deliver every
     * message exactly, the short ones from the lines and the longer ones from the slot. Then the
     * same for early Reduces, a rank other than the root running ahead of the root.
     */
    @Worlds.MultiSizes
    void theRootOfBackToBackBcastsRunsAheadOfASlowRank(World w) {
        int ahead = Tunables.LINE_PHASES - 1;
        CountDownLatch rootReturned = new CountDownLatch(1);
        CountDownLatch memberReturned = new CountDownLatch(1);
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            int slow = n - 1;
            long[] first = {me == 0 ? 5 : -1};
            MPI.COMM_WORLD.Bcast(first, 0, 1, MPI.LONG, 0); // the first Bcast waits for every rank
            assertEquals(5, first[0]);
            if (me == slow) {
                assertTrue(rootReturned.await(60, TimeUnit.SECONDS), "the root did not return from "
                    + ahead + " Bcasts before rank " + slow + " called them");
            }
            for (int k = 0; k < ahead; k++) {
                int length = k % 2 == 0 ? 3 : 100; // in the lines, or in the slot (800 bytes)
                long[] v = new long[length];
                if (me == 0) {
                    java.util.Arrays.fill(v, 1000L * k + length);
                }
                MPI.COMM_WORLD.Bcast(v, 0, length, MPI.LONG, 0);
                for (long x : v) {
                    assertEquals(1000L * k + length, x, "Bcast " + k);
                }
            }
            if (me == 0) {
                rootReturned.countDown();
            }
            long[] in = {me + 1};
            long[] out = {-1};
            MPI.COMM_WORLD.Reduce(in, 0, out, 0, 1, MPI.LONG, MPI.SUM, 0); // the first Reduce waits
            if (me == 0) {
                assertEquals((long) n * (n + 1) / 2, out[0]);
                assertTrue(memberReturned.await(60, TimeUnit.SECONDS), "rank " + slow + " did not return from "
                    + ahead + " Reduces before the root called them");
            }
            for (int k = 0; k < ahead; k++) {
                long[] x = {(me + 1) * (k + 1L)};
                long[] y = {-1};
                MPI.COMM_WORLD.Reduce(x, 0, y, 0, 1, MPI.LONG, MPI.SUM, 0);
                x[0] = -99; // reused at once: the root reads the copy
                if (me == 0) {
                    assertEquals((long) n * (n + 1) / 2 * (k + 1), y[0], "Reduce " + k);
                }
            }
            if (me == slow) {
                memberReturned.countDown();
            }
            MPI.COMM_WORLD.Barrier();
            return null;
        });
    }

    /**
     * Early Bcasts and Reduces back to back, many more than the lines' phases, the roots changing
     * and ranks pausing at random, so that roots run ahead and reuse the lines of earlier phases
     * while slower ranks read them: every message and every sum exact.
     */
    @Worlds.AllSizes
    void backToBackEarlyCallsStayExactWhileRootsRunAhead(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            java.util.Random pauses = new java.util.Random(me);
            for (int i = 0; i < 2000; i++) {
                int root = i / 50 % n;
                if (pauses.nextInt(40) == 0) {
                    Thread.sleep(0, 200_000);
                }
                int length = i % 7 == 0 ? 60 : 1 + i % 4; // 60 longs: the slot
                long[] v = new long[length];
                if (me == root) {
                    java.util.Arrays.fill(v, 31L * i + root);
                }
                MPI.COMM_WORLD.Bcast(v, 0, length, MPI.LONG, root);
                assertEquals(31L * i + root, v[length - 1], "Bcast " + i);
                assertEquals(31L * i + root, v[0], "Bcast " + i);
                if (i % 3 == 0) {
                    long[] x = {me + i};
                    long[] y = {-1};
                    MPI.COMM_WORLD.Reduce(x, 0, y, 0, 1, MPI.LONG, MPI.SUM, root);
                    if (me == root) {
                        assertEquals((long) n * (n - 1) / 2 + (long) n * i, y[0], "Reduce " + i);
                    }
                }
            }
            return null;
        });
    }

    /** A communicator freed right after early Bcasts: Free settles them, and the data is the root's. */
    @Worlds.MultiSizes
    void freeSettlesThem(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            for (int i = 0; i < 50; i++) {
                Intracomm dup = MPI.COMM_WORLD.Dup();
                for (int k = 0; k < 3; k++) {
                    int[] v = {me == k % dup.Size() ? 10 * i + k : -1};
                    dup.Bcast(v, 0, 1, MPI.INT, k % dup.Size());
                    assertEquals(10 * i + k, v[0]);
                }
                dup.Free();
            }
            return null;
        });
    }

    /**
     * A count that differs at a later Bcast: the rank whose call differs from the root's finds it at
     * once and ends the job, naming its own line; the root had returned, so its line is not known.
     */
    @ParameterizedTest(name = "{0} ranks, count {1}")
    @CsvSource({"2, 1", "3, 1", "8, 1", "2, 100", "3, 100", "8, 100"})
    void aLaterCountThatDiffersEndsTheJob(int ranks, int count) {
        int last = ranks - 1;
        int[] line = new int[1];
        JobFailedException e = assertThrows(JobFailedException.class, () -> Worlds.of(ranks).run(() -> {
            int[] buf = new int[count + 1];
            MPI.COMM_WORLD.Bcast(buf, 0, count, MPI.INT, 0);
            boolean odd = MPI.COMM_WORLD.Rank() == last;
            line[0] = nextLine();
            MPI.COMM_WORLD.Bcast(buf, 0, odd ? count + 1 : count, MPI.INT, 0);
            MPI.COMM_WORLD.Barrier();
            return 0;
        }));
        Jobs.assertMentions(e.getMessage(), "MPI_ERR_COUNT", "Bcast on rank " + last + ": collective calls do not "
            + "match: Bcast(root=0, count=" + count + ", MPI.INT) on rank 0 does not match Bcast(root=0, count="
            + (count + 1) + ", MPI.INT)"
            + at(line[0]) + " on rank " + last, "the line of rank 0 is not known: after the first on a communicator, a small Bcast, and a small Reduce at the"
            + " ranks other than the root, do not wait for every rank (under --check they do, and reports name every line)");
    }

    /**
     * Ranks that start a non-blocking collective where the root's later Bcast is: nobody of the
     * ranks waits in a blocking call of that collective, so the root finds it as it settles its
     * Bcast (here at Finalize) and fails their requests.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void aLaterBcastAgainstNonBlockingCallsFailsTheirRequests(int ranks) {
        List<String> o = Worlds.of(ranks).runRaw(() -> {
            MPI.Init(new String[0]);
            int[] buf = new int[1];
            MPI.COMM_WORLD.Bcast(buf, 0, 1, MPI.INT, 0);
            String outcome = "ok";
            try {
                if (MPI.COMM_WORLD.Rank() == 0) {
                    MPI.COMM_WORLD.Bcast(buf, 0, 1, MPI.INT, 0);
                } else {
                    MPI.COMM_WORLD.iBarrier().waitFor();
                }
            } catch (MPIException e) {
                outcome = e.getErrorClass() + ": " + e.getMessage();
            }
            try {
                MPI.Finalize();
            } catch (MPIException e) {
                outcome = "Finalize: " + e.getErrorClass() + ": " + e.getMessage();
            }
            return outcome;
        });
        String mismatch = "Bcast(root=0, count=1, MPI.INT) on rank 0 does not match iBarrier() on rank 1";
        Jobs.assertMentions(o.get(0), "Finalize: " + MPI.ERR_NOT_SAME + ": ", mismatch,
            "rank 0 found this in Finalize, after it had returned from Bcast");
        for (int r = 1; r < ranks; r++) {
            Jobs.assertMentions(o.get(r), MPI.ERR_NOT_SAME + ": ", mismatch);
        }
    }

    /** Only the root calls a later Bcast: its Finalize waits for the others, and the job ends with the report. */
    @ParameterizedTest(name = "{0} ranks, count {1}")
    @CsvSource({"2, 1", "3, 1", "8, 1", "2, 100", "3, 100", "8, 100"})
    void aLaterBcastOnlyTheRootCallsIsReportedAtFinalize(int ranks, int count) {
        JobFailedException e = assertThrows(JobFailedException.class, () -> Worlds.of(ranks).run(() -> {
            int[] buf = new int[count];
            MPI.COMM_WORLD.Bcast(buf, 0, count, MPI.INT, 0);
            if (MPI.COMM_WORLD.Rank() == 0) {
                MPI.COMM_WORLD.Bcast(buf, 0, count, MPI.INT, 0);
            }
            return 0;
        }));
        assertEquals(DeadlockException.EXIT_CODE, e.exitCode(), e.getMessage());
        String late = ranks == 2 ? "rank 1" : ranks == 3 ? "ranks 1, 2" : "ranks 1-" + (ranks - 1);
        Jobs.assertMentions(e.getMessage(), "rank 0: Finalize(waits for " + late
            + " of the communicator to call Bcast(root=0, count=" + count
            + ", MPI.INT), which it"
            + " returned from early)");
    }

    /** Under --check a later Bcast waits for every rank too: the report names every rank's line. */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void underCheckALaterMismatchNamesEveryLine(int ranks) {
        int last = ranks - 1;
        int[] lines = new int[2];
        List<String> o = Jobs.options().ranks(ranks).check(true).run(() -> {
            MPI.Init(new String[0]);
            try {
                int[] buf = new int[2];
                MPI.COMM_WORLD.Bcast(buf, 0, 1, MPI.INT, 0);
                boolean odd = MPI.COMM_WORLD.Rank() == last;
                lines[odd ? 1 : 0] = nextLine();
                MPI.COMM_WORLD.Bcast(buf, 0, odd ? 2 : 1, MPI.INT, 0);
                return "ok";
            } catch (MPIException e) {
                return e.getErrorClass() + ": " + e.getMessage();
            } finally {
                MPI.Finalize();
            }
        });
        for (int r = 0; r < ranks; r++) {
            Jobs.assertMentions(o.get(r), MPI.ERR_COUNT + ": MPI_ERR_COUNT: Bcast on rank " + r + ": collective calls do not match: "
                + "Bcast(root=0, count=1, MPI.INT)" + at(lines[0]) + " on rank 0 does not match Bcast(root=0, count=2, "
                + "MPI.INT)" + at(lines[1]) + " on rank " + last);
        }
    }

    /**
     * Early Reduces (every rank but the root returns once its contribution is copied) back to back,
     * the root changing, between non-blocking collectives and Reduces too large to leave early:
     * every result exact (integer sums), so a contribution read after its rank overwrote it, or
     * another call's, shows.
     */
    @Worlds.AllSizes
    void reducesLeaveEarlyAndSumExactly(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            long ranks = (long) n * (n - 1) / 2;
            for (int i = 0; i < 300; i++) {
                int root = i % n;
                long[] in = {me + 1000L * i, me};
                long[] out = {-1, -1};
                MPI.COMM_WORLD.Reduce(in, 0, out, 0, 2, MPI.LONG, MPI.SUM, root);
                in[0] = -7; // reused at once: the root must have read the copy
                if (me == root) {
                    assertEquals(ranks + 1000L * i * n, out[0], "iteration " + i);
                    assertEquals(ranks, out[1], "iteration " + i);
                }
                Request r = MPI.COMM_WORLD.iBarrier();
                int[] big = new int[2048];
                java.util.Arrays.fill(big, me);
                int[] sum = new int[2048];
                if (i % 5 == 0) {
                    MPI.COMM_WORLD.Reduce(big, 0, sum, 0, 2048, MPI.INT, MPI.SUM, (root + 1) % n);
                    if (me == (root + 1) % n) {
                        assertEquals((int) ranks, sum[2047], "iteration " + i);
                    }
                }
                double[] x = {me, 1};
                double[] y = new double[2];
                MPI.COMM_WORLD.Reduce(x, 0, y, 0, 2, MPI.DOUBLE, MPI.MAX, root);
                if (me == root) {
                    assertEquals(n - 1, y[0], "iteration " + i);
                }
                r.Wait();
            }
            return null;
        });
    }

    /** A later Reduce whose count differs on a rank: the root, which waits for every rank, reports it with its line. */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void aLaterReduceThatDiffersIsReportedByTheRoot(int ranks) {
        int last = ranks - 1;
        int[] line = new int[1];
        JobFailedException e = assertThrows(JobFailedException.class, () -> Worlds.of(ranks).run(() -> {
            int[] in = new int[3];
            int[] out = new int[3];
            MPI.COMM_WORLD.Reduce(in, 0, out, 0, 2, MPI.INT, MPI.SUM, 0);
            boolean odd = MPI.COMM_WORLD.Rank() == last;
            line[0] = nextLine();
            MPI.COMM_WORLD.Reduce(in, 0, out, 0, odd ? 3 : 2, MPI.INT, MPI.SUM, 0);
            MPI.COMM_WORLD.Barrier();
            return 0;
        }));
        Jobs.assertMentions(e.getMessage(), "MPI_ERR_COUNT", "Reduce on rank 0: collective calls do not match: "
            + "Reduce(root=0, count=2, MPI.INT, MPI.SUM)" + at(line[0]) + " on rank 0 does not match Reduce(root=0, "
            + "count=3, MPI.INT, MPI.SUM) on rank " + last, "the line of rank " + last + " is not known: after the first"
            + " on a communicator, a small Bcast, and a small Reduce at the ranks other than the root, do not wait");
    }

    /** A later Reduce the root never calls: the others wait at Finalize, and the job ends with the report. */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void aLaterReduceTheRootSkipsIsReportedAtFinalize(int ranks) {
        JobFailedException e = assertThrows(JobFailedException.class, () -> Worlds.of(ranks).run(() -> {
            int[] in = new int[1];
            int[] out = new int[1];
            MPI.COMM_WORLD.Reduce(in, 0, out, 0, 1, MPI.INT, MPI.SUM, 0);
            if (MPI.COMM_WORLD.Rank() != 0) {
                MPI.COMM_WORLD.Reduce(in, 0, out, 0, 1, MPI.INT, MPI.SUM, 0);
            }
            return 0;
        }));
        assertEquals(DeadlockException.EXIT_CODE, e.exitCode(), e.getMessage());
        Jobs.assertMentions(e.getMessage(), "rank 1: Finalize(waits for rank 0 of the communicator to call "
            + "Reduce(root=0, count=1, MPI.INT, MPI.SUM), which it returned from early)");
    }
}
