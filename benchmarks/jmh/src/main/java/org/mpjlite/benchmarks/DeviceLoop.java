package org.mpjlite.benchmarks;

import org.mpjlite.matching.Envelope;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.collective.BuiltinOp;
import org.mpjlite.smpdev.collective.Collectives;
import org.mpjlite.smpdev.collective.Layout;
import org.mpjlite.smpdev.collective.Reduction;
import org.mpjlite.smpdev.collective.Team;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.p2p.PointToPoint;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.mpjlite.smpdev.p2p.SendMode;
import org.mpjlite.smpdev.p2p.SendRequest;

/**
 * A loop of two ranks of one job through the device: rank 0 is the calling thread, which runs
 * {@link #segment}s; rank 1 a daemon thread started here, which runs its side forever (between
 * segments it waits in the device, spinning, then parked). {@link SideBySide} loads this class once
 * per build it compares, each copy linked to that build's device, so it uses only device calls
 * that every build has.
 *
 * <ul>
 *   <li>{@code pingpong}: {@code byte[]} messages through {@code PointToPoint.isend}/{@code irecv}
 *       in the order of {@code OSULatency} (rank 0 sends, then receives the reply); the time is
 *       one way, half a round trip;</li>
 *   <li>{@code allreduce}: blocking {@code Collectives.allreduce} of {@code size / 8} doubles
 *       (at least one) with {@code MPI.SUM} on the world team; the time is one call;</li>
 *   <li>{@code bcast}: blocking {@code Collectives.bcast} of {@code size} bytes from rank 0; one
 *       call;</li>
 *   <li>{@code stream}: as {@code OSUBandwidth}, windows of {@link #WINDOW} non-blocking sends of
 *       {@code size} bytes from rank 0, each window received by as many non-blocking receives
 *       posted on rank 1 and acknowledged by a 4-byte reply; the time is one message;</li>
 *   <li>{@code stream-after-small}: the same, after rank 0 has sent rank 1 16 messages of 1 byte
 *       that arrived before their receives were posted (as a program that streamed small messages
 *       first does; such a stream opens the sender's message ring where the device has one);</li>
 *   <li>{@code solo}: one thread plays both ranks, no other thread runs: it sends a window of
 *       {@link #WINDOW} messages of {@code size} bytes to rank 1, then, as rank 1, receives them
 *       (each posted, waited for and recycled); the time is one message, both sides. No line
 *       crosses between cores, so this is the instruction cost of the path, the part of a stream's
 *       time that a change of code can move;</li>
 *   <li>{@code solo-posted}: the same with rank 1's receives posted before the window is sent.</li>
 * </ul>
 *
 * <p>Not thread-safe: one thread calls {@link #segment}. The other rank's thread runs until the JVM
 * exits.
 */
public final class DeviceLoop {
    private static final String CALL = "DeviceLoop";
    private static final int CONTEXT = 0;
    private static final int COLLECTIVE_CONTEXT = 1;
    private static final int TAG = 1;
    /** Messages in flight in the {@code stream} loop, as {@code OSUBandwidth}'s default window. */
    static final int WINDOW = 64;

    /** Small messages {@code stream-after-small} sends first: a short stream of its own. */
    private static final int SMALL_FIRST = 16;

    /** The loops, by the names {@link SideBySide}'s {@code --loop} takes (lower case). */
    private enum Loop { PINGPONG, ALLREDUCE, BCAST, STREAM, STREAM_AFTER_SMALL, SOLO, SOLO_POSTED }

    private final Loop loop;
    /** Whether the mailboxes stay unconfined (owner lock taken). */
    private final boolean multiple;
    private final Rank me;
    private final Rank peer;
    private final int size;
    private final byte[] send;
    private final byte[] recv;
    private final double[] in;
    private final double[] out;
    private final Team team;
    private final Reduction sum = BuiltinOp.SUM.on(Layout.basic(BasicType.DOUBLE));
    private final RecvRequest[] receives = new RecvRequest[WINDOW];

