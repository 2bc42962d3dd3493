package bench;

import java.util.Locale;
import mpi.MPI;

/**
 * The cost of the API's path for one small message, without a second thread: one rank sends 8
 * bytes to itself (eager) and receives them, {@code BATCH} times per batch, and prints the best
 * batch's time per Send + Recv pair in nanoseconds. One thread, no waiting: what it measures is
 * the instructions of the two calls (argument checks, matching, the copy, and with
 * {@code mpjrun --trace} the recording of two slices), and the best of 20 batches after 10 of
 * warm-up hides most of what a loaded machine adds.
 *
 * <pre>
 * ./mpjrun -np 1 [--trace run.json --trace-limit 100000] benchmarks/osu/src/main/java/bench/CallOverhead.java
 * </pre>
 */
public class CallOverhead {
    private static final int BATCH = 200_000;
    private static final int WARMUP_BATCHES = 10;
    private static final int BATCHES = 30;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        if (MPI.COMM_WORLD.Size() != 1) {
            throw new IllegalArgumentException("CallOverhead runs on one rank (-np 1)");
        }
        int[] out = {1, 2};
        int[] in = new int[2];
        long best = Long.MAX_VALUE;
        for (int b = 0; b < BATCHES; b++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < BATCH; i++) {
                MPI.COMM_WORLD.Send(out, 0, 2, MPI.INT, 0, 1);
                MPI.COMM_WORLD.Recv(in, 0, 2, MPI.INT, 0, 1);
            }
            long t = System.nanoTime() - t0;
            if (b >= WARMUP_BATCHES) {
                best = Math.min(best, t);
            }
        }
        System.out.printf(Locale.ROOT, "Send + Recv to self, 8 B: %.1f ns (best batch of %d)%n",
            best / (double) BATCH, BATCH);
        MPI.Finalize();
    }
}
