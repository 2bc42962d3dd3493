package mpijava;

import java.util.Locale;
import mpi.MPI;

/**
 * Passes an int token around the ring of all ranks, LAPS times (default 10); each rank adds its
 * rank + 1 on every pass. Rank 0 prints the token and checks it: a wrong token ends the job with
 * an exception (non-zero exit). mpiJava 1.2 dialect.
 *
 * <pre>./mpjrun -np 4 samples/src/main/java/mpijava/Ring.java [LAPS]</pre>
 */
public class Ring {
    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        int laps = rest.length > 0 ? Integer.parseInt(rest[0]) : 10;
        int me = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int right = (me + 1) % size;
        int left = (me + size - 1) % size;
        int[] token = {0};
        double start = MPI.Wtime();
        for (int lap = 0; lap < laps; lap++) {
            if (me == 0) {
                token[0] += me + 1;
                MPI.COMM_WORLD.Send(token, 0, 1, MPI.INT, right, lap);
                MPI.COMM_WORLD.Recv(token, 0, 1, MPI.INT, left, lap);
            } else {
                MPI.COMM_WORLD.Recv(token, 0, 1, MPI.INT, left, lap);
                token[0] += me + 1;
                MPI.COMM_WORLD.Send(token, 0, 1, MPI.INT, right, lap);
            }
        }
        if (me == 0) {
            double elapsed = MPI.Wtime() - start;
            int expected = laps * size * (size + 1) / 2;
            System.out.printf(Locale.ROOT, "Ring of %d ranks, %d laps: token = %d (expected %d), %.1f us per hop%n",
                size, laps, token[0], expected, elapsed * 1e6 / Math.max(1, laps * size));
            if (token[0] != expected) {
                throw new IllegalStateException("ring token is " + token[0] + ", expected " + expected);
            }
        }
        MPI.Finalize();
    }
}
