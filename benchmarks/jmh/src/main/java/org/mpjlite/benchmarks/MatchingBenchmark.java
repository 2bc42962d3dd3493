package org.mpjlite.benchmarks;

import java.util.concurrent.TimeUnit;
import org.mpjlite.matching.Envelope;
import org.mpjlite.matching.LockFreeMailbox;
import org.mpjlite.matching.LockedMailbox;
import org.mpjlite.matching.Mailbox;
import org.mpjlite.matching.MatchHandler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Envelope matching in both matching structures ({@code org.mpjlite.matching}) with {@code depth}
 * non-matching envelopes queued ahead of the one that matches, so every match scans the whole queue:
 * the cost of MPI's ordered matching as queues grow (0, 8, 64, 512).
 *
 * <ul>
 *   <li>{@link #receiveFindsUnexpected}: {@code depth} unexpected messages wait; a message arrives
 *       and a receive is posted for it (MPI_Recv after the sender ran ahead);</li>
 *   <li>{@link #messageFindsPosted}: {@code depth} receives are posted; one more is posted and a
 *       message for it arrives (a receiver that pre-posts many receives).</li>
 * </ul>
 *
 * One thread plays sender and receiver, so this is the matching work alone, without contention or
 * wake-ups; {@code PingPongBenchmark} has those. The lock-free mailbox matches on the receiver's
 * side only: its {@code deliver} just enqueues, and {@code post}/{@code progress} drain and match.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class MatchingBenchmark {
    /** The two matching structures. */
    public enum Structure { LOCKED, LOCK_FREE }

    private static final int CONTEXT = 0;
    private static final int SOURCE = 1;
    private static final int TAG = 7;
    /** Tags of the envelopes queued ahead: never {@link #TAG}. */
    private static final int OTHER_TAGS = 1000;

    @Param
    public Structure structure;

    @Param({"0", "8", "64", "512"})
    public int depth;

    private Mailbox<Msg, Recv> unexpectedBox;
    private Mailbox<Msg, Recv> postedBox;
    private final Msg message = new Msg(TAG);
    private final Recv receive = new Recv(TAG);
    private int matches;

    /** A message envelope: the queues need nothing more to match. */
    static final class Msg extends Envelope {
        Msg(int tag) {
            super(CONTEXT, SOURCE, tag);
        }
    }

    /** A receive envelope. */
    static final class Recv extends Envelope {
        Recv(int tag) {
            super(CONTEXT, SOURCE, tag);
        }
    }

    @Setup
    public void setUp() {
        MatchHandler<Msg, Recv> countMatches = (r, m) -> matches++;
        unexpectedBox = mailbox(countMatches);
        postedBox = mailbox(countMatches);
        for (int i = 0; i < depth; i++) {
            unexpectedBox.deliver(new Msg(OTHER_TAGS + i));
            postedBox.post(new Recv(OTHER_TAGS + i));
        }
        // The lock-free mailbox sorts arrivals into its lists only when the owner looks.
        unexpectedBox.progress();
    }

    private Mailbox<Msg, Recv> mailbox(MatchHandler<Msg, Recv> handler) {
        return structure == Structure.LOCKED ? new LockedMailbox<>(handler) : new LockFreeMailbox<>(handler);
    }

    /** A message joins {@code depth} unexpected ones; the receive posted for it scans past them all. */
    @Benchmark
    public int receiveFindsUnexpected() {
        unexpectedBox.deliver(message);
        unexpectedBox.post(receive);
        return matches;
    }

    /** A receive joins {@code depth} posted ones; the message sent to it scans past them all. */
    @Benchmark
    public int messageFindsPosted() {
        postedBox.post(receive);
        postedBox.deliver(message);
        postedBox.progress();
        return matches;
    }
}
