package bench;

import java.util.Arrays;
import java.util.Locale;
import mpi.MPI;

/**
 * Ping-pong latency next to a single-thread {@code System.arraycopy} of the same size, measured in
 * the same run: how close a message between two ranks comes to the cost of copying its bytes once.
 * For each size (powers of two), rank 0 times the one-way latency (half the round trip of blocking
 * Send/Recv of byte[]) and then, alone, the same number of arraycopies of that size. The last
 * column is the message bandwidth as a percentage of the arraycopy bandwidth.
 *
 * <pre>
 * ./mpjrun -np 2 benchmarks/osu/src/main/java/bench/PingPongVsArraycopy.java [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS]
 * </pre>
 *
 * Defaults as in OMB: sizes 1 B to 4 MB; 1000 warm-up and 10000 timed iterations, 100 and 500
 * above 8 KB, unless -x and -i say otherwise.
 *
 * <p>What the other ping-pongs do not measure: the mpiJava 1.2 dialect's blocking Send/Recv (with
 * an offset into byte[]), and the floor a message cannot beat, one copy of its bytes, timed in the
 * same JVM on the same machine state; {@code benchmarks/compare} runs it with each
 * {@code --matching} structure. {@code OSULatency} is the number comparable with other MPIs, the
 * JMH {@code PingPongBenchmark} the device without the API.
 */
public class PingPongVsArraycopy {
    private static final int TAG = 1;
    private static final int LARGE_MESSAGE = 8192;
    private static final String USAGE = "Usage: PingPongVsArraycopy [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS]";

    /** Keeps the JIT from discarding the copies. */
    private static volatile int sink;

    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        int me = MPI.COMM_WORLD.Rank();
        int min = 1;
        int max = 4 << 20;
        int warmup = -1;
        int iterations = -1;
        for (int a = 0; a < rest.length; a++) {
            switch (rest[a]) {
                case "-m" -> {
                    String v = value(rest, ++a);
                    int colon = v.indexOf(':');
                    if (colon >= 0) {
                        min = Integer.parseInt(v.substring(0, colon));
                    }
                    max = Integer.parseInt(v.substring(colon + 1));
                }
                case "-x" -> warmup = Integer.parseInt(value(rest, ++a));
                case "-i" -> iterations = Integer.parseInt(value(rest, ++a));
                default -> throw new IllegalArgumentException("unknown option " + rest[a] + "\n" + USAGE);
            }
        }
        if (min < 1 || max < min || warmup < -1 || iterations == 0 || iterations < -1) {
            throw new IllegalArgumentException("bad sizes or counts\n" + USAGE);
        }
        if (MPI.COMM_WORLD.Size() != 2) {
            if (me == 0) {
                System.out.println("This test requires exactly two processes (ranks); run with -np 2.");
            }
            MPI.Finalize();
            return;
        }
        byte[] sbuf = new byte[max];
        byte[] rbuf = new byte[max];
        Arrays.fill(sbuf, (byte) 'a');
        if (me == 0) {
            System.out.println("# MPJ Lite ping-pong vs System.arraycopy (mpiJava 1.2, byte[])");
            System.out.println("# Size [B]\t\tLatency [us]\tArraycopy [us]\tBandwidth [% of arraycopy]");
        }
        for (int size = firstPowerOfTwo(min); size <= max && size > 0; size *= 2) {
            int skip = warmup >= 0 ? warmup : size > LARGE_MESSAGE ? 100 : 1000;
            int iters = iterations > 0 ? iterations : size > LARGE_MESSAGE ? 500 : 10000;
            double start = 0;
            for (int i = 0; i < skip + iters; i++) {
                if (i == skip) {
                    start = MPI.Wtime();
                }
                if (me == 0) {
                    MPI.COMM_WORLD.Send(sbuf, 0, size, MPI.BYTE, 1, TAG);
                    MPI.COMM_WORLD.Recv(rbuf, 0, size, MPI.BYTE, 1, TAG);
                } else {
                    MPI.COMM_WORLD.Recv(rbuf, 0, size, MPI.BYTE, 0, TAG);
                    MPI.COMM_WORLD.Send(sbuf, 0, size, MPI.BYTE, 0, TAG);
                }
            }
            if (me == 0) {
                double latencyUs = (MPI.Wtime() - start) * 1e6 / (2.0 * iters);
                double copyUs = arraycopyMicros(sbuf, rbuf, size, skip, iters);
                System.out.printf(Locale.ROOT, "%d\t\t\t%.2f\t\t\t%.3f\t\t\t%.1f%n",
                    size, latencyUs, copyUs, 100 * copyUs / latencyUs);
            }
        }
        MPI.Finalize();
    }

    /** Mean time of one {@code System.arraycopy} of {@code size} bytes, after {@code skip} warm-ups. */
    private static double arraycopyMicros(byte[] src, byte[] dst, int size, int skip, int iters) {
        int check = 0;
        for (int i = 0; i < skip; i++) {
            System.arraycopy(src, 0, dst, 0, size);
            check += dst[i % size];
        }
        long start = System.nanoTime();
        for (int i = 0; i < iters; i++) {
            src[i % size] = (byte) i;
            System.arraycopy(src, 0, dst, 0, size);
            check += dst[(i * 31) % size];
        }
        long elapsed = System.nanoTime() - start;
        sink = check;
        return elapsed / 1e3 / iters;
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value\n" + USAGE);
        }
        return args[i];
    }

    /** The smallest power of two that is at least {@code n}. */
    private static int firstPowerOfTwo(int n) {
        int p = Integer.highestOneBit(n);
        return p == n ? p : p * 2;
    }
}
