package bench;

import java.nio.ByteBuffer;
import java.util.Locale;
import mpi.Intracomm;
import mpi.MPI;

/**
 * OMB-J's {@code OSUReduceScatter}: {@code reduceScatter} latency. FLOAT elements summed over all
 * ranks, the {@code size / 4} elements of the result split among the ranks as OMB's
 * {@code osu_reduce_scatter} splits them: equal shares, the first {@code count % n} ranks one element
 * more (below one element per rank, one each to the first ranks). For each size every rank times
 * each call separately, with a barrier between calls, and rank 0 prints the average, minimum and
 * maximum over ranks of each rank's mean time per call. Open MPI Java dialect.
 *
 * <pre>
 * ./mpjrun -np N benchmarks/osu/src/main/java/bench/OSUReduceScatter.java [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS]
 *     [-a buffer|arrays] [-c] [-h] [-v]
 * </pre>
 *
 * <ul>
 *   <li>{@code -m}: sizes of the reduced vector, the powers of two from MIN (default 4, one FLOAT)
 *       to MAX (default 1 MB);</li>
 *   <li>{@code -x}, {@code -i}: warm-up and timed calls per size; by default 1000 and 10000, 100 and
 *       500 above 8 KB, as in OMB; given, they apply to every size;</li>
 *   <li>{@code -a}: direct {@code ByteBuffer}s from {@code MPI.newByteBuffer} (default) or float[];</li>
 *   <li>{@code -c}: before each call every rank fills its vector with small whole numbers that
 *       depend on the rank, the iteration and the element's position, so that every sum is exact;
 *       after it every rank checks each element of its share against the sum it must be. As in OMB,
 *       the fill and the check are outside the timed call. A {@code Validation} column says Pass or
 *       Fail per size.</li>
 * </ul>
 *
 * Self-contained, like every OMB-J program, so that it runs as a single source file.
 */
public class OSUReduceScatter {
    private static final String NAME = "OSUReduceScatter";
    private static final String TITLE = "# OSU MPI Reduce_scatter Latency Test";
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
        Object send = buffer(o.arrays, o.max / Float.BYTES);
        Object recv = buffer(o.arrays, o.max / Float.BYTES);
        if (me == 0) {
            System.out.println(TITLE);
            System.out.println("# Size\t\tLat Avg[us]\t\tLat Min[us]\t\tLat Max[us]" + (o.validate ? "\tValidation" : ""));
        }
        for (int size = o.firstSize(); size <= o.max && size > 0; size *= 2) {
            int skip = o.warmup(size);
            int iters = o.iterations(size);
            int count = size / Float.BYTES;
            int[] counts = new int[n];
            int first = 0;
            for (int r = 0; r < n; r++) {
                counts[r] = count / n + (r < count % n ? 1 : 0);
                first += r < me ? counts[r] : 0;
            }
            boolean valid = true;
            double total = 0;
            for (int i = 0; i < skip + iters; i++) {
                if (o.validate) {
                    for (int e = 0; e < count; e++) {
                        put(send, e, (me + 1) * term(i, e));
                    }
                }
                double start = MPI.wtime();
                world.reduceScatter(send, recv, counts, MPI.FLOAT, MPI.SUM);
                double elapsed = MPI.wtime() - start;
                if (i >= skip) {
                    total += elapsed;
                }
                if (o.validate) {
                    // Rank r contributed (r + 1) * term: the sum over ranks is n (n + 1) / 2 * term.
                    for (int e = 0; e < counts[me]; e++) {
                        valid &= get(recv, e) == n * (n + 1) / 2 * term(i, first + e);
                    }
                }
                world.barrier();
            }
            report(world, size, total * 1e6 / iters, o.validate, valid);
        }
        MPI.Finalize();
    }

    /**
     * The validation term of element {@code e} in iteration {@code i}: a whole number from 1 to 251,
     * so that sums over ranks stay exact in FLOAT, and a prime period, so that an element from
     * another place or iteration differs.
     */
    private static int term(int i, int e) {
        return (i + e) % 251 + 1;
    }

    private static void put(Object buf, int e, float v) {
        if (buf instanceof float[] a) {
            a[e] = v;
        } else {
            ((ByteBuffer) buf).putFloat(e * Float.BYTES, v);
        }
    }

    private static float get(Object buf, int e) {
        return buf instanceof float[] a ? a[e] : ((ByteBuffer) buf).getFloat(e * Float.BYTES);
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

    /** A vector of {@code count} FLOATs: a direct ByteBuffer (native order) or a float[]. */
    private static Object buffer(boolean arrays, int count) {
        return arrays ? new float[count] : MPI.newByteBuffer(count * Float.BYTES);
    }

    /** OMB-J's command line (each OSU program carries its own copy, to run as a single source file). */
    static final class Options {
        int min = 4;
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
            if (o.min < 4 || o.max < o.min || o.warmup < -1 || o.iterations == 0 || o.iterations < -1) {
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
