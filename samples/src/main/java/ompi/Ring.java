package ompi;

import java.nio.IntBuffer;
import java.util.Locale;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Passes an int token around the ring of all ranks, LAPS times (default 10); each rank adds its
 * rank + 1 on every pass. Rank 0 prints the token and checks it: a wrong token ends the job with
 * an exception (non-zero exit). Open MPI Java dialect: direct IntBuffers, iSend and waitFor.
 *
 * <pre>./mpjrun -np 4 samples/src/main/java/ompi/Ring.java [LAPS]</pre>
 */
public class Ring {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int laps = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int right = (me + 1) % size;
        int left = (me + size - 1) % size;
        IntBuffer out = MPI.newIntBuffer(1);
        IntBuffer in = MPI.newIntBuffer(1);
        double start = MPI.wtime();
        for (int lap = 0; lap < laps; lap++) {
            if (me != 0) {
                MPI.COMM_WORLD.recv(in, 1, MPI.INT, left, lap);
            }
            out.put(0, in.get(0) + me + 1);
            Request sent = MPI.COMM_WORLD.iSend(out, 1, MPI.INT, right, lap);
            if (me == 0) {
                MPI.COMM_WORLD.recv(in, 1, MPI.INT, left, lap);
            }
            sent.waitFor();
        }
        if (me == 0) {
            double elapsed = MPI.wtime() - start;
            int token = in.get(0);
            int expected = laps * size * (size + 1) / 2;
            System.out.printf(Locale.ROOT, "Ring of %d ranks, %d laps: token = %d (expected %d), %.1f us per hop%n",
                size, laps, token, expected, elapsed * 1e6 / Math.max(1, laps * size));
            if (token != expected) {
                throw new IllegalStateException("ring token is " + token + ", expected " + expected);
            }
        }
        MPI.Finalize();
    }
}
