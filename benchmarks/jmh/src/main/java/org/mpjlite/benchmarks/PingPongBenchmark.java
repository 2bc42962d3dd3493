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
 * One-way message latency through the device, below the MPI API: two ranks of one job ping-pong
 * byte[] messages with {@link PointToPoint#isend}/{@link PointToPoint#irecv}, for both matching
 * structures, at eager sizes (8 B, 4 KB) and rendezvous sizes (64 KB, 1 MB; the default eager
 * threshold is 16 KB). The score is half a round trip.
 *
 * <p>JMH's thread is rank 0: it posts the receive for the reply, sends, and waits for both. Rank 1
 * is an echo thread started for the trial that sends back every message it receives. Each rank's
 * mailbox is confined to its one thread, as {@code Init} confines it at {@code THREAD_SINGLE}. JMH ends an
 * iteration only between round trips, so the echo thread is never left waiting on a reply.
 *
 * <p>With either mailbox a sender that finds the receive already posted copies straight into it,
 * whatever the size (the lock-free mailbox lets a sender claim the one receive posted while nothing
 * else waits in its inbox); rank 0 posts the reply's receive before it sends, so the reply always
 * takes that path, and the ping does whenever the echo thread has posted its next receive in time.
 * Otherwise eager messages cost a copy into the message and one out of it, rendezvous messages one
 * copy. Each completed receive is recycled ({@link RecvRequest#recycle}), as the API's blocking
 * receive does, so {@code -prof gc} shows what the device path allocates per message: nothing in
 * steady state.
 *
 * <p>What the OSU ping-pongs ({@code OSULatency}, {@code PingPongVsArraycopy}) do not measure: the
 * device alone, without the MPI API's argument checks and dialect layer, under JMH's control of
 * forks, warm-up and profilers ({@code -prof gc} gives the allocation per message).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PingPongBenchmark {
    private static final int CONTEXT = 0;
    private static final int PING = 1;
    private static final int STOP = 2;
    private static final String CALL = "PingPongBenchmark";

    @Param({"LOCKED", "LOCK_FREE"})
    public MatchingKind matching;

    @Param({"8", "4096", "65536", "1048576"})
    public int size;

    private Rank me;
    private Rank peer;
    private byte[] sendBuffer;
    private byte[] recvBuffer;
    private Thread echo;

    @Setup
    public void setUp() {
        Job job = Job.create(JobConfig.builder().ranks(2).matching(matching).build());
        me = job.rank(0);
        peer = job.rank(1);
        sendBuffer = new byte[size];
        recvBuffer = new byte[size];
        me.endpoint().mailbox().confineTo(Thread.currentThread());
        echo = new Thread(this::echo, "echo-rank-1");
        echo.setDaemon(true);
        echo.start();
    }

    /** Rank 1: sends every message back to rank 0 until it receives the stop message. */
    private void echo() {
        peer.endpoint().mailbox().confineTo(Thread.currentThread());
        byte[] buffer = new byte[size];
        for (;;) {
            RecvRequest r = PointToPoint.irecv(peer, CONTEXT, 0, Envelope.ANY_TAG, buffer, 0, size, BasicType.BYTE, CALL);
            r.await(CALL);
            int tag = r.statusTag();
            int count = r.statusCount();
            r.recycle();
            if (tag == STOP) {
                return;
            }
            PointToPoint.isend(peer, me, CONTEXT, 1, PING, buffer, 0, count, BasicType.BYTE,
                SendMode.STANDARD, CALL).await(CALL);
        }
    }

    @TearDown
    public void tearDown() throws InterruptedException {
        PointToPoint.isend(me, peer, CONTEXT, 0, STOP, sendBuffer, 0, 0, BasicType.BYTE, SendMode.STANDARD, CALL)
            .await(CALL);
        echo.join();
    }

    /** One round trip: two one-way messages. */
    @Benchmark
    @OperationsPerInvocation(2)
    public void oneWay() {
        RecvRequest reply = PointToPoint.irecv(me, CONTEXT, 1, PING, recvBuffer, 0, size, BasicType.BYTE, CALL);
        PointToPoint.isend(me, peer, CONTEXT, 0, PING, sendBuffer, 0, size, BasicType.BYTE, SendMode.STANDARD, CALL)
            .await(CALL);
        reply.await(CALL);
        reply.recycle();
    }
}
