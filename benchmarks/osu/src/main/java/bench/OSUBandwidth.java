package bench;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import mpi.MPI;
import mpi.Request;

/**
 * OMB-J's {@code OSUBandwidth}: how many bytes per second one rank can push to another. Rank 0
 * starts a window of non-blocking sends of one size, waits for all of them, and waits for a 4-byte
 * acknowledgement that rank 1 sends once its window of non-blocking receives is complete. Same
 * options and output as OMB-J (Open MPI Java dialect); the acknowledgement is inside the timed
 * loop, as in OMB.
 *
 * <pre>
 * ./mpjrun -np 2 benchmarks/osu/src/main/java/bench/OSUBandwidth.java [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS]
 *     [-s SEGMENTS] [-W WINDOW] [-a buffer|arrays] [-c] [-h] [-v]
 * </pre>
 *
 * <ul>
 *   <li>{@code -m}: sizes are the powers of two from MIN (default 1) to MAX (default 4 MB);</li>
 *   <li>{@code -x}, {@code -i}: warm-up and timed windows per size; by default 1000 and 10000,
 *       100 and 500 above 8 KB (OMB-J's defaults); given, they apply to every size;</li>
 *   <li>{@code -s}: after the warm-up, SEGMENTS timed loops of ITERATIONS windows each, one line
 *       per segment: the size, the segment's start and end ({@code System.nanoTime}, Linux's
 *       {@code CLOCK_MONOTONIC}, as {@code benchmarks/c/pt2pt.c -s} prints them) and its bandwidth
 *       ({@code benchmarks/interleave} pairs them with Open MPI's);</li>
 *   <li>{@code -W}: messages per window (default 64);</li>
 *   <li>{@code -a}: direct {@code ByteBuffer}s from {@code MPI.newByteBuffer} (default) or byte[];</li>
 *   <li>{@code -c}: rank 0 fills the message with a pattern that changes every iteration, rank 1
 *       checks it after the window and reports in the acknowledgement; both inside the timed loop.
 *       A {@code Validation} column says Pass or Fail per size.</li>
 * </ul>
 *
 * Bandwidth is {@code size * window * iterations} bytes over the timed loop, in MB/s of 10^6 bytes
 * (and Gb/s of 10^9 bits).
 */
public class OSUBandwidth {
    private static final int TAG = 1;
    private static final int ACK_TAG = 2;
    private static final String NAME = "OSUBandwidth";
    private static final String USAGE = "Usage: " + NAME
        + " [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS] [-s SEGMENTS] [-W WINDOW] [-a buffer|arrays] [-c] [-h] [-v]";

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
        byte[] ack = new byte[4];
        Request[] window = new Request[o.window];
        if (me == 0) {
            System.out.println("# OSU Bandwidth Test");
            System.out.println(o.segments > 0 ? "# Size [B]\tStart [ns]\tEnd [ns]\tBandwidth [MB/s]"
                : "# Size [B]\t\tBandwidth [MB/s]\tBandwidth [Gb/s]" + (o.validate ? "\tValidation" : ""));
        }
        for (int size = o.firstSize(); size <= o.max && size > 0; size *= 2) {
            int skip = o.warmup(size);
            int iters = o.iterations(size);
            boolean valid = true;
            int segments = Math.max(1, o.segments); // one timed loop without -s
            long[] marks = new long[segments + 1]; // each segment's start, then the end
            for (int i = 0; i < skip + iters * segments; i++) {
                if (i == skip && o.segments > 0 && me == 0) {
                    System.out.println("# Warm-up done, " + o.segments + " segments follow");
                }
                if (i >= skip && (i - skip) % iters == 0) {
                    marks[(i - skip) / iters] = System.nanoTime();
                }
                if (me == 0) {
                    if (o.validate) {
                        p.fill(i, size);
                    }
                    for (int w = 0; w < window.length; w++) {
                        window[w] = MPI.COMM_WORLD.iSend(p.send, size, MPI.BYTE, 1, TAG);
                    }
                    Request.waitAll(window);
                    MPI.COMM_WORLD.recv(ack, ack.length, MPI.BYTE, 1, ACK_TAG);
                    valid &= ack[0] == 0;
                } else {
                    for (int w = 0; w < window.length; w++) {
                        window[w] = MPI.COMM_WORLD.iRecv(p.recv, size, MPI.BYTE, 0, TAG);
                    }
                    Request.waitAll(window);
                    ack[0] = (byte) (o.validate && !p.check(i, size) ? 1 : 0);
                    MPI.COMM_WORLD.send(ack, ack.length, MPI.BYTE, 0, ACK_TAG);
                }
            }
            marks[segments] = System.nanoTime();
            for (int seg = 0; me == 0 && seg < segments; seg++) {
                double mbps = (double) size * window.length * iters * 1e3 / (marks[seg + 1] - marks[seg]);
                if (o.segments > 0) {
                    System.out.printf(Locale.ROOT, "%d\t%d\t%d\t%.2f%n", size, marks[seg], marks[seg + 1], mbps);
                } else {
                    System.out.printf(Locale.ROOT, "%d\t\t\t%.2f\t\t\t%.2f%s%n", size, mbps, mbps * 8 / 1e3,
                        o.validate ? (valid ? "\t\t\tPass" : "\t\t\tFail") : "");
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
        int window = 64;
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
                    case "-W" -> o.window = Integer.parseInt(value(args, ++a));
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
                || o.window < 1 || o.segments < 0) {
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
     */
    static final class Payload {
        private static final int SHIFTS = 256;

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
            int from = i % SHIFTS;
            if (send instanceof byte[] s) {
                System.arraycopy(pattern, from, s, 0, size);
            } else {
                ((ByteBuffer) send).put(0, pattern, from, size);
            }
        }

        /** True when the receive buffer holds iteration {@code i}'s message. */
        boolean check(int i, int size) {
            int from = i % SHIFTS;
            if (recv instanceof byte[] r) {
                return Arrays.mismatch(r, 0, size, pattern, from, from + size) < 0;
            }
            recvView.position(0).limit(size);
            patternView.limit(from + size).position(from);
            return recvView.mismatch(patternView) < 0;
        }
    }
}
