package org.mpjlite.stress;

import static org.mpjlite.stress.Device.ANY;

import org.mpjlite.matching.MessageRing;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A sender's message ring against the receiver's matching (lock-free mailboxes): rank 0 already
 * has a ring to rank 1 (small messages in a row that found no receive opened it, and were
 * received), then sends 1 (small: a cell, or the receive line if its ring is drained and a receive
 * is published), 2 (longer than a ring message: through the inbox carrying its ring index, or
 * filling a posted receive itself if the ring is drained) and 3 (small), while rank 1 posts three
 * wildcard receives and matches what has arrived. The arbiter matches the rest and reports (first,
 * second, third receive, messages or receives left over); a receive reports its message's first
 * element, or -1 if any element of the message differs from the first (every element carries the
 * message's value).
 *
 * <p>Only {@code 1, 2, 3, 0} is acceptable: whichever way each message goes, MPI's order holds.
 * FORBIDDEN: any other order (a message overtook one sent before it: a claim past a message still
 * in the ring, a cell matched before an earlier inbox message, an inbox message matched before an
 * earlier cell), a 0 (a message lost), a -1 (a message torn) or a leftover (a message matched
 * twice, or never).
 *
 * <p>{@code OverflowMeanwhile}: the same with 2 of the most a ring message carries (4 KB: the cell
 * and its overflow array, which the sender may have to make), so that the owner reads an overflow
 * that another thread wrote: the same table.
 *
 * <p>{@code TagsMeanwhile}: three small messages, tags 5, 6 and 5 (values 1, 2 and 3), while rank
 * 1 posts a receive for tag 6 and then two for tag 5. A receive being posted takes a cell it
 * accepts straight from the cell, and the cells before it that it does not accept become
 * unexpected messages: the tag-6 receive must get 2 whenever the cells arrived, and the tag-5
 * receives 1 then 3, so only {@code 2, 1, 3, 0} (first, second, third receive) is acceptable.
 * Each variant carries its own table.
 */
public abstract class RingKeepsOrder {
    private static final int TAG = 5;
    /** Ints of the longest message a ring carries. */
    private static final int RING_WIDTH = MessageRing.DATA_BYTES / Integer.BYTES;

    private final Job job;
    private final int[] first = new int[RING_WIDTH + 1];
    private final int[] second = new int[RING_WIDTH + 1];
    private final int[] third = new int[RING_WIDTH + 1];
    private RecvRequest a;
    private RecvRequest b;
    private RecvRequest c;

    RingKeepsOrder() {
        job = Device.job(MatchingKind.LOCK_FREE, 2);
        Device.openRing(job, 0, 1);
    }

    /** Sends 1, then 2 of {@code width} ints, then 3. */
    void send(int width) {
        Device.send(job, 0, 1, TAG, 1);
        int[] two = new int[width];
        java.util.Arrays.fill(two, 2);
        Device.send(job, 0, 1, TAG, two);
        Device.send(job, 0, 1, TAG, 3);
    }

    /** The middle message longer than a ring message. */
    void send() {
        send(RING_WIDTH + 1);
    }

    /** The middle message the longest a ring message is: the cell and its overflow. */
    void sendOverflow() {
        send(RING_WIDTH);
    }

    void receive() {
        a = Device.recv(job, 1, ANY, ANY, first);
        b = Device.recv(job, 1, ANY, ANY, second);
        c = Device.recv(job, 1, ANY, ANY, third);
        Device.progress(job, 1);
    }

    void sendTags() {
        Device.send(job, 0, 1, TAG, 1);
        Device.send(job, 0, 1, TAG + 1, 2);
        Device.send(job, 0, 1, TAG, 3);
    }

    void receiveTags() {
        a = Device.recv(job, 1, ANY, TAG + 1, first);
        b = Device.recv(job, 1, ANY, TAG, second);
        c = Device.recv(job, 1, ANY, TAG, third);
        Device.progress(job, 1);
    }

    /** The value a completed receive got: its message's first element, -1 if another element differs; 0 if pending. */
    private static int value(RecvRequest r, int[] buffer) {
        if (!r.isComplete()) {
            return 0;
        }
        for (int i = 1; i < r.statusCount(); i++) {
            if (buffer[i] != buffer[0]) {
                return -1;
            }
        }
        return buffer[0];
    }

    void check(IIII_Result r) {
        Device.progress(job, 1);
        r.r1 = value(a, first);
        r.r2 = value(b, second);
        r.r3 = value(c, third);
        r.r4 = Device.unexpected(job, 1) + Device.posted(job, 1);
    }

    /** Receives posted concurrently with the sends. */
    @JCStressTest
    @Outcome(id = "1, 2, 3, 0", expect = Expect.ACCEPTABLE, desc = "All three received, in the order sent.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A message overtook another, was torn, lost, or matched twice.")
    @State
    public static class PostedMeanwhile extends RingKeepsOrder {
        public PostedMeanwhile() {
            super();
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void receiver() {
            receive();
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }

    /** The middle message in a cell and its overflow; receives posted concurrently with the sends. */
    @JCStressTest
    @Outcome(id = "1, 2, 3, 0", expect = Expect.ACCEPTABLE, desc = "All three received whole, in the order sent.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A message overtook another, was torn, lost, or matched twice.")
    @State
    public static class OverflowMeanwhile extends RingKeepsOrder {
        public OverflowMeanwhile() {
            super();
        }

        @Actor
        public void sender() {
            sendOverflow();
        }

        @Actor
        public void receiver() {
            receive();
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }

    /** Small messages of two tags, received by tag while they arrive. */
    @JCStressTest
    @Outcome(id = "2, 1, 3, 0", expect = Expect.ACCEPTABLE, desc = "Each tag's messages received in the order sent.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A message overtook another of its tag, was lost, or was matched twice.")
    @State
    public static class TagsMeanwhile extends RingKeepsOrder {
        public TagsMeanwhile() {
            super();
        }

        @Actor
        public void sender() {
            sendTags();
        }

        @Actor
        public void receiver() {
            receiveTags();
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }
}
