package ompi;

import java.util.Arrays;
import java.util.Locale;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * The Mandelbrot set on a WIDTH x HEIGHT image (default 400 x 300, at most 256 iterations a
 * pixel), computed by master and workers: rank 0 hands out one row at a time (tag WORK), and
 * gives the next row to whichever worker answers first (recv from MPI.ANY_SOURCE, the worker read
 * from the Status), until no row is left; then it tells every worker to stop (tag STOP). Rows near
 * the set cost more than rows far from it, so handing them out on demand balances the load. On
 * one rank, rank 0 computes every row itself. Rank 0 prints a checksum of the image and checks it
 * against the image computed alone: a mismatch ends the job with an exception (non-zero exit).
 * Open MPI Java dialect.
 *
 * <pre>./mpjrun -np 4 samples/src/main/java/ompi/Mandelbrot.java [WIDTH HEIGHT [MAX_ITERATIONS]]</pre>
 */
public class Mandelbrot {
    private static final int WORK = 1;
    private static final int STOP = 2;
    private static final int RESULT = 3;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String[] rest = args;
        int width = rest.length > 1 ? Integer.parseInt(rest[0]) : 400;
        int height = rest.length > 1 ? Integer.parseInt(rest[1]) : 300;
        int maxIterations = rest.length > 2 ? Integer.parseInt(rest[2]) : 256;
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (me == 0) {
            int[][] image = size == 1 ? alone(width, height, maxIterations) : master(size, width, height);
            long checksum = checksum(image);
            long expected = checksum(alone(width, height, maxIterations));
            System.out.printf(Locale.ROOT, "Mandelbrot: %dx%d, %d iterations, %d workers: checksum %016x (expected %016x)%n",
                width, height, maxIterations, size - 1, checksum, expected);
            if (checksum != expected) {
                throw new IllegalStateException("checksum " + Long.toHexString(checksum) + ", expected "
                    + Long.toHexString(expected));
            }
        } else {
            worker(width, height, maxIterations);
        }
        MPI.Finalize();
    }

    /** Hands out rows on demand and assembles the image; every worker ends up with a STOP. */
    private static int[][] master(int size, int width, int height) throws MPIException {
        int[][] image = new int[height][];
        int nextRow = 0;
        int busy = 0;
        int[] row = new int[1];
        // A first row for every worker (or a STOP, when there are more workers than rows).
        for (int w = 1; w < size; w++) {
            if (nextRow < height) {
                row[0] = nextRow++;
                MPI.COMM_WORLD.send(row, 1, MPI.INT, w, WORK);
                busy++;
            } else {
                MPI.COMM_WORLD.send(row, 0, MPI.INT, w, STOP);
            }
        }
        // A result is the row number followed by the row's pixels.
        int[] result = new int[width + 1];
        while (busy > 0) {
            Status s = MPI.COMM_WORLD.recv(result, width + 1, MPI.INT, MPI.ANY_SOURCE, RESULT);
            image[result[0]] = Arrays.copyOfRange(result, 1, width + 1);
            if (nextRow < height) {
                row[0] = nextRow++;
                MPI.COMM_WORLD.send(row, 1, MPI.INT, s.getSource(), WORK);
            } else {
                MPI.COMM_WORLD.send(row, 0, MPI.INT, s.getSource(), STOP);
                busy--;
            }
        }
        return image;
    }

    /** Computes the rows it is given until it is told to stop. */
    private static void worker(int width, int height, int maxIterations) throws MPIException {
        int[] row = new int[1];
        int[] result = new int[width + 1];
        while (true) {
            Status s = MPI.COMM_WORLD.recv(row, 1, MPI.INT, 0, MPI.ANY_TAG);
            if (s.getTag() == STOP) {
                return;
            }
            result[0] = row[0];
            computeRow(row[0], width, height, maxIterations, result, 1);
            MPI.COMM_WORLD.send(result, width + 1, MPI.INT, 0, RESULT);
        }
    }

    /** The whole image, by one rank. */
    private static int[][] alone(int width, int height, int maxIterations) {
        int[][] image = new int[height][width];
        for (int y = 0; y < height; y++) {
            computeRow(y, width, height, maxIterations, image[y], 0);
        }
        return image;
    }

    /** Iteration counts of row {@code y}, into {@code out} from {@code offset}; the view spans [-2, 1] x [-1.2, 1.2]. */
    private static void computeRow(int y, int width, int height, int maxIterations, int[] out, int offset) {
        double ci = 1.2 - 2.4 * y / Math.max(1, height - 1);
        for (int x = 0; x < width; x++) {
            double cr = -2.0 + 3.0 * x / Math.max(1, width - 1);
            double zr = 0;
            double zi = 0;
            int k = 0;
            while (k < maxIterations && zr * zr + zi * zi <= 4) {
                double t = zr * zr - zi * zi + cr;
                zi = 2 * zr * zi + ci;
                zr = t;
                k++;
            }
            out[offset + x] = k;
        }
    }

    /** A hash of every pixel in order, so that a row put in the wrong place changes it. */
    private static long checksum(int[][] image) {
        long h = 1125899906842597L;
        for (int[] row : image) {
            for (int k : row) {
                h = 31 * h + k;
            }
        }
        return h;
    }
}
