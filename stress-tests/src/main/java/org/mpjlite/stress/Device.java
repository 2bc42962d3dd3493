package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.p2p.PointToPoint;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.mpjlite.smpdev.p2p.SendMode;
import org.mpjlite.smpdev.p2p.SendRequest;
import org.mpjlite.smpdev.wait.WaitMode;

/**
 * Shorthand for driving a device job from jcstress actor threads: one job per jcstress state, every
 * message an {@code int[]} on communicator context 0 with the sender's world rank as its source.
 *
 * <p>Jobs use the default buffer pool ({@code BUDDY1} over heap memory), which the device shares
 * JVM-wide: eager messages are stashed in pooled buffers allocated by the sending actor's thread and
 * freed by the thread that makes the match, the cross-thread pattern {@link PoolOverlap} stresses.
 */
final class Device {
    static final int CONTEXT = 0;
    static final int ANY = -1;

    private Device() {
    }

    static Job job(MatchingKind matching, int ranks) {
        return job(matching, ranks, Tunables.DEFAULT_EAGER_THRESHOLD, WaitMode.AUTO);
    }

    static Job job(MatchingKind matching, int ranks, int eagerThreshold, WaitMode waitMode) {
        return Job.create(JobConfig.builder().ranks(ranks).matching(matching).eagerThreshold(eagerThreshold)
            .waitMode(waitMode).build());
    }

    /** Standard-mode Isend of {@code data} from world rank {@code from} to {@code to}. */
    static SendRequest send(Job job, int from, int to, int tag, int... data) {
        return PointToPoint.isend(job.rank(from), job.rank(to), CONTEXT, from, tag, data, 0, data.length,
            BasicType.INT, SendMode.STANDARD, "Isend");
    }

    /**
     * Synchronous-mode Isend (Issend) of {@code data} from world rank {@code from} to {@code to}: a
     * pending send until received, whose message its sender may withdraw by cancelling it.
     */
    static SendRequest ssend(Job job, int from, int to, int tag, int... data) {
        return PointToPoint.isend(job.rank(from), job.rank(to), CONTEXT, from, tag, data, 0, data.length,
            BasicType.INT, SendMode.SYNCHRONOUS, "Issend");
    }

    /**
     * Elements of a message too long for the receive line (more than its 72 bytes as ints), so that
     * a sender that claims a posted receive fills it itself: the variants named {@code Filled}.
     */
    static final int FILLED_WIDTH = 32;

    /** A message of {@code width} ints whose first is {@code value} (the rest 0). */
    static int[] payload(int value, int width) {
        int[] data = new int[width];
        data[0] = value;
        return data;
    }

    /** Irecv into {@code buffer} on world rank {@code rank}; {@code source}/{@code tag} may be {@link #ANY}. */
    static RecvRequest recv(Job job, int rank, int source, int tag, int[] buffer) {
        return PointToPoint.irecv(job.rank(rank), CONTEXT, source, tag, buffer, 0, buffer.length, BasicType.INT,
            "Irecv");
    }

    /**
     * Opens rank {@code from}'s message ring to rank {@code to} (lock-free mailboxes): sends
     * {@link Tunables#RING_AFTER_UNCLAIMED} small messages that find no receive (a stream), then
     * receives them, so that the ring is drained.
     */
    static void openRing(Job job, int from, int to) {
        int opening = Tunables.RING_AFTER_UNCLAIMED;
        for (int i = 0; i < opening; i++) {
            send(job, from, to, OPENING_TAG, i);
        }
        for (int i = 0; i < opening; i++) {
            RecvRequest r = recv(job, to, from, OPENING_TAG, new int[1]);
            progress(job, to);
            if (!r.isComplete()) {
                throw new IllegalStateException("an opening message was not received");
            }
        }
    }

    /** The tag of the messages that open a ring ({@link #openRing}). */
    static final int OPENING_TAG = 99;

    /** Lets the rank's mailbox match what has arrived (what MPI_Test does first). */
    static void progress(Job job, int rank) {
        PointToPoint.progress(job.rank(rank));
    }

    /** Messages that arrived at {@code rank} and were not received, after matching what has arrived. */
    static int unexpected(Job job, int rank) {
        return job.rank(rank).endpoint().mailbox().unexpectedSnapshot().size();
    }

    /** Receives still posted at {@code rank}. */
    static int posted(Job job, int rank) {
        return job.rank(rank).endpoint().mailbox().postedSnapshot().size();
    }
}
