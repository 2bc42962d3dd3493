package bench;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import mpi.MPI;

/**
 * OMB-J's {@code OSULatency}: one-way latency between two ranks, half the mean round trip of a
 * blocking ping-pong. Rank 0 sends and receives; rank 1 receives and sends back what it received
 * (OMB-J's Algorithm 1). Same options and output as OMB-J, so the numbers sit next to Open MPI
 * Java's or MVAPICH2-J's figure for figure; Open MPI Java dialect.
 *
 * <pre>
 * ./mpjrun -np 2 benchmarks/osu/src/main/java/bench/OSULatency.java [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS]
 *     [-s SEGMENTS] [-a buffer|arrays] [-c] [-h] [-v]
 * </pre>
 *
 * <ul>
 *   <li>{@code -m}: sizes are the powers of two from MIN (default 1) to MAX (default 4 MB);</li>
 *   <li>{@code -x}, {@code -i}: warm-up and timed round trips per size; by default 1000 and 10000,
 *       100 and 500 above 8 KB, as in OMB; given, they apply to every size;</li>
 *   <li>{@code -s}: after the warm-up, SEGMENTS timed loops of ITERATIONS round trips each, one
 *       line per segment: the size, the segment's start and end ({@code System.nanoTime}, Linux's
 *       {@code CLOCK_MONOTONIC}, as {@code benchmarks/c/pt2pt.c -s} prints them) and its one-way
 *       latency ({@code benchmarks/interleave} pairs them with Open MPI's);</li>
 *   <li>{@code -a}: direct {@code ByteBuffer}s from {@code MPI.newByteBuffer} (default) or byte[];</li>
 *   <li>{@code -c}: rank 0 fills the message with a pattern that changes every iteration and checks
 *       the echo; the fill and the check are inside the timed loop, as in OMB-J, so the numbers show
 *       what validating data costs. A {@code Validation} column says Pass or Fail per size.</li>
 * </ul>
 *
 * <p>Of the ping-pongs, this is the one to compare with other MPIs: the whole MPI call of the Open
 * MPI Java dialect, in OMB-J's format, next to {@code benchmarks/c/pt2pt.c -t latency} (the same
 * loop in C) in {@code benchmarks/compare}. {@code PingPongVsArraycopy} measures the mpiJava 1.2
 * dialect against the cost of one copy, and the JMH {@code PingPongBenchmark} the device alone.
 */
public class OSULatency {
    private static final int TAG = 1;
    private static final String NAME = "OSULatency";
    private static final String USAGE = "Usage: " + NAME
        + " [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS] [-s SEGMENTS] [-a buffer|arrays] [-c] [-h] [-v]";

    public static void main(String[] args) {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        Options o = Options.parse(args, me == 0);
        if (o == null) {
            MPI.Finalize();
            return;
        }
        if (MPI.COMM_WORLD.getSize() != 2) {
            if (me == 0) {
                System.out.println("This test requires exactly two processes (ranks); run with -np 2.");
            }
            MPI.Finalize();
            return;
        }
        Payload p = new Payload(o.arrays, o.max, o.validate);
        if (me == 0) {
            System.out.println("# OSU Latency Test");
            System.out.println(o.segments > 0 ? "# Size [B]\tStart [ns]\tEnd [ns]\tLatency [us]"
                : "# Size [B]\t\tLatency [us]\tBandwidth [Gb/s]" + (o.validate ? "\tValidation" : ""));
        }
        for (int size = o.firstSize(); size <= o.max && size > 0; size *= 2) {
            int skip = o.warmup(size);
            int iters = o.iterations(size);
            boolean valid = true;
            int segments = Math.max(1, o.segments); // one timed loop without -s
            long[] marks = new long[segments + 1]; // each segment's start, then the end
            if (o.validate && me == 0) {
                p.fill(0, size); // later iterations' messages are written by checkThenFill
            }
            for (int i = 0; i < skip + iters * segments; i++) {
                if (i == skip && o.segments > 0 && me == 0) {
                    System.out.println("# Warm-up done, " + o.segments + " segments follow");
                }
                if (i >= skip && (i - skip) % iters == 0) {
                    marks[(i - skip) / iters] = System.nanoTime();
                }
                if (me == 0) {
                    MPI.COMM_WORLD.send(p.send, size, MPI.BYTE, 1, TAG);
                    MPI.COMM_WORLD.recv(p.recv, size, MPI.BYTE, 1, TAG);
                    if (o.validate) {
                        valid &= p.checkThenFill(i, size);
                    }
                } else {
                    MPI.COMM_WORLD.recv(p.recv, size, MPI.BYTE, 0, TAG);
                    MPI.COMM_WORLD.send(p.recv, size, MPI.BYTE, 0, TAG);
                }
            }
            marks[segments] = System.nanoTime();
            for (int seg = 0; me == 0 && seg < segments; seg++) {
                double latencyUs = (marks[seg + 1] - marks[seg]) / 1e3 / (2.0 * iters);
                if (o.segments > 0) {
                    System.out.printf(Locale.ROOT, "%d\t%d\t%d\t%.3f%n", size, marks[seg], marks[seg + 1], latencyUs);
                } else {
                    System.out.printf(Locale.ROOT, "%d\t\t\t%.2f\t\t\t%.2f%s%n", size, latencyUs,
                        size * 8 / (latencyUs * 1e3), o.validate ? (valid ? "\t\t\tPass" : "\t\t\tFail") : "");
                }
            }
            if (me == 0 && o.segments > 0 && o.validate) {
                System.out.println("# Validation " + (valid ? "Pass" : "Fail"));
            }
        }
        MPI.Finalize();
    }

