package ompi;

import java.util.Arrays;
import java.util.Locale;
import mpi.MPI;
import mpi.MPIException;

/**
 * Multiplies two N x N matrices (default 240 x 240), C = A B, by rows: rank 0 deals out
 * equal blocks of A's rows (scatter), sends all of B to every rank (bcast), each rank multiplies
 * its rows, and rank 0 collects the rows of C (gather). scatter and gather move the same count to
 * every rank, so when N is not a multiple of the number of ranks, rank 0 pads A with zero rows and
 * drops the padding from C. The entries are small integers, so the product is exact: rank 0
 * checks C against the product computed alone, element by element, and prints a checksum; a
 * mismatch ends the job with an exception (non-zero exit). Open MPI Java dialect.
 *
 * <pre>./mpjrun -np 4 samples/src/main/java/ompi/MatMul.java [N]</pre>
 */
public class MatMul {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String[] rest = args;
        int n = rest.length > 0 ? Integer.parseInt(rest[0]) : 240;
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int rowsEach = (n + size - 1) / size;
        // Row-major; A and C have rowsEach * size rows on rank 0, the ones past n all zero.
        double[] a = new double[me == 0 ? rowsEach * size * n : 0];
        double[] c = new double[a.length];
        double[] b = new double[n * n];
        if (me == 0) {
            fill(a, n, b);
        }
        double[] myRows = new double[rowsEach * n];
        MPI.COMM_WORLD.scatter(a, rowsEach * n, MPI.DOUBLE, myRows, rowsEach * n, MPI.DOUBLE, 0);
        MPI.COMM_WORLD.bcast(b, n * n, MPI.DOUBLE, 0);
        double[] myC = multiply(myRows, rowsEach, b, n);
        MPI.COMM_WORLD.gather(myC, rowsEach * n, MPI.DOUBLE, c, rowsEach * n, MPI.DOUBLE, 0);
        if (me == 0) {
            double[] product = Arrays.copyOf(c, n * n);
            double[] expected = multiply(Arrays.copyOf(a, n * n), n, b, n);
            System.out.printf(Locale.ROOT, "MatMul: %dx%d on %d ranks, %d rows each: checksum %016x (expected %016x)%n",
                n, n, size, rowsEach, checksum(product), checksum(expected));
            if (!Arrays.equals(product, expected)) {
                throw new IllegalStateException("C differs from the product computed alone");
            }
        }
        MPI.Finalize();
    }

    /** A and B: small integers, different in every row and column. */
    private static void fill(double[] a, int n, double[] b) {
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                a[i * n + j] = (i * 7 + j * 3) % 11 - 5;
                b[i * n + j] = (i * 5 + j * 2) % 13 - 6;
            }
        }
    }

    /** {@code rows} rows of A (row-major, n columns) times the n x n matrix B. */
    private static double[] multiply(double[] a, int rows, double[] b, int n) {
        double[] c = new double[rows * n];
        for (int i = 0; i < rows; i++) {
            for (int k = 0; k < n; k++) {
                double aik = a[i * n + k];
                for (int j = 0; j < n; j++) {
                    c[i * n + j] += aik * b[k * n + j];
                }
            }
        }
        return c;
    }

    /** A hash of C's entries in order, so that a row in the wrong place changes it. */
    private static long checksum(double[] c) {
        long h = 1125899906842597L;
        for (double x : c) {
            h = 31 * h + (long) x;
        }
        return h;
    }
}
