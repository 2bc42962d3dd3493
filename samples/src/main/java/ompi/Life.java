package ompi;

import java.nio.IntBuffer;
import java.util.Locale;
import mpi.CartComm;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;

/**
 * Conway's Game of Life on an N x N board that wraps around at its edges (default 48 x 48, 30
 * generations), cut into blocks over a periodic 2-D Cartesian grid of ranks (createDims,
 * createCart). Each generation a rank trades its edge rows with the ranks above and below, then its
 * edge columns, halo rows included so that the corners come along, with the ranks left and right
 * (shift, sendRecv). Rank 0 prints the population and checks it against the whole board computed
 * alone: a mismatch ends the job with an exception (non-zero exit). Open MPI Java dialect: the
 * block is a direct IntBuffer, rows go out as slices of it.
 *
 * <pre>./mpjrun -np 6 samples/src/main/java/ompi/Life.java [N [GENERATIONS]]</pre>
 */
public class Life {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 48;
        int generations = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int[] dims = new int[2];
        CartComm.createDims(MPI.COMM_WORLD.getSize(), dims);
        if (n < dims[0]) {
            throw new IllegalArgumentException("the board (" + n + " x " + n + ") has fewer rows than the grid of ranks ("
                + dims[0] + " x " + dims[1] + ")");
        }
        CartComm grid = MPI.COMM_WORLD.createCart(dims, new boolean[] {true, true}, true);
        int[] coords = grid.getCoords(grid.getRank());
        int top = first(n, dims[0], coords[0]);
        int rows = first(n, dims[0], coords[0] + 1) - top;
        int left = first(n, dims[1], coords[1]);
        int cols = first(n, dims[1], coords[1] + 1) - left;

        // The block with a halo of one cell all round: row i, column j at (i + 1) * width + j + 1.
        int width = cols + 2;
        IntBuffer cells = MPI.newIntBuffer((rows + 2) * width);
        IntBuffer next = MPI.newIntBuffer(cells.capacity());
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                cells.put((i + 1) * width + j + 1, seed(top + i, left + j));
            }
        }
        ShiftParms vertical = grid.shift(0, 1);
        ShiftParms horizontal = grid.shift(1, 1);
        IntBuffer columnOut = MPI.newIntBuffer(rows + 2);
        IntBuffer columnIn = MPI.newIntBuffer(rows + 2);
        for (int g = 0; g < generations; g++) {
            // First row up, last row down; the halo rows take what comes from below and above.
            grid.sendRecv(MPI.slice(cells, width + 1), cols, MPI.INT, vertical.getRankSource(), 0,
                MPI.slice(cells, (rows + 1) * width + 1), cols, MPI.INT, vertical.getRankDest(), 0);
            grid.sendRecv(MPI.slice(cells, rows * width + 1), cols, MPI.INT, vertical.getRankDest(), 1,
                MPI.slice(cells, 1), cols, MPI.INT, vertical.getRankSource(), 1);
            // First column left, last column right, each with its halo rows.
            exchangeColumn(grid, cells, width, rows, 1, horizontal.getRankSource(), cols + 1,
                horizontal.getRankDest(), 2, columnOut, columnIn);
            exchangeColumn(grid, cells, width, rows, cols, horizontal.getRankDest(), 0,
                horizontal.getRankSource(), 3, columnOut, columnIn);
            for (int i = 1; i <= rows; i++) {
                for (int j = 1; j <= cols; j++) {
                    int around = cells.get((i - 1) * width + j - 1) + cells.get((i - 1) * width + j)
                        + cells.get((i - 1) * width + j + 1) + cells.get(i * width + j - 1) + cells.get(i * width + j + 1)
                        + cells.get((i + 1) * width + j - 1) + cells.get((i + 1) * width + j)
                        + cells.get((i + 1) * width + j + 1);
                    next.put(i * width + j, around == 3 || around == 2 && cells.get(i * width + j) == 1 ? 1 : 0);
                }
            }
            IntBuffer t = cells;
            cells = next;
            next = t;
        }
        int[] alive = {0};
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= cols; j++) {
                alive[0] += cells.get(i * width + j);
            }
        }
        int[] population = new int[1];
        grid.reduce(alive, population, 1, MPI.INT, MPI.SUM, 0);
        if (grid.getRank() == 0) {
            int expected = serialPopulation(n, generations);
            System.out.printf(Locale.ROOT, "Life: %dx%d board on a %dx%d grid of ranks, %d generations: %d alive "
                + "(expected %d)%n", n, n, dims[0], dims[1], generations, population[0], expected);
            if (population[0] != expected) {
                throw new IllegalStateException("population " + population[0] + ", expected " + expected);
            }
        }
        MPI.Finalize();
    }

    /** Sends column {@code from} (halo rows included) to {@code dest} and receives column {@code into} from {@code source}. */
    private static void exchangeColumn(CartComm grid, IntBuffer cells, int width, int rows, int from, int dest, int into,
                                       int source, int tag, IntBuffer out, IntBuffer in) throws MPIException {
        for (int i = 0; i < rows + 2; i++) {
            out.put(i, cells.get(i * width + from));
        }
        grid.sendRecv(out, rows + 2, MPI.INT, dest, tag, in, rows + 2, MPI.INT, source, tag);
        for (int i = 0; i < rows + 2; i++) {
            cells.put(i * width + into, in.get(i));
        }
    }

    /** The first of the {@code n} rows (or columns) that part {@code k} of {@code parts} holds. */
    private static int first(int n, int parts, int k) {
        return k * (n / parts) + Math.min(k, n % parts);
    }

    /** The starting board: a fixed scatter of live cells. */
    private static int seed(int row, int col) {
        return (row * 31 + col * 17 + row * col) % 7 < 3 ? 1 : 0;
    }

    /** The population after {@code generations} on the whole board, computed by one rank. */
    private static int serialPopulation(int n, int generations) {
        int[][] board = new int[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                board[i][j] = seed(i, j);
            }
        }
        for (int g = 0; g < generations; g++) {
            int[][] next = new int[n][n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    int around = 0;
                    for (int di = -1; di <= 1; di++) {
                        for (int dj = -1; dj <= 1; dj++) {
                            if (di != 0 || dj != 0) {
                                around += board[(i + di + n) % n][(j + dj + n) % n];
                            }
                        }
                    }
                    next[i][j] = around == 3 || around == 2 && board[i][j] == 1 ? 1 : 0;
                }
            }
            board = next;
        }
        int alive = 0;
        for (int[] row : board) {
            for (int c : row) {
                alive += c;
            }
        }
        return alive;
    }
}
