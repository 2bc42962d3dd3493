package bench;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import mpi.MPI;
import mpi.MPIException;

/**
 * The cost of the API's path for one small operation, without a second thread: one rank sends 8
 * bytes to itself (eager) and receives them, or calls a collective of 8 bytes on its own, {@code
 * BATCH} times per batch, and prints the best batch's time per operation in nanoseconds and the
 * bytes the calling thread allocated per operation. One thread, no waiting: what it measures is the
 * instructions of the calls (argument checks, matching or the collective's protocol, the copy, and
 * with {@code mpjrun --trace} the recording of the slices), and the best of 20 batches after 10 of
 * warm-up hides most of what a loaded machine adds.
 *
 * <pre>
 * ./mpjrun -np 1 [--trace run.json --trace-limit 100000] benchmarks/osu/src/main/java/bench/CallOverhead.java [-t send|sendrecv|bcast|allreduce|reduce|barrier]...
 * </pre>
 *
 * {@code -t} may be given several times; the default is {@code send}. Operations: {@code send} is
 * {@code Send} + {@code Recv} of two ints to itself, {@code sendrecv} a {@code Sendrecv} of two ints
 * with itself; {@code bcast}, {@code allreduce} (SUM) and
 * {@code reduce} (SUM, root 0) take two ints; {@code barrier} is {@code Barrier}.
 */
public class CallOverhead {
    private static final int BATCH = 200_000;
    private static final int WARMUP_BATCHES = 10;
    private static final int BATCHES = 30;
    private static final String USAGE = "usage: CallOverhead [-t send|sendrecv|bcast|allreduce|reduce|barrier]...";

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        if (MPI.COMM_WORLD.Size() != 1) {
            throw new IllegalArgumentException("CallOverhead runs on one rank (-np 1)");
        }
        java.util.List<String> ops = new java.util.ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].equals("-t") || i + 1 >= args.length) {
                throw new IllegalArgumentException("unknown option " + args[i] + "\n" + USAGE);
            }
            ops.add(args[++i]);
        }
        if (ops.isEmpty()) {
            ops.add("send");
        }
        for (String op : ops) {
            MpiCall body = operation(op);
            long best = Long.MAX_VALUE;
            long bestBytes = Long.MAX_VALUE;
            for (int b = 0; b < BATCHES; b++) {
                long a0 = allocated();
                long t0 = System.nanoTime();
                for (int i = 0; i < BATCH; i++) {
                    body.run();
                }
                long t = System.nanoTime() - t0;
                long bytes = allocated() - a0;
                if (b >= WARMUP_BATCHES) {
                    best = Math.min(best, t);
                    bestBytes = Math.min(bestBytes, bytes);
                }
            }
            System.out.printf(Locale.ROOT, "%s, 8 B: %.1f ns, %.1f B allocated (best batch of %d)%n", describe(op),
                best / (double) BATCH, bestBytes / (double) BATCH, BATCH);
        }
        MPI.Finalize();
    }

    private static String describe(String op) {
        switch (op) {
            case "send":
                return "Send + Recv to self";
            case "sendrecv":
                return "Sendrecv with self";
            case "barrier":
                return "Barrier on one rank (no data)";
            default:
                return Character.toUpperCase(op.charAt(0)) + op.substring(1) + " on one rank";
        }
    }

    /** One operation of kind {@code op} on {@code COMM_WORLD} of one rank, 8 bytes of ints. */
    private static MpiCall operation(String op) {
        int[] out = {1, 2};
        int[] in = new int[2];
        switch (op) {
            case "send":
                return () -> {
                    MPI.COMM_WORLD.Send(out, 0, 2, MPI.INT, 0, 1);
                    MPI.COMM_WORLD.Recv(in, 0, 2, MPI.INT, 0, 1);
                };
            case "sendrecv":
                return () -> MPI.COMM_WORLD.Sendrecv(out, 0, 2, MPI.INT, 0, 1, in, 0, 2, MPI.INT, 0, 1);
            case "bcast":
                return () -> MPI.COMM_WORLD.Bcast(out, 0, 2, MPI.INT, 0);
            case "allreduce":
                return () -> MPI.COMM_WORLD.Allreduce(out, 0, in, 0, 2, MPI.INT, MPI.SUM);
            case "reduce":
                return () -> MPI.COMM_WORLD.Reduce(out, 0, in, 0, 2, MPI.INT, MPI.SUM, 0);
            case "barrier":
                return MPI.COMM_WORLD::Barrier;
            default:
                throw new IllegalArgumentException("unknown operation " + op + "\n" + USAGE);
        }
    }

    /** One operation; its loop is the only code between two calls (no wrapper that allocates). */
    private interface MpiCall {
        void run() throws MPIException;
    }

    /** Bytes the calling thread has allocated so far (HotSpot's per-thread counter). */
    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
            .getThreadAllocatedBytes(Thread.currentThread().getId());
    }
}
