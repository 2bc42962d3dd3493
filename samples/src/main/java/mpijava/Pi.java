package mpijava;

import java.util.Locale;
import mpi.MPI;

/**
 * Computes pi as the integral of 4 / (1 + x^2) from 0 to 1 by the midpoint rule over N intervals
 * (default 1,000,000). Rank 0 broadcasts N (Bcast); each rank sums every size-th interval,
 * starting at its rank; the partial sums meet on rank 0 (Reduce with MPI.SUM). Rank 0 prints pi
 * and checks it against the same sum computed alone: a mismatch beyond rounding ends the job with
 * an exception (non-zero exit). mpiJava 1.2 dialect.
 *
 * <pre>./mpjrun -np 4 samples/src/main/java/mpijava/Pi.java [N]</pre>
 */
public class Pi {
    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        int me = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        // Only rank 0 reads the arguments, as if from a terminal; the others learn N from it.
        int[] n = {me == 0 && rest.length > 0 ? Integer.parseInt(rest[0]) : 1_000_000};
        MPI.COMM_WORLD.Bcast(n, 0, 1, MPI.INT, 0);
        double h = 1.0 / n[0];
        double[] mine = {0};
        for (int i = me; i < n[0]; i += size) {
            double x = h * (i + 0.5);
            mine[0] += 4.0 / (1.0 + x * x);
        }
        mine[0] *= h;
        double[] pi = new double[1];
        MPI.COMM_WORLD.Reduce(mine, 0, pi, 0, 1, MPI.DOUBLE, MPI.SUM, 0);
        if (me == 0) {
            double serial = serialPi(n[0]);
            System.out.printf(Locale.ROOT, "Pi: %d intervals on %d ranks: %.12f (serial %.12f), error %.1e%n",
                n[0], size, pi[0], serial, Math.abs(pi[0] - Math.PI));
            // The ranks add in another order than the serial loop: the sums agree up to rounding.
            if (Math.abs(pi[0] - serial) > 1e-10) {
                throw new IllegalStateException("pi " + pi[0] + ", serial " + serial);
            }
        }
        MPI.Finalize();
    }

    /** The same midpoint sum, by one rank. */
    private static double serialPi(int n) {
        double h = 1.0 / n;
        double sum = 0;
        for (int i = 0; i < n; i++) {
            double x = h * (i + 0.5);
            sum += 4.0 / (1.0 + x * x);
        }
        return sum * h;
    }
}
