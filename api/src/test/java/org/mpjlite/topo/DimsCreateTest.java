package org.mpjlite.topo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.CartComm;
import mpi.Cartcomm;
import mpi.MPI;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpjlite.p2p.Jobs;

/**
 * Dims_create / createDims against the standard's examples, known answers, and an exhaustive
 * reference: every way to fill the zero entries, the closest extents (smallest largest-minus-smallest,
 * then the lexicographically smallest) in non-increasing order.
 */
class DimsCreateTest {
    /** Both dialects' call on a copy of {@code dims}; asserts they agree and returns the result. */
    private static int[] create(int nnodes, int... dims) {
        int[] mpiJava = dims.clone();
        int[] openMpi = dims.clone();
        Cartcomm.Dims_create(nnodes, mpiJava);
        CartComm.createDims(nnodes, openMpi);
        assertArrayEquals(mpiJava, openMpi, "Dims_create and createDims");
        return mpiJava;
    }

    @ParameterizedTest(name = "Dims_create({0}, [{1}]) = [{2}]")
    @CsvSource(delimiter = '|', value = {
        // The examples of the MPI standard (MPI-4.1, 8.5.2).
        "6|0 0|3 2", "7|0 0|7 1", "6|0 3 0|2 3 1",
        // Known answers.
        "1|0|1", "1|0 0 0|1 1 1", "12|0 0|4 3", "16|0 0|4 4", "8|0 0 0|2 2 2", "24|0 0 0|4 3 2",
        "32|0 0|8 4", "60|0 0 0|5 4 3", "72|0 0 0|6 4 3", "1024|0 0|32 32", "4|0 0 0|2 2 1",
        "12|0 2 0|3 2 2", "12|4 0|4 3", "12|2 0 3|2 2 3", "9|0 0|3 3", "18|0 0|6 3", "100|0 0 0|5 5 4",
        "2147483647|0 0 0|2147483647 1 1", "1073741824|0 0|32768 32768"})
    @DisplayName("the standard's examples and known answers")
    void knownAnswers(int nnodes, String dims, String expected) {
        assertArrayEquals(ints(expected), create(nnodes, ints(dims)));
    }

    @Test
    @DisplayName("every nnodes 1..300 into 1..4 free dimensions, and with fixed entries, matches the exhaustive reference")
    void matchesTheExhaustiveReference() {
        int checked = 0;
        for (int n = 1; n <= 300; n++) {
            for (int k = 1; k <= 4; k++) {
                assertArrayEquals(reference(n, k), create(n, new int[k]), "nnodes " + n + ", " + k + " dimensions");
                checked++;
            }
            // Fixed entries in every position of 3 dimensions, with every divisor of n up to 6.
            for (int fixed = 1; fixed <= 6; fixed++) {
                if (n % fixed != 0) {
                    continue;
                }
                for (int at = 0; at < 3; at++) {
                    int[] dims = new int[3];
                    dims[at] = fixed;
                    int[] free = reference(n / fixed, 2);
                    int[] want = new int[3];
                    for (int i = 0, j = 0; i < 3; i++) {
                        want[i] = i == at ? fixed : free[j++];
                    }
                    assertArrayEquals(want, create(n, dims), "nnodes " + n + ", dims " + Arrays.toString(dims));
                    checked++;
                }
            }
        }
        assertEquals(1200 + 3 * countDivisorsUpTo6(300), checked);
    }

    @Test
    @DisplayName("the filled entries are non-increasing and their product is nnodes")
    void nonIncreasingWithTheRightProduct() {
        for (int n : new int[] {2, 30, 64, 210, 720, 1000, 5040, 65536, 720720, 735134400, Integer.MAX_VALUE}) {
            for (int k = 1; k <= 8; k++) {
                int[] dims = create(n, new int[k]);
                long product = 1;
                for (int i = 0; i < k; i++) {
                    product *= dims[i];
                    if (i > 0) {
                        assertEquals(true, dims[i - 1] >= dims[i], () -> n + ": " + Arrays.toString(dims));
                    }
                }
                assertEquals(n, product, () -> Arrays.toString(dims));
            }
        }
    }

