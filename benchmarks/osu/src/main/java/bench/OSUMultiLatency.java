package bench;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import mpi.MPI;

/**
 * OMB's {@code osu_multi_lat} in the Open MPI Java dialect: one-way latency with many pairs of
 * ranks ping-ponging at once. Rank r of the lower half pairs with rank r + n/2 (n even); every pair
 * runs {@link OSULatency}'s loop, and rank 0 prints the mean of the pairs' latencies. Between sizes
 * all ranks meet at a rendezvous of blocking sends and receives through rank 0, so that the pairs
 * start each size together; the program uses point-to-point calls only, so it measures nothing
 * else.
 *
 * <pre>
 * ./mpjrun -np 8 benchmarks/osu/src/main/java/bench/OSUMultiLatency.java [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS]
 *     [-a buffer|arrays] [-c] [-h] [-v]
 * </pre>
 *
 * Options as for {@code OSULatency}; with {@code -c} the {@code Validation} column says Fail if
 * any pair saw a wrong message.
 */
public class OSUMultiLatency {
    private static final int TAG = 1;
    private static final int SYNC_TAG = 2;
    private static final int RESULT_TAG = 3;
    private static final String NAME = "OSUMultiLatency";
    private static final String USAGE = "Usage: " + NAME
        + " [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS] [-a buffer|arrays] [-c] [-h] [-v]";

    public static void main(String[] args) {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        int ranks = MPI.COMM_WORLD.getSize();
        Options o = Options.parse(args, me == 0);
        if (o == null) {
            MPI.Finalize();
            return;
        }
        if (ranks % 2 != 0) {
            if (me == 0) {
                System.out.println("This test requires an even number of processes (ranks).");
            }
            MPI.Finalize();
            return;
        }
        int pairs = ranks / 2;
        boolean pinger = me < pairs;
        int partner = pinger ? me + pairs : me - pairs;
        Payload p = new Payload(o.arrays, o.max, o.validate);
        double[] result = new double[2];
        if (me == 0) {
            System.out.println("# OSU Multi Latency Test");
            System.out.println("# Size [B]\t\tLatency [us]" + (o.validate ? "\tValidation" : ""));
        }
        for (int size = o.firstSize(); size <= o.max && size > 0; size *= 2) {
            int skip = o.warmup(size);
            int iters = o.iterations(size);
            boolean valid = true;
            double start = 0;
            if (o.validate && pinger) {
                p.fill(0, size); // later iterations' messages are written by checkThenFill
            }
            synchronize(me, ranks);
            for (int i = 0; i < skip + iters; i++) {
                if (i == skip) {
                    start = MPI.wtime();
                }
                if (pinger) {
                    MPI.COMM_WORLD.send(p.send, size, MPI.BYTE, partner, TAG);
                    MPI.COMM_WORLD.recv(p.recv, size, MPI.BYTE, partner, TAG);
                    if (o.validate) {
                        valid &= p.checkThenFill(i, size);
                    }
                } else {
                    MPI.COMM_WORLD.recv(p.recv, size, MPI.BYTE, partner, TAG);
                    MPI.COMM_WORLD.send(p.recv, size, MPI.BYTE, partner, TAG);
                }
            }
            double latencyUs = (MPI.wtime() - start) * 1e6 / (2.0 * iters);
            if (me == 0) {
                double sum = latencyUs;
                for (int r = 1; r < pairs; r++) {
                    MPI.COMM_WORLD.recv(result, 2, MPI.DOUBLE, r, RESULT_TAG);
                    sum += result[0];
                    valid &= result[1] == 1;
                }
                System.out.printf(Locale.ROOT, "%d\t\t\t%.2f%s%n", size, sum / pairs,
                    o.validate ? (valid ? "\t\t\tPass" : "\t\t\tFail") : "");
            } else if (pinger) {
                result[0] = latencyUs;
                result[1] = valid ? 1 : 0;
                MPI.COMM_WORLD.send(result, 2, MPI.DOUBLE, 0, RESULT_TAG);
            }
        }
        MPI.Finalize();
    }

    /** Returns on every rank once all ranks have called it: each reports to rank 0, which answers all. */
    private static void synchronize(int me, int ranks) {
        byte[] token = new byte[1];
        if (me == 0) {
            for (int r = 1; r < ranks; r++) {
                MPI.COMM_WORLD.recv(token, 1, MPI.BYTE, r, SYNC_TAG);
            }
            for (int r = 1; r < ranks; r++) {
                MPI.COMM_WORLD.send(token, 1, MPI.BYTE, r, SYNC_TAG);
            }
        } else {
            MPI.COMM_WORLD.send(token, 1, MPI.BYTE, 0, SYNC_TAG);
            MPI.COMM_WORLD.recv(token, 1, MPI.BYTE, 0, SYNC_TAG);
        }
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
