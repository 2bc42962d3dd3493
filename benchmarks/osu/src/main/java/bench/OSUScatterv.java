package bench;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import mpi.Intracomm;
import mpi.MPI;

/**
 * OMB-J's {@code OSUScatterv}: {@code scatterv} latency. Rank 0 sends {@code size} bytes to every
 * rank, the block for rank r from displacement {@code r * size} (OMB's {@code osu_scatterv}).
 * For each size every rank times each call separately, with a barrier between calls, and rank 0
 * prints the average, minimum and maximum over ranks of each rank's mean time per call. Open MPI
 * Java dialect.
 *
 * <pre>
 * ./mpjrun -np N benchmarks/osu/src/main/java/bench/OSUScatterv.java [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS]
 *     [-a buffer|arrays] [-c] [-h] [-v]
 * </pre>
 *
 * <ul>
 *   <li>{@code -m}: sizes per rank, the powers of two from MIN (default 1) to MAX (default 1 MB);</li>
 *   <li>{@code -x}, {@code -i}: warm-up and timed calls per size; by default 1000 and 10000, 100 and
 *       500 above 8 KB, as in OMB; given, they apply to every size;</li>
 *   <li>{@code -a}: direct {@code ByteBuffer}s from {@code MPI.newByteBuffer} (default) or byte[];</li>
 *   <li>{@code -c}: before each call rank 0 fills each rank's block with a pattern that depends on
 *       the receiving rank, the iteration and the byte's position; after it every rank checks its block.
 *       As in OMB, the fill and the check are outside the timed call. A {@code Validation} column
 *       says Pass or Fail per size.</li>
 * </ul>
 *
 * Self-contained, like every OMB-J program, so that it runs as a single source file.
 */
public class OSUScatterv {
    private static final String NAME = "OSUScatterv";
    private static final String TITLE = "# OSU MPI Scatterv Latency Test";
    private static final int LARGE_MESSAGE = 8192;
    private static final String USAGE = "Usage: " + NAME
        + " [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS] [-a buffer|arrays] [-c] [-h] [-v]";

    public static void main(String[] args) {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int me = world.getRank();
        int n = world.getSize();
        Options o = Options.parse(args, me == 0);
        if (o == null) {
            MPI.Finalize();
            return;
        }
        Pattern pattern = o.validate ? new Pattern(o.max) : null;
        Object send = buffer(o.arrays, me == 0 ? Math.multiplyExact(n, o.max) : 0);
        Object recv = buffer(o.arrays, o.max);
        if (me == 0) {
            System.out.println(TITLE);
            System.out.println("# Size\t\tLat Avg[us]\t\tLat Min[us]\t\tLat Max[us]" + (o.validate ? "\tValidation" : ""));
        }
        for (int size = o.firstSize(); size <= o.max && size > 0; size *= 2) {
            int skip = o.warmup(size);
            int iters = o.iterations(size);
            int[] counts = new int[n];
            int[] displs = new int[n];
            for (int r = 0; r < n; r++) {
                counts[r] = size;
                displs[r] = r * size;
            }
            boolean valid = true;
            double total = 0;
            for (int i = 0; i < skip + iters; i++) {
                if (o.validate && me == 0) {
                    for (int r = 0; r < n; r++) {
                        pattern.fill(send, displs[r], Pattern.shift(i, 0, r), size);
                    }
                }
                double start = MPI.wtime();
                world.scatterv(send, counts, displs, MPI.BYTE, recv, size, MPI.BYTE, 0);
                double elapsed = MPI.wtime() - start;
                if (i >= skip) {
                    total += elapsed;
                }
                if (o.validate) {
                    valid &= pattern.holds(recv, 0, Pattern.shift(i, 0, me), size);
                }
                world.barrier();
            }
            report(world, size, total * 1e6 / iters, o.validate, valid);
        }
        MPI.Finalize();
    }

    /**
     * Prints, at rank 0, the average, minimum and maximum over ranks of {@code us}, and with
     * validation whether every rank's check passed.
     */
    private static void report(Intracomm world, int size, double us, boolean validate, boolean valid) {
        double[] sum = new double[1];
        double[] lo = new double[1];
        double[] hi = new double[1];
        int[] failed = new int[1];
        world.reduce(new double[] {us}, sum, 1, MPI.DOUBLE, MPI.SUM, 0);
        world.reduce(new double[] {us}, lo, 1, MPI.DOUBLE, MPI.MIN, 0);
        world.reduce(new double[] {us}, hi, 1, MPI.DOUBLE, MPI.MAX, 0);
        world.reduce(new int[] {valid ? 0 : 1}, failed, 1, MPI.INT, MPI.MAX, 0);
        if (world.getRank() == 0) {
            System.out.printf(Locale.ROOT, "%d\t\t%.2f\t\t\t%.2f\t\t\t%.2f%s%n", size, sum[0] / world.getSize(), lo[0],
                hi[0], validate ? (failed[0] == 0 ? "\t\tPass" : "\t\tFail") : "");
        }
    }

