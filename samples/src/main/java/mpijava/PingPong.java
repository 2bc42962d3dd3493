package mpijava;

import java.util.Arrays;
import java.util.Locale;
import mpi.MPI;

/**
 * One-way latency between two ranks, printed in the format of OMB-J's {@code OSULatency}: for
 * each size (powers of two), rank 0 sends and rank 1 sends back, and the latency is half the mean
 * round trip. mpiJava 1.2 dialect: byte[] buffers, blocking Send and Recv.
 *
 * <pre>
 * ./mpjrun -np 2 samples/src/main/java/mpijava/PingPong.java [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS]
 * </pre>
 *
 * Sizes run from MIN (default 1) to MAX (default 4 MB). Without -x and -i, 1000 warm-up and
 * 10000 timed round trips per size, 100 and 500 above 8 KB, as in OMB; -x and -i apply to every
 * size.
 */
public class PingPong {
    private static final int TAG = 1;
    private static final int LARGE_MESSAGE = 8192;
    private static final String USAGE = "Usage: PingPong [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS] [-h] [-v]";

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
                case "-h", "-v" -> {
                    if (me == 0) {
                        System.out.println(rest[a].equals("-h") ? USAGE : "PingPong (MPJ Lite samples, mpiJava 1.2)");
                    }
                    MPI.Finalize();
                    return;
                }
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
            System.out.println("# OSU Latency Test");
            System.out.println("# Size [B]\t\tLatency [us]\tBandwidth [Gb/s]");
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
                double gbps = size * 8 / (latencyUs * 1e3);
                System.out.printf(Locale.ROOT, "%d\t\t\t%.2f\t\t\t%.2f%n", size, latencyUs, gbps);
            }
        }
        MPI.Finalize();
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
