package ompi;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;
import mpi.MPI;
import mpi.MPIException;

/**
 * One-way latency between two ranks, printed in the format of OMB-J's {@code OSULatency}: for
 * each size (powers of two), rank 0 sends and rank 1 sends back, and the latency is half the mean
 * round trip. Open MPI Java dialect: blocking send and recv of direct ByteBuffers
 * ({@code -a buffer}, the default) or byte[] ({@code -a arrays}).
 *
 * <pre>
 * ./mpjrun -np 2 samples/src/main/java/ompi/PingPong.java [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS] [-a buffer|arrays]
 * </pre>
 *
 * Sizes run from MIN (default 1) to MAX (default 4 MB). Without -x and -i, 1000 warm-up and
 * 10000 timed round trips per size, 100 and 500 above 8 KB, as in OMB; -x and -i apply to every
 * size.
 */
public class PingPong {
    private static final int TAG = 1;
    private static final int LARGE_MESSAGE = 8192;
    private static final String USAGE =
        "Usage: PingPong [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS] [-a buffer|arrays] [-h] [-v]";

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        int min = 1;
        int max = 4 << 20;
        int warmup = -1;
        int iterations = -1;
        boolean arrays = false;
        for (int a = 0; a < args.length; a++) {
            switch (args[a]) {
                case "-m" -> {
                    String v = value(args, ++a);
                    int colon = v.indexOf(':');
                    if (colon >= 0) {
                        min = Integer.parseInt(v.substring(0, colon));
                    }
                    max = Integer.parseInt(v.substring(colon + 1));
                }
                case "-x" -> warmup = Integer.parseInt(value(args, ++a));
                case "-i" -> iterations = Integer.parseInt(value(args, ++a));
                case "-a" -> {
                    String v = value(args, ++a);
                    if (!v.equals("buffer") && !v.equals("arrays")) {
                        throw new IllegalArgumentException("-a takes buffer or arrays, not " + v + "\n" + USAGE);
                    }
                    arrays = v.equals("arrays");
                }
                case "-h", "-v" -> {
                    if (me == 0) {
                        System.out.println(args[a].equals("-h") ? USAGE : "PingPong (MPJ Lite samples, Open MPI Java)");
                    }
                    MPI.Finalize();
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[a] + "\n" + USAGE);
            }
        }
        if (min < 1 || max < min || warmup < -1 || iterations == 0 || iterations < -1) {
            throw new IllegalArgumentException("bad sizes or counts\n" + USAGE);
        }
        if (MPI.COMM_WORLD.getSize() != 2) {
            if (me == 0) {
                System.out.println("This test requires exactly two processes (ranks); run with -np 2.");
            }
            MPI.Finalize();
            return;
        }
        Object sbuf;
        Object rbuf;
        if (arrays) {
            byte[] s = new byte[max];
            Arrays.fill(s, (byte) 'a');
            sbuf = s;
            rbuf = new byte[max];
        } else {
            ByteBuffer s = MPI.newByteBuffer(max);
            for (int i = 0; i < max; i++) {
                s.put(i, (byte) 'a');
            }
            sbuf = s;
            rbuf = MPI.newByteBuffer(max);
        }
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
                    start = MPI.wtime();
                }
                if (me == 0) {
                    MPI.COMM_WORLD.send(sbuf, size, MPI.BYTE, 1, TAG);
                    MPI.COMM_WORLD.recv(rbuf, size, MPI.BYTE, 1, TAG);
                } else {
                    MPI.COMM_WORLD.recv(rbuf, size, MPI.BYTE, 0, TAG);
                    MPI.COMM_WORLD.send(sbuf, size, MPI.BYTE, 0, TAG);
                }
            }
            if (me == 0) {
                double latencyUs = (MPI.wtime() - start) * 1e6 / (2.0 * iters);
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