    /** A loop whose ranks each call from one thread (as at {@code MPI_THREAD_SINGLE}). */
    public DeviceLoop(String loop, int size, String matching) {
        this(loop, size, matching, false);
    }

    /**
     * @param loop     {@code pingpong}, {@code allreduce}, {@code bcast}, {@code stream},
     *                 {@code stream-after-small}, {@code solo} or {@code solo-posted}
     * @param size     bytes per message
     * @param matching a {@link MatchingKind} name
     * @param multiple true: the mailboxes stay unconfined and take their owner lock, as a rank's
     *                 at {@code MPI_THREAD_SERIALIZED} or {@code MPI_THREAD_MULTIPLE} (which a
     *                 plain {@code MPI.Init} gives); false: each is confined to its one thread, as
     *                 at {@code MPI_THREAD_SINGLE} or {@code MPI_THREAD_FUNNELED}
     */
    public DeviceLoop(String loop, int size, String matching, boolean multiple) {
        Loop kind;
        try {
            kind = Loop.valueOf(loop.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown loop " + loop
                + ": pingpong, allreduce, bcast, stream, stream-after-small, solo or solo-posted");
        }
        Job job = Job.create(JobConfig.builder().ranks(2).matching(MatchingKind.valueOf(matching)).build());
        this.loop = kind;
        this.me = job.rank(0);
        this.peer = job.rank(1);
        this.size = size;
        this.send = new byte[size];
        this.recv = new byte[size];
        this.in = new double[Math.max(1, size / 8)];
        this.out = new double[in.length];
        this.team = Team.world(me, COLLECTIVE_CONTEXT);
        this.multiple = multiple;
        confine(me);
        if (kind == Loop.SOLO || kind == Loop.SOLO_POSTED) {
            confine(peer);
            return;
        }
        if (kind == Loop.STREAM_AFTER_SMALL) {
            // Sent before the other rank's thread starts, so they arrive before their receives.
            for (int i = 0; i < SMALL_FIRST; i++) {
                PointToPoint.isend(me, peer, CONTEXT, 0, TAG + 1, new byte[1], 0, 1, BasicType.BYTE, SendMode.STANDARD,
                    CALL).await(CALL);
            }
        }
        Thread other = new Thread(this::otherRank, "side-by-side-rank-1");
        other.setDaemon(true);
        other.start();
    }

    /** Confines {@code rank}'s mailbox to the calling thread, unless the loop runs unconfined. */
    private void confine(Rank rank) {
        if (!multiple) {
            rank.endpoint().mailbox().confineTo(Thread.currentThread());
        }
    }

    private void otherRank() {
        confine(peer);
        if (loop == Loop.STREAM_AFTER_SMALL) {
            for (int i = 0; i < SMALL_FIRST; i++) {
                PointToPoint.irecv(peer, CONTEXT, 0, TAG + 1, new byte[1], 0, 1, BasicType.BYTE, CALL).await(CALL);
            }
        }
        byte[] buffer = new byte[size];
        double[] a = new double[in.length];
        double[] b = new double[in.length];
        byte[][] window = new byte[WINDOW][size];
        RecvRequest[] receives = new RecvRequest[WINDOW];
        for (;;) {
            switch (loop) {
                case STREAM, STREAM_AFTER_SMALL -> {
                    for (int i = 0; i < WINDOW; i++) {
                        receives[i] = PointToPoint.irecv(peer, CONTEXT, 0, TAG, window[i], 0, size, BasicType.BYTE,
                            CALL);
                    }
                    for (RecvRequest r : receives) {
                        r.await(CALL);
                        r.recycle();
                    }
                    PointToPoint.isend(peer, me, CONTEXT, 1, TAG, buffer, 0, Math.min(4, size), BasicType.BYTE,
                        SendMode.STANDARD, CALL).await(CALL);
                }
                case PINGPONG -> {
                    RecvRequest r = PointToPoint.irecv(peer, CONTEXT, 0, Envelope.ANY_TAG, buffer, 0, size,
                        BasicType.BYTE, CALL);
                    r.await(CALL);
                    int count = r.statusCount();
                    r.recycle();
                    PointToPoint.isend(peer, me, CONTEXT, 1, TAG, buffer, 0, count, BasicType.BYTE, SendMode.STANDARD,
                        CALL).await(CALL);
                }
                case ALLREDUCE -> Collectives.allreduce(team, 1, a, 0, b, 0, a.length, BasicType.DOUBLE, sum, false,
                    null, CALL, null);
                default -> Collectives.bcast(team, 1, buffer, 0, size, BasicType.BYTE, 0, null, CALL, null);
            }
        }
    }