    /**
     * OMB-J's command line. Each OSU program of this package carries its own copy, so that each
     * runs as a single source file ({@code mpjrun File.java} compiles that one file only).
     */
    static final class Options {
        private static final int LARGE_MESSAGE = 8192;

        int min = 1;
        int max = 4 << 20;
        int warmup = -1;
        int iterations = -1;
        /** Timed segments per size, each printed as a line of its own; 0: one timed loop and OMB's line. */
        int segments;
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
                    case "-s" -> o.segments = Integer.parseInt(value(args, ++a));
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
            if (o.min < 1 || o.max < o.min || o.warmup < -1 || o.iterations == 0 || o.iterations < -1
                || o.segments < 0) {
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

    /**
     * One rank's message buffers, direct ByteBuffers or byte[], and the validation pattern: the
     * message of iteration i is the pattern from byte {@code i % 256} on, so every byte depends on
     * its position and each iteration differs from the one before. Filling and checking use the
     * JDK's bulk copy and vectorized mismatch: validation costs what touching the bytes costs.
     *
     * <p>The echo of iteration i is checked and the message of iteration i + 1 written in one pass,
     * a chunk at a time ({@link #checkThenFill}): the two pattern windows are one byte apart, so each
     * chunk of the pattern is read from memory once, for both, while it is in the L1 cache. Checking
     * and then filling whole messages read the pattern twice, and from 1 MB up (where nothing stays
     * in the cache) that made {@code -c} cost a quarter more than it needs to.
     */
    static final class Payload {
        private static final int SHIFTS = 256;
        /** Bytes checked and filled at a time: well inside the L1 data cache. */
        private static final int CHUNK = 16 * 1024;

        final Object send;
        final Object recv;
        private final byte[] pattern;
        private final ByteBuffer patternView;
        private final ByteBuffer recvView;

        Payload(boolean arrays, int max, boolean validate) {
            if (arrays) {
                send = new byte[max];
                recv = new byte[max];
                Arrays.fill((byte[]) send, (byte) 'a');
            } else {
                ByteBuffer s = MPI.newByteBuffer(max);
                s.put(0, filled(max, (byte) 'a'));
                send = s;
                recv = MPI.newByteBuffer(max);
            }
            pattern = validate ? new byte[max + SHIFTS] : null;
            if (validate) {
                new Random(42).nextBytes(pattern);
            }
            patternView = validate ? ByteBuffer.wrap(pattern) : null;
            recvView = validate && !arrays ? ((ByteBuffer) recv).duplicate() : null;
        }

        private static byte[] filled(int n, byte b) {
            byte[] a = new byte[n];
            Arrays.fill(a, b);
            return a;
        }

        /** Writes iteration {@code i}'s message into the send buffer. */
        void fill(int i, int size) {
            write(i % SHIFTS, 0, size);
        }

        /**
         * True when the receive buffer holds iteration {@code i}'s message; writes iteration
         * {@code i + 1}'s into the send buffer.
         */
        boolean checkThenFill(int i, int size) {
            int from = i % SHIFTS;
            int next = (i + 1) % SHIFTS;
            boolean same = true;
            for (int at = 0; at < size; at += CHUNK) {
                int len = Math.min(CHUNK, size - at);
                same &= holds(from, at, len);
                write(next, at, len);
            }
            return same;
        }

        /** Writes bytes {@code at} to {@code at + len} of the message that starts at pattern byte {@code shift}. */
        private void write(int shift, int at, int len) {
            if (send instanceof byte[] s) {
                System.arraycopy(pattern, shift + at, s, at, len);
            } else {
                ((ByteBuffer) send).put(at, pattern, shift + at, len);
            }
        }

        /** True when received bytes {@code at} to {@code at + len} are those of the message at {@code shift}. */
        private boolean holds(int shift, int at, int len) {
            if (recv instanceof byte[] r) {
                return Arrays.mismatch(r, at, at + len, pattern, shift + at, shift + at + len) < 0;
            }
            recvView.limit(at + len).position(at);
            patternView.limit(shift + at + len).position(shift + at);
            return recvView.mismatch(patternView) < 0;
        }
    }
}
