package ompi;

import java.util.Locale;
import mpi.CartComm;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;

/**
 * Heat diffusion on a square plate of N x N cells (default 32 x 32) whose top edge is held at 100
 * degrees and whose other edges at 0, by Jacobi iteration: every step, each cell takes the mean of
 * its four neighbours, until no cell changes by more than 0.001 degrees (or after MAX_ITERATIONS,
 * default 10,000). The plate is cut into blocks over a 2-D Cartesian grid of ranks (createDims,
 * createCart, not periodic: the plate has edges). Every step a rank trades its edge rows and
 * columns with its neighbours into a halo of one cell (shift, sendRecv; at the plate's edge the
 * neighbour is MPI.PROC_NULL and the halo keeps the edge temperature), then all ranks agree on the
 * largest change (allReduce with MPI.MAX). Rank 0 prints the number of steps and the total heat,
 * and checks them against the plate computed alone: a mismatch ends the job with an exception
 * (non-zero exit). Open MPI Java dialect: rows go out as slices of the
 * block's array (MPI.slice).
 *
 * <pre>./mpjrun -np 4 samples/src/main/java/ompi/Jacobi.java [N [MAX_ITERATIONS]]</pre>
 */
public class Jacobi {
    private static final double HOT = 100;
    private static final double TOLERANCE = 1e-3;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String[] rest = args;
        int n = rest.length > 0 ? Integer.parseInt(rest[0]) : 32;
        int maxIterations = rest.length > 1 ? Integer.parseInt(rest[1]) : 10_000;
        int[] dims = new int[2];
        CartComm.createDims(MPI.COMM_WORLD.getSize(), dims);
        if (n < dims[0] || n < dims[1]) {
            throw new IllegalArgumentException("the plate (" + n + " x " + n + ") is smaller than the grid of ranks ("
                + dims[0] + " x " + dims[1] + ")");
        }
        CartComm grid = MPI.COMM_WORLD.createCart(dims, new boolean[] {false, false}, false);
        int[] coords = grid.getCoords(grid.getRank());
        int top = first(n, dims[0], coords[0]);
        int rows = first(n, dims[0], coords[0] + 1) - top;
        int left = first(n, dims[1], coords[1]);
        int cols = first(n, dims[1], coords[1] + 1) - left;

        // The block with a halo of one cell all round: row i, column j at (i + 1) * width + j + 1.
        int width = cols + 2;
        double[] t = new double[(rows + 2) * width];
        double[] next = new double[t.length];
        if (coords[0] == 0) {
            // The top edge of the plate lies in this block's top halo row, which nobody sends to.
            for (int j = 1; j <= cols; j++) {
                t[j] = HOT;
                next[j] = HOT;
            }
        }
        ShiftParms vertical = grid.shift(0, 1);
        ShiftParms horizontal = grid.shift(1, 1);
        double[] columnOut = new double[rows];
        double[] columnIn = new double[rows];
        double[] change = {Double.MAX_VALUE};
        int steps = 0;
        while (steps < maxIterations && change[0] > TOLERANCE) {
            // First row up, last row down; the halo rows take what comes from below and above.
            grid.sendRecv(MPI.slice(t, width + 1), cols, MPI.DOUBLE, vertical.getRankSource(), 0,
                MPI.slice(t, (rows + 1) * width + 1), cols, MPI.DOUBLE, vertical.getRankDest(), 0);
            grid.sendRecv(MPI.slice(t, rows * width + 1), cols, MPI.DOUBLE, vertical.getRankDest(), 1,
                MPI.slice(t, 1), cols, MPI.DOUBLE, vertical.getRankSource(), 1);
            // First column left, last column right.
            exchangeColumn(grid, t, width, rows, 1, horizontal.getRankSource(), cols + 1, horizontal.getRankDest(), 2,
                columnOut, columnIn);
            exchangeColumn(grid, t, width, rows, cols, horizontal.getRankDest(), 0, horizontal.getRankSource(), 3,
                columnOut, columnIn);
            double[] mine = {0};
            for (int i = 1; i <= rows; i++) {
                for (int j = 1; j <= cols; j++) {
                    int c = i * width + j;
                    next[c] = 0.25 * (t[c - width] + t[c + width] + t[c - 1] + t[c + 1]);
                    mine[0] = Math.max(mine[0], Math.abs(next[c] - t[c]));
                }
            }
            double[] swap = t;
            t = next;
            next = swap;
            grid.allReduce(mine, change, 1, MPI.DOUBLE, MPI.MAX);
            steps++;
        }
        double[] heat = {0};
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= cols; j++) {
                heat[0] += t[i * width + j];
            }
        }
        double[] total = new double[1];
        grid.reduce(heat, total, 1, MPI.DOUBLE, MPI.SUM, 0);
        if (grid.getRank() == 0) {
            double[] expected = serial(n, maxIterations);
            System.out.printf(Locale.ROOT, "Jacobi: %dx%d plate on a %dx%d grid of ranks: %d steps, total heat %.6f "
                + "(expected %d steps, %.6f)%n", n, n, dims[0], dims[1], steps, total[0], (int) expected[0], expected[1]);
            // Every cell is computed as alone, so the steps agree exactly; the sum, up to rounding.
            if (steps != (int) expected[0] || Math.abs(total[0] - expected[1]) > 1e-9 * expected[1]) {
                throw new IllegalStateException(steps + " steps, total heat " + total[0] + "; expected "
                    + (int) expected[0] + " steps, " + expected[1]);
            }
        }
        MPI.Finalize();
    }

    /**
     * Sends column {@code from} to {@code dest} and receives column {@code into} from {@code source};
     * from MPI.PROC_NULL nothing comes, and the halo column keeps the plate's edge.
     */
    private static void exchangeColumn(CartComm grid, double[] t, int width, int rows, int from, int dest, int into,
                                       int source, int tag, double[] out, double[] in) throws MPIException {
        for (int i = 0; i < rows; i++) {
            out[i] = t[(i + 1) * width + from];
        }
        grid.sendRecv(out, rows, MPI.DOUBLE, dest, tag, in, rows, MPI.DOUBLE, source, tag);
        if (source != MPI.PROC_NULL) {
            for (int i = 0; i < rows; i++) {
                t[(i + 1) * width + into] = in[i];
            }
        }
    }

    /** The first of the {@code n} rows (or columns) that part {@code k} of {@code parts} holds. */
    private static int first(int n, int parts, int k) {
        return k * (n / parts) + Math.min(k, n % parts);
    }

    /** The steps and the total heat of the whole plate, computed by one rank. */
    private static double[] serial(int n, int maxIterations) {
        double[][] t = new double[n + 2][n + 2];
        double[][] next = new double[n + 2][n + 2];
        for (int j = 1; j <= n; j++) {
            t[0][j] = HOT;
            next[0][j] = HOT;
        }
        double change = Double.MAX_VALUE;
        int steps = 0;
        while (steps < maxIterations && change > TOLERANCE) {
            change = 0;
            for (int i = 1; i <= n; i++) {
                for (int j = 1; j <= n; j++) {
                    next[i][j] = 0.25 * (t[i - 1][j] + t[i + 1][j] + t[i][j - 1] + t[i][j + 1]);
                    change = Math.max(change, Math.abs(next[i][j] - t[i][j]));
                }
            }
            double[][] swap = t;
            t = next;
            next = swap;
            steps++;
        }
        double heat = 0;
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= n; j++) {
                heat += t[i][j];
            }
        }
        return new double[] {steps, heat};
    }
}