    /**
     * Runs {@code n} iterations (for {@code stream}, {@code n} messages in whole windows); returns
     * the mean time of one in nanoseconds (one way for pingpong, one message for stream).
     */
    public double segment(int n) {
        long start = System.nanoTime();
        switch (loop) {
            case PINGPONG -> {
                for (int i = 0; i < n; i++) {
                    PointToPoint.isend(me, peer, CONTEXT, 0, TAG, send, 0, size, BasicType.BYTE, SendMode.STANDARD,
                        CALL).await(CALL);
                    RecvRequest r = PointToPoint.irecv(me, CONTEXT, 1, TAG, recv, 0, size, BasicType.BYTE, CALL);
                    r.await(CALL);
                    r.recycle();
                }
                return (System.nanoTime() - start) / (2.0 * n);
            }
            case STREAM, STREAM_AFTER_SMALL -> {
                int windows = Math.max(1, n / WINDOW);
                SendRequest[] sends = new SendRequest[WINDOW];
                for (int w = 0; w < windows; w++) {
                    for (int i = 0; i < WINDOW; i++) {
                        sends[i] = PointToPoint.isend(me, peer, CONTEXT, 0, TAG, send, 0, size, BasicType.BYTE,
                            SendMode.STANDARD, CALL);
                    }
                    for (SendRequest r : sends) {
                        r.await(CALL);
                    }
                    RecvRequest ack = PointToPoint.irecv(me, CONTEXT, 1, TAG, recv, 0, size, BasicType.BYTE, CALL);
                    ack.await(CALL);
                    ack.recycle();
                }
                return (System.nanoTime() - start) / ((double) windows * WINDOW);
            }
            case SOLO, SOLO_POSTED -> {
                int windows = Math.max(1, n / WINDOW);
                boolean posted = loop == Loop.SOLO_POSTED;
                for (int w = 0; w < windows; w++) {
                    if (posted) {
                        for (int i = 0; i < WINDOW; i++) {
                            receives[i] = PointToPoint.irecv(peer, CONTEXT, 0, TAG, recv, 0, size, BasicType.BYTE, CALL);
                        }
                    }
                    for (int i = 0; i < WINDOW; i++) {
                        PointToPoint.isend(me, peer, CONTEXT, 0, TAG, send, 0, size, BasicType.BYTE, SendMode.STANDARD,
                            CALL);
                    }
                    for (int i = 0; i < WINDOW; i++) {
                        RecvRequest r = posted ? receives[i]
                            : PointToPoint.irecv(peer, CONTEXT, 0, TAG, recv, 0, size, BasicType.BYTE, CALL);
                        r.await(CALL);
                        r.recycle();
                    }
                }
                return (System.nanoTime() - start) / ((double) windows * WINDOW);
            }
            case ALLREDUCE -> {
                for (int i = 0; i < n; i++) {
                    Collectives.allreduce(team, 0, in, 0, out, 0, in.length, BasicType.DOUBLE, sum, false, null, CALL,
                        null);
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    Collectives.bcast(team, 0, send, 0, size, BasicType.BYTE, 0, null, CALL, null);
                }
            }
        }
        return (System.nanoTime() - start) / (double) n;
    }
}
