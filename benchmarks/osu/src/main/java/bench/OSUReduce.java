package bench;

import java.util.Locale;
import mpi.Intracomm;
import mpi.MPI;

/**
 * Reduce latency: {@code reduce} of FLOAT elements with SUM to rank 0, OMB-J style (Open MPI Java API): for each message size, every rank
 * times each call separately, with a barrier between calls, and rank 0 prints the average, minimum
 * and maximum over ranks of each rank's mean time per call.
 *
 * <pre>
 * ./mpjrun -np N benchmarks/osu/src/main/java/bench/OSUReduce.java [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS] [-s SEGMENTS]
 *     [-a buffer|arrays] [-b]
 * </pre>
 *
 * Defaults as in OMB-J: sizes 4 B to 1 MB; 1000 warm-up and 10000 timed iterations, 100 and 500
 * above 8 KB; direct ByteBuffers ({@code -a arrays}: Java arrays). Sizes start at 4 B (one FLOAT).
 * Self-contained, like every OMB-J program, so that it runs as a single source file.
 *
 * <p>{@code -s SEGMENTS}: after the warm-up, a line {@code # Warm-up done, SEGMENTS segments follow},
 * then SEGMENTS timed loops of ITERATIONS calls each, one line per segment: the size, rank 0's start
 * and end of the segment ({@code System.nanoTime}, Linux's {@code CLOCK_MONOTONIC}, as
 * {@code benchmarks/c/coll.c -s} prints them) and the average over ranks of the ranks' mean time
 * per call ({@code benchmarks/interleave} pairs them with Open MPI's).
 *
 * <p>{@code -b}: back to back, no barrier between the calls (one after each loop of ITERATIONS, outside
 * the time), as a program that reduces in a loop calls them: a rank's time is then its loop's time
 * per call, which shows how far the ranks other than the root may run ahead of it
 * ({@code benchmarks/c/coll.c -b} is the same loop for native MPI).
 */
public class OSUReduce {
    private static final int LARGE_MESSAGE = 8192;
    private static final String USAGE = "Usage: OSUReduce [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS] [-s SEGMENTS] [-a buffer|arrays] [-b]";