    @Test
    @DisplayName("many dimensions: the ones beyond the prime factors are 1, quickly")
    void manyDimensions() {
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            int[] dims = create(1 << 30, new int[40]);
            int[] want = new int[40];
            Arrays.fill(want, 0, 30, 2);
            Arrays.fill(want, 30, 40, 1);
            assertArrayEquals(want, dims);
            int[] big = create(735134400, new int[100]);
            assertEquals(735134400L, Arrays.stream(big).asLongStream().reduce(1, (a, b) -> a * b));
            assertEquals(1, big[99]);
            int[] none = create(1, new int[0]);
            assertEquals(0, none.length);
        });
    }

    @Test
    @DisplayName("all entries fixed: kept when their product is nnodes")
    void allFixed() {
        assertArrayEquals(new int[] {3, 2}, create(6, 3, 2));
        assertArrayEquals(new int[] {1}, create(1, 1));
    }

    @Test
    @DisplayName("errors: ERR_DIMS for nnodes < 1, negative entries and impossible fixed entries, naming the call")
    void errors() {
        Jobs.assertMpiError(MPI.ERR_DIMS, () -> Cartcomm.Dims_create(0, new int[2]), "Dims_create", "nnodes", "0");
        Jobs.assertMpiError(MPI.ERR_DIMS, () -> CartComm.createDims(-4, new int[2]), "createDims", "nnodes", "-4");
        Jobs.assertMpiError(MPI.ERR_DIMS, () -> Cartcomm.Dims_create(6, new int[] {0, -2}), "Dims_create",
            "dims[1]", "-2");
        Jobs.assertMpiError(MPI.ERR_DIMS, () -> Cartcomm.Dims_create(7, new int[] {0, 3, 0}), "Dims_create", "7",
            "[0, 3, 0]");
        Jobs.assertMpiError(MPI.ERR_DIMS, () -> CartComm.createDims(6, new int[] {4, 0}), "createDims", "divide");
        Jobs.assertMpiError(MPI.ERR_DIMS, () -> Cartcomm.Dims_create(6, new int[] {2, 2}), "Dims_create",
            "must be 6");
        Jobs.assertMpiError(MPI.ERR_DIMS, () -> Cartcomm.Dims_create(6, new int[0]), "Dims_create", "must be 6");
        Jobs.assertMpiError(MPI.ERR_DIMS, () -> Cartcomm.Dims_create(4, new int[] {65536, 65536, 0}),
            "Dims_create");
        Jobs.assertMpiError(MPI.ERR_ARG, () -> Cartcomm.Dims_create(4, null), "Dims_create", "dims", "null");
    }

    // ---- the reference -------------------------------------------------------------------------

    /** Every k-tuple of factors of n, best by (largest - smallest), then lexicographically; sorted down. */
    private static int[] reference(int n, int k) {
        List<int[]> all = new ArrayList<>();
        tuples(n, k, new int[k], 0, all);
        int[] best = null;
        for (int[] t : all) {
            int[] sorted = t.clone();
            Arrays.sort(sorted);
            reverse(sorted);
            if (best == null || better(sorted, best)) {
                best = sorted;
            }
        }
        return best;
    }

    private static boolean better(int[] a, int[] b) {
        int spreadA = a[0] - a[a.length - 1];
        int spreadB = b[0] - b[b.length - 1];
        if (spreadA != spreadB) {
            return spreadA < spreadB;
        }
        return Arrays.compare(a, b) < 0;
    }

    private static void tuples(int rest, int k, int[] t, int i, List<int[]> out) {
        if (i == k - 1) {
            t[i] = rest;
            out.add(t.clone());
            return;
        }
        for (int d = 1; d <= rest; d++) {
            if (rest % d == 0) {
                t[i] = d;
                tuples(rest / d, k, t, i + 1, out);
            }
        }
    }

    private static void reverse(int[] a) {
        for (int i = 0, j = a.length - 1; i < j; i++, j--) {
            int x = a[i];
            a[i] = a[j];
            a[j] = x;
        }
    }

    private static int countDivisorsUpTo6(int max) {
        int count = 0;
        for (int n = 1; n <= max; n++) {
            for (int f = 1; f <= 6; f++) {
                count += n % f == 0 ? 1 : 0;
            }
        }
        return count;
    }

    private static int[] ints(String s) {
        return Arrays.stream(s.trim().split(" +")).mapToInt(Integer::parseInt).toArray();
    }
}
