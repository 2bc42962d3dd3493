package org.mpjlite.benchmarks;

import java.util.concurrent.TimeUnit;
import org.mpjlite.matching.Envelope;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.p2p.PointToPoint;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.mpjlite.smpdev.p2p.SendMode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A stream of small messages through the device, below the MPI API, as the OSU bandwidth and
 * message-rate tests send it: rank 0 sends a window of {@link #WINDOW} messages with
 * {@link PointToPoint#isend} and waits for rank 1's acknowledgement; rank 1 receives each window
 * with {@link PointToPoint#irecv} (posted one after the other, each waited for and recycled), then
 * acknowledges. The score is the time per message, for both matching structures; with the
 * lock-free mailbox the messages go through the sender's message ring, and {@code -prof gc} shows
 * what the device allocates per message: nothing in steady state.
 *
 * <p>JMH's thread is rank 0; rank 1 is a thread started for the trial, stopped by a message of
 * its own tag at the teardown (JMH ends an iteration only between windows, so it never waits on a
 * window that does not come). Each rank's mailbox is confined to its thread, as {@code Init}
 * confines it at {@code THREAD_SINGLE}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class StreamBenchmark {
    /** Messages per window, as OSU's default. */
    static final int WINDOW = 64;
    private static final int CONTEXT = 0;
    private static final int DATA = 1;
    private static final int ACK = 2;
    private static final int STOP = 3;
    private static final String CALL = "StreamBenchmark";

    @Param({"LOCKED", "LOCK_FREE"})
    public MatchingKind matching;

    @Param({"8", "64"})
    public int size;

    private Rank me;
    private Rank peer;
    private byte[] data;
    private final byte[] ack = new byte[1];
    private Thread receiver;

    @Setup
    public void setUp() {
        Job job = Job.create(JobConfig.builder().ranks(2).matching(matching).build());
        me = job.rank(0);
        peer = job.rank(1);
        data = new byte[size];
        me.endpoint().mailbox().confineTo(Thread.currentThread());
        receiver = new Thread(this::receive, "stream-rank-1");
        receiver.setDaemon(true);
        receiver.start();
    }

    /** Rank 1: receives windows and acknowledges each, until the stop message. */
    private void receive() {
        peer.endpoint().mailbox().confineTo(Thread.currentThread());
        byte[] buffer = new byte[Math.max(size, 1)];
        for (;;) {
            for (int i = 0; i < WINDOW; i++) {
                RecvRequest r = PointToPoint.irecv(peer, CONTEXT, 0, Envelope.ANY_TAG, buffer, 0, size, BasicType.BYTE,
                    CALL);
                r.await(CALL);
                int tag = r.statusTag();
                r.recycle();
                if (tag == STOP) {
                    return;
                }
            }
            PointToPoint.isend(peer, me, CONTEXT, 1, ACK, ack, 0, 1, BasicType.BYTE, SendMode.STANDARD, CALL)
                .await(CALL);
        }
    }

    @TearDown
    public void tearDown() throws InterruptedException {
        PointToPoint.isend(me, peer, CONTEXT, 0, STOP, data, 0, 0, BasicType.BYTE, SendMode.STANDARD, CALL)
            .await(CALL);
        receiver.join();
    }

    /** One window and its acknowledgement; the score is per message. */
    @Benchmark
    @OperationsPerInvocation(WINDOW)
    public int window() {
        RecvRequest done = PointToPoint.irecv(me, CONTEXT, 1, ACK, ack, 0, 1, BasicType.BYTE, CALL);
        for (int i = 0; i < WINDOW; i++) {
            PointToPoint.isend(me, peer, CONTEXT, 0, DATA, data, 0, size, BasicType.BYTE, SendMode.STANDARD, CALL);
        }
        done.await(CALL);
        int count = done.statusCount();
        done.recycle();
        return count;
    }
}
