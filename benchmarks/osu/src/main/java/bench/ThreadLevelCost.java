package bench;

import java.util.Arrays;
import java.util.Locale;
import mpi.MPI;
import mpi.Request;
import org.mpjlite.smpdev.Rank;

/**
 * What a plain {@code MPI.Init} costs a small message against a rank confined to one thread, in
 * one job. {@code Init} provides {@code MPI_THREAD_MULTIPLE}, so each rank's mailbox takes its
 * owner lock (but for the receives the Init thread posts while an earlier one waits, which are
 * deferred, and so in both states here); {@code InitThread} with {@code THREAD_SINGLE} or {@code THREAD_FUNNELED} confines the
 * mailbox to the calling thread, and it takes none. Here both ranks switch their own mailbox
 * between the two states from one segment to the next (confined first in every other pair), so
 * that both states see the same machine, and rank 0 prints the medians of each and of the
 * per-pair ratio, confined over locked.
 *
 * <pre>
 * ./mpjrun -np 2 -cp benchmarks/osu/target/classes bench.ThreadLevelCost [-t pingpong|stream] [-s SEGMENTS] [-x WARMUP] [-i MESSAGES]
 * </pre>
 *
 * <ul>
 *   <li>{@code pingpong} (default): 8 B {@code send}/{@code recv} of {@code byte[]} in
 *       {@code OSULatency}'s order; the time is one way;</li>
 *   <li>{@code stream}: as {@code OSUBandwidth}, windows of 64 {@code iSend} of 8 B, received by
 *       as many {@code iRecv} and a {@code waitAll}, each window acknowledged; the time is one
 *       message.</li>
 * </ul>
 * Defaults: 40 pairs of segments after 100 pairs of warm-up, 20,000 messages per segment.
 *
 * <p>Reaches below the API ({@code Rank.current()}, the mailbox's {@code confineTo}): it measures
 * the device's owner lock, which no program can switch off on its own once it has called
 * {@code Init}.
 */
public class ThreadLevelCost {
    private static final int WINDOW = 64;
    private static final int SIZE = 8;
    private static final int TAG = 1;
    private static final int ACK_TAG = 2;
    private static final String USAGE =
        "Usage: ThreadLevelCost [-t pingpong|stream] [-s SEGMENTS] [-x WARMUP] [-i MESSAGES]";

    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        String test = "pingpong";
        int segments = 40;
        int warmup = 100;
        int messages = 20_000;
        for (int a = 0; a < rest.length; a++) {
            switch (rest[a]) {
                case "-t" -> test = value(rest, ++a);
                case "-s" -> segments = Integer.parseInt(value(rest, ++a));
                case "-x" -> warmup = Integer.parseInt(value(rest, ++a));
                case "-i" -> messages = Integer.parseInt(value(rest, ++a));
                default -> throw new IllegalArgumentException(USAGE);
            }
        }
        if (!test.equals("pingpong") && !test.equals("stream") || segments < 1 || warmup < 0 || messages < 1) {
            throw new IllegalArgumentException(USAGE);
        }
        if (MPI.COMM_WORLD.getSize() != 2) {
            if (me == 0) {
                System.out.println("This test requires exactly two processes (ranks); run with -np 2.");
            }
            MPI.Finalize();
            return;
        }
        boolean stream = test.equals("stream");
        int rounds = stream ? Math.max(1, messages / WINDOW) : messages;
        double[] confined = new double[segments];
        double[] locked = new double[segments];
        double[] ratio = new double[segments];
        Thread self = Thread.currentThread();
        Rank rank = Rank.current();
        for (int s = -warmup; s < segments; s++) {
            double[] time = new double[2];
            for (int pass = 0; pass < 2; pass++) {
                boolean confine = ((s + pass) & 1) == 0;
                rank.endpoint().mailbox().confineTo(confine ? self : null);
                MPI.COMM_WORLD.barrier(); // both ranks switched before either sends
                long start = System.nanoTime();
                if (stream) {
                    stream(me, rounds);
                } else {
                    pingPong(me, rounds);
                }
                long elapsed = System.nanoTime() - start;
                time[confine ? 0 : 1] = elapsed / (double) (stream ? rounds * WINDOW : 2 * rounds);
            }
            if (s >= 0) {
                confined[s] = time[0];
                locked[s] = time[1];
                ratio[s] = time[0] / time[1];
            }
        }
        rank.endpoint().mailbox().confineTo(null); // Init's state: THREAD_MULTIPLE
        MPI.COMM_WORLD.barrier();
        if (me == 0) {
            System.out.println("# " + test + ", " + SIZE + " B, " + segments + " pairs of segments of " + messages
                + " messages; " + (stream ? "ns per message" : "one-way ns"));
            System.out.println("# Confined [ns]\tLocked [ns]\tConfined/locked (q1, q3)");
            System.out.printf(Locale.ROOT, "%.1f\t\t%.1f\t\t%.3f (%.3f, %.3f)%n", median(confined), median(locked),
                median(ratio), quantile(ratio, 0.25), quantile(ratio, 0.75));
        }
        MPI.Finalize();
    }

    /** OSULatency's order: rank 0 sends then receives the reply. */
    private static void pingPong(int me, int rounds) throws Exception {
        byte[] buffer = new byte[SIZE];
        for (int i = 0; i < rounds; i++) {
            if (me == 0) {
                MPI.COMM_WORLD.send(buffer, SIZE, MPI.BYTE, 1, TAG);
                MPI.COMM_WORLD.recv(buffer, SIZE, MPI.BYTE, 1, TAG);
            } else {
                MPI.COMM_WORLD.recv(buffer, SIZE, MPI.BYTE, 0, TAG);
                MPI.COMM_WORLD.send(buffer, SIZE, MPI.BYTE, 0, TAG);
            }
        }
    }

    /** OSUBandwidth's loop: a window of sends, its receives, an acknowledgement. */
    private static void stream(int me, int windows) throws Exception {
        byte[] buffer = new byte[SIZE];
        byte[] ack = new byte[1];
        Request[] window = new Request[WINDOW];
        for (int i = 0; i < windows; i++) {
            if (me == 0) {
                for (int w = 0; w < WINDOW; w++) {
                    window[w] = MPI.COMM_WORLD.iSend(buffer, SIZE, MPI.BYTE, 1, TAG);
                }
                Request.waitAll(window);
                MPI.COMM_WORLD.recv(ack, 1, MPI.BYTE, 1, ACK_TAG);
            } else {
                for (int w = 0; w < WINDOW; w++) {
                    window[w] = MPI.COMM_WORLD.iRecv(buffer, SIZE, MPI.BYTE, 0, TAG);
                }
                Request.waitAll(window);
                MPI.COMM_WORLD.send(ack, 1, MPI.BYTE, 0, ACK_TAG);
            }
        }
    }

    private static double median(double[] values) {
        return quantile(values, 0.5);
    }

    private static double quantile(double[] values, double q) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))];
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(USAGE);
        }
        return args[i];
    }
}
