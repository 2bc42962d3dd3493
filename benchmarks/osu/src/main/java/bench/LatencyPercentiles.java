package bench;

import java.util.Arrays;
import java.util.Locale;
import mpi.MPI;

/**
 * Ping-pong latency as a distribution: where {@code OSULatency} prints the mean one-way time, this
 * times every round trip and prints, per size, the mean, median, 90th, 99th and 99.9th percentiles
 * and maximum of the one-way time (half a round trip), and the share of the total time spent in
 * round trips longer than ten times the median: the part of the mean that a few slow round trips
 * (a page fault, a preempted core, a park and its wake-up) make, not the message path.
 *
 * <pre>
 * ./mpjrun -np 2 benchmarks/osu/src/main/java/bench/LatencyPercentiles.java [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS]
 * </pre>
 *
 * The loop is {@code OSULatency}'s (Open MPI's Java API, blocking {@code send}/{@code recv} of
 * {@code byte[]}, rank 1 sends back what it received), timed by rank 0 round trip by round trip
 * with {@code System.nanoTime}. Defaults as in OMB: sizes 1 B to 4 MB; 1000 warm-up and 10000
 * timed iterations, 100 and 500 above 8 KB. {@code benchmarks/c/pt2pt.c -t percentiles} is the
 * same loop for native MPI, with the same output.
 */
public class LatencyPercentiles {
    private static final int TAG = 1;
    private static final int LARGE_MESSAGE = 8192;
    /** A round trip this many times the median is counted in the slow share. */
    private static final int SLOW_FACTOR = 10;
    private static final String USAGE = "Usage: LatencyPercentiles [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS]";

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        int min = 1;
        int max = 4 << 20;
        int warmup = -1;
        int iterations = -1;
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
        byte[] sbuf = new byte[max];
        byte[] rbuf = new byte[max];
        Arrays.fill(sbuf, (byte) 'a');
        if (me == 0) {
            System.out.println("# MPJ Lite latency percentiles (one-way, half a round trip)");
            System.out.println("# Size [B]\tMean [us]\tMedian [us]\tP90 [us]\tP99 [us]\tP99.9 [us]\tMax [us]"
                + "\tSlow share [%]");
        }
        for (int size = firstPowerOfTwo(min); size <= max && size > 0; size *= 2) {
            int skip = warmup >= 0 ? warmup : size > LARGE_MESSAGE ? 100 : 1000;
            int iters = iterations > 0 ? iterations : size > LARGE_MESSAGE ? 500 : 10000;
            long[] roundTrips = new long[iters];
            for (int i = 0; i < skip + iters; i++) {
                long start = System.nanoTime();
                if (me == 0) {
                    MPI.COMM_WORLD.send(sbuf, size, MPI.BYTE, 1, TAG);
                    MPI.COMM_WORLD.recv(rbuf, size, MPI.BYTE, 1, TAG);
                } else {
                    MPI.COMM_WORLD.recv(rbuf, size, MPI.BYTE, 0, TAG);
                    MPI.COMM_WORLD.send(rbuf, size, MPI.BYTE, 0, TAG);
                }
                if (i >= skip) {
                    roundTrips[i - skip] = System.nanoTime() - start;
                }
            }
            if (me == 0) {
                System.out.println(row(size, roundTrips));
            }
        }
        MPI.Finalize();
    }

    /** One line of output for {@code size} from its round-trip times (sorted here). */
    static String row(int size, long[] roundTrips) {
        long total = 0;
        for (long t : roundTrips) {
            total += t;
        }
        Arrays.sort(roundTrips);
        long median = percentile(roundTrips, 50);
        long slow = 0;
        for (long t : roundTrips) {
            if (t > SLOW_FACTOR * median) {
                slow += t;
            }
        }
        int n = roundTrips.length;
        return String.format(Locale.ROOT, "%d\t\t%.2f\t\t%.2f\t\t%.2f\t\t%.2f\t\t%.2f\t\t%.2f\t\t%.1f", size,
            total / 2e3 / n, median / 2e3, percentile(roundTrips, 90) / 2e3, percentile(roundTrips, 99) / 2e3,
            percentile(roundTrips, 99.9) / 2e3, roundTrips[n - 1] / 2e3, total == 0 ? 0.0 : 100.0 * slow / total);
    }

    /** The nearest-rank {@code p}th percentile of {@code sorted}. */
    static long percentile(long[] sorted, double p) {
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
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