    /** A message buffer of {@code bytes}: a direct ByteBuffer or a byte[]. */
    private static Object buffer(boolean arrays, int bytes) {
        return arrays ? new byte[bytes] : MPI.newByteBuffer(bytes);
    }

    /**
     * The validation data: random bytes (the same on every rank), of which each block is a window
     * starting at a shift that depends on the iteration, the sending rank and the receiving rank. A
     * block that arrives at the wrong place, from the wrong rank or from another iteration differs in
     * almost every byte. Filling and checking are bulk copies and vectorized mismatches.
     */
    static final class Pattern {
        private static final int SHIFTS = 256;

        private final byte[] bytes;
        private final ByteBuffer view;

        Pattern(int max) {
            bytes = new byte[max + SHIFTS];
            new Random(42).nextBytes(bytes);
            view = ByteBuffer.wrap(bytes);
        }

        /** Where in the pattern the block of iteration {@code i} from rank {@code from} to rank {@code to} starts. */
        static int shift(int i, int from, int to) {
            return (i + 37 * from + 11 * to) & (SHIFTS - 1);
        }

        /** Writes {@code len} pattern bytes from {@code shift} at byte {@code at} of {@code buf}. */
        void fill(Object buf, int at, int shift, int len) {
            if (buf instanceof byte[] a) {
                System.arraycopy(bytes, shift, a, at, len);
            } else {
                ((ByteBuffer) buf).put(at, bytes, shift, len);
            }
        }

        /** True when {@code len} bytes at {@code at} of {@code buf} are the pattern from {@code shift}. */
        boolean holds(Object buf, int at, int shift, int len) {
            if (buf instanceof byte[] a) {
                return Arrays.mismatch(a, at, at + len, bytes, shift, shift + len) < 0;
            }
            ByteBuffer b = ((ByteBuffer) buf).duplicate().limit(at + len).position(at);
            return b.mismatch(view.duplicate().limit(shift + len).position(shift)) < 0;
        }
    }

    /** OMB-J's command line (each OSU program carries its own copy, to run as a single source file). */
    static final class Options {
        int min = 1;
        int max = 1 << 20;
        int warmup = -1;
        int iterations = -1;
        boolean arrays;
        boolean validate;

        /** The options, or null for -h and -v, after printing the usage or version if {@code print}. */
        static Options parse(String[] args, boolean print) {
            Options o = new Options();
            for (int a = 0; a < args.length; a++) {
                switch (args[a]) {
                    case "-m" -> {
                        String v = value(args, ++a);
                        int colon = v.indexOf(':');
                        if (colon >= 0) {
                            o.min = Integer.parseInt(v.substring(0, colon));
                        }
                        o.max = Integer.parseInt(v.substring(colon + 1));
                    }
                    case "-x" -> o.warmup = Integer.parseInt(value(args, ++a));
                    case "-i" -> o.iterations = Integer.parseInt(value(args, ++a));
                    case "-a" -> o.arrays = switch (value(args, ++a)) {
                        case "buffer" -> false;
                        case "arrays" -> true;
                        default -> throw new IllegalArgumentException("-a takes buffer or arrays\n" + USAGE);
                    };
                    case "-c" -> o.validate = true;
                    case "-h", "-v" -> {
                        if (print) {
                            System.out.println(args[a].equals("-h") ? USAGE : "# " + NAME + " (MPJ Lite, OMB-J options and output)");
                        }
                        return null;
                    }
                    default -> throw new IllegalArgumentException("unknown option " + args[a] + "\n" + USAGE);
                }
            }
            if (o.min < 1 || o.max < o.min || o.warmup < -1 || o.iterations == 0 || o.iterations < -1) {
                throw new IllegalArgumentException("bad sizes or counts\n" + USAGE);
            }
            return o;
        }

        private static String value(String[] args, int i) {
            if (i >= args.length) {
                throw new IllegalArgumentException(args[i - 1] + " needs a value\n" + USAGE);
            }
            return args[i];
        }

        /** The smallest power of two that is at least MIN. */
        int firstSize() {
            int p = Integer.highestOneBit(min);
            return p == min ? p : p * 2;
        }

        int warmup(int size) {
            return warmup >= 0 ? warmup : size > LARGE_MESSAGE ? 100 : 1000;
        }

        int iterations(int size) {
            return iterations > 0 ? iterations : size > LARGE_MESSAGE ? 500 : 10000;
        }
    }
}
