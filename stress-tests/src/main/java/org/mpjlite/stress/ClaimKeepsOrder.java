package org.mpjlite.stress;

import static org.mpjlite.stress.Device.ANY;

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
 * A receive posted alone, which senders may claim (the lock-free mailbox publishes it), against
 * two senders and the owner's own matching: rank 1 has a wildcard receive R posted; rank 0 sends 1
 * then 2, while rank 2 sends 3 and then a thread of rank 1 matches what has arrived (one actor
 * plays both: jcstress runs at most as many actors as there are cores). Each message either
 * claims R on its sender's thread, or enters the inbox, where the owner may match it to R with the
 * same compare-and-set. The arbiter then receives from rank 0 twice and from anyone once, and
 * reports (R, first from 0, second from 0, the last receive), 0 for a receive that got nothing.
 *
 * <p>Acceptable: {@code 1, 2, 0, 3} (R got rank 0's first message) and {@code 3, 1, 2, 0} (R got
 * rank 2's). FORBIDDEN: R getting 2 ({@code 2, 1, 0, 3} or any other): the second message of rank 0
 * claimed R past the first, still in the inbox; a message lost or received twice; rank 0's messages
 * received out of order. A catch-all FORBIDDEN covers anything else.
 */
@Outcome(id = "1, 2, 0, 3", expect = Expect.ACCEPTABLE, desc = "R got rank 0's first message.")
@Outcome(id = "3, 1, 2, 0", expect = Expect.ACCEPTABLE, desc = "R got rank 2's message.")
@Outcome(id = "2, .*", expect = Expect.FORBIDDEN, desc = "Rank 0's second message overtook its first.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A message lost, duplicated or out of order.")
public abstract class ClaimKeepsOrder {
    private static final int TAG = 4;

    private final Job job;
    private final int width;
    private final int[] posted;
    private final RecvRequest r;

    ClaimKeepsOrder(MatchingKind matching, int width) {
        this.width = width;
        job = Device.job(matching, 3);
        posted = new int[width];
        r = Device.recv(job, 1, ANY, ANY, posted);
    }

    void sendTwice() {
        Device.send(job, 0, 1, TAG, Device.payload(1, width));
        Device.send(job, 0, 1, TAG, Device.payload(2, width));
    }

    void sendOnce() {
        Device.send(job, 2, 1, TAG, Device.payload(3, width));
    }

    void match() {
        Device.progress(job, 1);
    }

    void check(IIII_Result out) {
        int[] a = new int[width];
        int[] b = new int[width];
        int[] c = new int[width];
        RecvRequest ra = Device.recv(job, 1, 0, ANY, a);
        RecvRequest rb = Device.recv(job, 1, 0, ANY, b);
        RecvRequest rc = Device.recv(job, 1, ANY, ANY, c);
        Device.progress(job, 1);
        out.r1 = r.isComplete() ? posted[0] : 0;
        out.r2 = ra.isComplete() ? a[0] : 0;
        out.r3 = rb.isComplete() ? b[0] : 0;
        out.r4 = rc.isComplete() ? c[0] : 0;
    }

    /** With {@link MatchingKind#LOCKED} mailboxes. */
    @JCStressTest
    @State
    public static class Locked extends ClaimKeepsOrder {
        public Locked() {
            super(MatchingKind.LOCKED, 1);
        }

        @Actor
        public void rank0() {
            sendTwice();
        }

        @Actor
        public void rank2ThenRank1() {
            sendOnce();
            match();
        }

        @Arbiter
        public void arbiter(IIII_Result out) {
            check(out);
        }
    }

    /**
     * With {@link MatchingKind#LOCK_FREE} mailboxes: a sender that claims the posted receive leaves
     * its one-int message in the receive line, and the owner completes the receive.
     */
    @JCStressTest
    @State
    public static class LockFree extends ClaimKeepsOrder {
        public LockFree() {
            super(MatchingKind.LOCK_FREE, 1);
        }

        @Actor
        public void rank0() {
            sendTwice();
        }

        @Actor
        public void rank2ThenRank1() {
            sendOnce();
            match();
        }

        @Arbiter
        public void arbiter(IIII_Result out) {
            check(out);
        }
    }

    /**
     * With {@link MatchingKind#LOCK_FREE} mailboxes and messages too long for the receive line: a sender
     * that claims the posted receive fills it itself.
     */
    @JCStressTest
    @State
    public static class LockFreeFilled extends ClaimKeepsOrder {
        public LockFreeFilled() {
            super(MatchingKind.LOCK_FREE, Device.FILLED_WIDTH);
        }

        @Actor
        public void rank0() {
            sendTwice();
        }

        @Actor
        public void rank2ThenRank1() {
            sendOnce();
            match();
        }

        @Arbiter
        public void arbiter(IIII_Result out) {
            check(out);
        }
    }
}
