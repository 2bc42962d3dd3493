package org.mpjlite.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntToLongFunction;
import mpi.MPI;
import mpi.Request;
import org.mpjlite.p2p.Jobs.World;

/**
 * Blocking Reduce of at most 48 bytes per rank, which the engine carries in each rank's epoch line
 * beside the root it names instead of the slot: every kind of buffer and every predefined operation
 * at the largest count that fits and the first that does not (the general path), every root, in
 * place and with offsets; bitwise the floating-point result of the general path; and loops that
 * alternate it with the general path, non-blocking collectives and Allreduces in the lines (whose
 * lines differ only by the Reduce's mark and root), ranks skewed by pauses.
 */
class SmallReduceTest {
    /** Largest count of {@code k}'s elements carried in a line beside the root. */
    private static int lineCount(Kind k) {
        return 48 / k.type.getSize();
    }

    @Worlds.AllSizes
    void everyKindOperationAndRootAtTheLineLimitAndPastIt(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            for (Kind k : Kind.values()) {
                for (ReductionTest.Case c : ReductionTest.cases()) {
                    if (!c.appliesTo(k)) {
                        continue;
                    }
                    for (int count : new int[] {1, lineCount(k), lineCount(k) + 1}) {
                        int root = (count + c.name().length()) % n;
                        String what = c.name() + " of " + count + " to " + root;
                        IntToLongFunction all = ReductionTest.reference(k, c, 0, n);
                        Object s = k.filled(count, i -> c.input(me, i));
                        Object r = k.create(count);
                        MPI.COMM_WORLD.reduce(s, r, count, k.type, c.op(), root);
                        if (me == root) {
                            k.assertHolds(r, 0, count, all, "reduce " + what);
                        } else {
                            k.assertHolds(r, 0, count, i -> 0, "reduce leaves a receive buffer off the root alone");
                        }
                        k.assertHolds(s, 0, count, i -> c.input(me, i), "reduce send buffer unchanged " + what);
                        Object p = k.filled(count, i -> c.input(me, i));
                        MPI.COMM_WORLD.reduce(p, count, k.type, c.op(), root);
                        k.assertHolds(p, 0, count, me == root ? all : i -> c.input(me, i), "reduce in place " + what);
                        if (!k.isBuffer()) {
                            Object so = k.filled(3 + count, i -> c.input(me, i - 3));
                            Object ro = k.create(5 + count);
                            MPI.COMM_WORLD.Reduce(so, 3, ro, 5, count, k.type, c.op(), root);
                            if (me == root) {
                                k.assertHolds(ro, 5, count, all, "Reduce with offsets " + what);
                            }
                            k.assertHolds(ro, 0, 5, i -> 0, "Reduce leaves the elements before the offset");
                        }
                    }
                }
            }
            return null;
        });
    }

    /**
     * Sums whose rounding depends on the order of the additions: the root gets the bits of
     * {@code x0 + (x1 + (... + x[n-1]))} (rank order, as the general path combines), from the first
     * Reduce (every rank waits) and from later ones (the others return early), and the same bits as
     * the general path's for the same elements.
     */
    @Worlds.AllSizes
    void floatingPointResultsAreTheBitsOfTheGeneralPath(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            for (int round = 0; round < 3; round++) {
                int root = round % n;
                double[] line = new double[6];
                double[] general = new double[100];
                for (int i = 0; i < general.length; i++) {
                    general[i] = SmallAllreduceTest.value(me, i % 6);
                }
                System.arraycopy(general, 0, line, 0, line.length);
                double[] lineSum = new double[6];
                double[] generalSum = new double[100];
                MPI.COMM_WORLD.reduce(line, lineSum, 6, MPI.DOUBLE, MPI.SUM, root);
                MPI.COMM_WORLD.reduce(general, generalSum, 100, MPI.DOUBLE, MPI.SUM, root);
                for (int i = 0; me == root && i < 6; i++) {
                    double expected = SmallAllreduceTest.value(n - 1, i);
                    for (int r = n - 2; r >= 0; r--) {
                        expected = SmallAllreduceTest.value(r, i) + expected;
                    }
                    assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(lineSum[i]),
                        "round " + round + ", element " + i + ": " + lineSum[i] + ", expected " + expected);
                    assertEquals(Double.doubleToRawLongBits(generalSum[i]), Double.doubleToRawLongBits(lineSum[i]),
                        "round " + round + ", element " + i + " on both paths");
                }
            }
            return null;
        });
    }

    /**
     * Small Reduces, the root changing, between Allreduces in the lines with the same count, type
     * and operation, Reduces on the general path (large counts, user operations), non-blocking
     * collectives still in flight and Bcasts, with random pauses: every result checked, and every
     * contribution overwritten as soon as its Reduce returns.
     */
    @Worlds.AllSizes
    void alternatesWithAllreducesTheGeneralPathAndOtherCollectives(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            ThreadLocalRandom rnd = ThreadLocalRandom.current();
            long sumOfRanks = (long) n * (n - 1) / 2;
            for (int it = 0; it < 400; it++) {
                if (rnd.nextInt(40) == 0) {
                    Thread.sleep(1);
                }
                int root = it / 3 % n;
                long[] small = {me, it, -me};
                long[] out = new long[3];
                MPI.COMM_WORLD.reduce(small, out, 3, MPI.LONG, MPI.SUM, root);
                small[0] = -1;
                if (me == root) {
                    assertEquals(sumOfRanks, out[0], "small " + it);
                    assertEquals((long) n * it, out[1], "small " + it);
                    assertEquals(-sumOfRanks, out[2], "small " + it);
                }
                switch (it % 5) {
                    case 0 -> {
                        long[] same = {me, it, -me};
                        MPI.COMM_WORLD.allReduce(same, 3, MPI.LONG, MPI.SUM);
                        assertEquals(sumOfRanks, same[0], "allReduce " + it);
                    }
                    case 1 -> {
                        int[] a = {me};
                        Request ra = MPI.COMM_WORLD.iReduce(a, new int[1], 1, MPI.INT, MPI.SUM, root);
                        Request rb = MPI.COMM_WORLD.iBarrier();
                        int[] c = {1};
                        int[] d = new int[1];
                        MPI.COMM_WORLD.reduce(c, d, 1, MPI.INT, MPI.SUM, (root + 1) % n);
                        if (me == (root + 1) % n) {
                            assertEquals(n, d[0], "small after non-blocking " + it);
                        }
                        ra.waitFor();
                        rb.waitFor();
                    }
                    case 2 -> {
                        long[] large = new long[20];
                        java.util.Arrays.fill(large, me + it);
                        long[] max = new long[20];
                        MPI.COMM_WORLD.reduce(large, max, 20, MPI.LONG, MPI.MAX, root);
                        if (me == root) {
                            assertEquals(n - 1 + it, max[19], "large " + it);
                        }
                    }
                    case 3 -> {
                        int[] b = {me == root ? it : -1};
                        MPI.COMM_WORLD.bcast(b, 1, MPI.INT, root);
                        assertEquals(it, b[0], "bcast " + it);
                    }
                    default -> {
                        double[] x = {me + 0.5};
                        double[] y = new double[1];
                        MPI.COMM_WORLD.reduce(x, y, 1, MPI.DOUBLE, MPI.MIN, root);
                        if (me == root) {
                            assertEquals(0.5, y[0], "min " + it);
                        }
                    }
                }
            }
            return null;
        });
    }
}