    /** One collective call of {@code count} elements on buffers {@code s} (send) and {@code r} (receive). */
    @FunctionalInterface
    private interface Call {
        void run(Object s, Object r, int count);
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int me = world.getRank();
        int n = world.getSize();
        int min = 4;
        int max = 1 << 20;
        int warmup = -1;
        int iterations = -1;
        int segments = 0;
        boolean arrays = false;
        boolean backToBack = false;
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
                case "-s" -> segments = Integer.parseInt(value(args, ++a));
                case "-b" -> backToBack = true;
                case "-a" -> {
                    String v = value(args, ++a);
                    if (!v.equals("buffer") && !v.equals("arrays")) {
                        throw new IllegalArgumentException("-a takes buffer or arrays\n" + USAGE);
                    }
                    arrays = v.equals("arrays");
                }
                default -> throw new IllegalArgumentException("unknown option " + args[a] + "\n" + USAGE);
            }
        }
        if (min < 4 || max < min || warmup < -1 || iterations == 0 || iterations < -1 || segments < 0) {
            throw new IllegalArgumentException("bad sizes or counts\n" + USAGE);
        }
        if (me == 0) {
            System.out.println("# OSU MPI Reduce Latency Test (MPJ Lite, " + (arrays ? "Java arrays" : "direct ByteBuffers")
                + (backToBack ? ", back to back" : "") + ")");
            System.out.println(segments > 0 ? "# Size [B]\tStart [ns]\tEnd [ns]\tLat Avg[us]"
                : "# Size\t\tLat Avg[us]\t\tLat Min[us]\t\tLat Max[us]");
        }
        for (int size = Integer.highestOneBit(min) == min ? min : Integer.highestOneBit(min) * 2; size <= max && size > 0;
             size *= 2) {
            int skip = warmup >= 0 ? warmup : size > LARGE_MESSAGE ? 100 : 1000;
            int iters = iterations > 0 ? iterations : size > LARGE_MESSAGE ? 500 : 10000;
            int count = size / 4;
            Object s = buffer(arrays, size, true);
            Object r = buffer(arrays, size, true);
            Call call = (a, b, c) -> world.reduce(a, b, c, MPI.FLOAT, MPI.SUM, 0);
            if (segments > 0) {
                segments(world, call, s, r, count, size, skip, iters, segments, backToBack);
                continue;
            }
            double[] t = overRanks(world, time(world, call, s, r, count, skip, iters, backToBack));
            if (me == 0) {
                System.out.printf(Locale.ROOT, "%d\t\t%.2f\t\t\t%.2f\t\t\t%.2f%n", size, t[0], t[1], t[2]);
            }
        }
        MPI.Finalize();
    }

    /**
     * Times {@code iters} calls after {@code skip} warm-ups, with a barrier after each call, or
     * ({@code backToBack}) only after the last; returns this rank's mean time per call in microseconds.
     */
    private static double time(Intracomm world, Call call, Object s, Object r, int count, int skip, int iters,
                               boolean backToBack) {
        double total = 0;
        for (int i = 0; i < skip + iters; i++) {
            double start = MPI.wtime();
            call.run(s, r, count);
            double elapsed = MPI.wtime() - start;
            if (i >= skip) {
                total += elapsed;
            }
            if (!backToBack) {
                world.barrier();
            }
        }
        if (backToBack) {
            world.barrier();
        }
        return total * 1e6 / iters;
    }

    /**
     * {@code -s}: {@code skip} warm-up calls, then {@code n} segments of {@code iters} timed calls; rank
     * 0 prints each segment's start and end and the average over ranks of their mean time per call.
     */
    private static void segments(Intracomm world, Call call, Object s, Object r, int count, int size, int skip,
                                 int iters, int n, boolean backToBack) {
        if (skip > 0) {
            time(world, call, s, r, count, 0, skip, backToBack);
        }
        if (world.getRank() == 0) {
            System.out.println("# Warm-up done, " + n + " segments follow");
        }
        world.barrier();
        long[] marks = new long[n + 1];
        double[] us = new double[n];
        for (int k = 0; k < n; k++) {
            marks[k] = System.nanoTime();
            us[k] = time(world, call, s, r, count, 0, iters, backToBack);
        }
        marks[n] = System.nanoTime();
        double[] sum = new double[n];
        world.reduce(us, sum, n, MPI.DOUBLE, MPI.SUM, 0);
        for (int k = 0; world.getRank() == 0 && k < n; k++) {
            System.out.printf(Locale.ROOT, "%d\t%d\t%d\t%.3f%n", size, marks[k], marks[k + 1], sum[k] / world.getSize());
        }
    }

    /** Average, minimum and maximum over ranks of {@code us}, at rank 0. */
    private static double[] overRanks(Intracomm world, double us) {
        double[] mine = {us};
        double[] sum = new double[1];
        double[] lo = new double[1];
        double[] hi = new double[1];
        world.reduce(mine, sum, 1, MPI.DOUBLE, MPI.SUM, 0);
        world.reduce(mine, lo, 1, MPI.DOUBLE, MPI.MIN, 0);
        world.reduce(mine, hi, 1, MPI.DOUBLE, MPI.MAX, 0);
        return new double[] {sum[0] / world.getSize(), lo[0], hi[0]};
    }

    /** A buffer of {@code bytes}: a direct ByteBuffer, or an array of the element type. */
    private static Object buffer(boolean arrays, int bytes, boolean floats) {
        if (!arrays) {
            return MPI.newByteBuffer(bytes);
        }
        return floats ? new float[bytes / 4] : new byte[bytes];
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value\n" + USAGE);
        }
        return args[i];
    }
}
