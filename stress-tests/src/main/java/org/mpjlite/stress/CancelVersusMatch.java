package org.mpjlite.stress;

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
 * Cancel against match: rank 1 has a receive posted; rank 0 sends the matching message while a
 * thread of rank 1 cancels the receive. The arbiter lets rank 1 progress and reports (cancel
 * returned true, request says cancelled, value in the receive buffer, messages left unexpected).
 *
 * <p>Exactly one of the two wins. Acceptable: {@code 1, 1, 0, 1}, the cancel won, the buffer is
 * untouched and the message waits, unexpected, for another receive; and {@code 0, 0, 42, 0}, the match
 * won, the cancel failed and the data arrived. FORBIDDEN: cancelled and also matched (data in the
 * buffer), cancelled with the message gone (lost), or a cancel result that disagrees with the request.
 */
@Outcome(id = "1, 1, 0, 1", expect = Expect.ACCEPTABLE, desc = "Cancel won; the message stays unexpected.")
@Outcome(id = "0, 0, 42, 0", expect = Expect.ACCEPTABLE, desc = "Match won; the cancel failed.")
@Outcome(id = "1, 1, 42, .*", expect = Expect.FORBIDDEN, desc = "Cancelled and also matched.")
@Outcome(id = "1, 1, 0, 0", expect = Expect.FORBIDDEN, desc = "Cancelled and the message was lost.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Inconsistent cancel state, lost or duplicated message.")
public abstract class CancelVersusMatch {
    private static final int TAG = 6;

    private final Job job;
    private final int width;
    private final int[] buffer;
    private final RecvRequest recv;
    private int cancelled;

    CancelVersusMatch(MatchingKind matching, int width) {
        this.width = width;
        job = Device.job(matching, 2);
        buffer = new int[width];
        recv = Device.recv(job, 1, 0, TAG, buffer);
    }

    void send() {
        Device.send(job, 0, 1, TAG, Device.payload(42, width));
    }

    void cancel() {
        cancelled = recv.cancel() ? 1 : 0;
    }

    void check(IIII_Result r) {
        Device.progress(job, 1);
        r.r1 = cancelled;
        r.r2 = recv.isComplete() && recv.isCancelled() ? 1 : 0;
        r.r3 = buffer[0];
        r.r4 = Device.unexpected(job, 1);
    }

    /** With {@link MatchingKind#LOCKED} mailboxes. */
    @JCStressTest
    @State
    public static class Locked extends CancelVersusMatch {
        public Locked() {
            super(MatchingKind.LOCKED, 1);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void canceller() {
            cancel();
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }

    /**
     * With {@link MatchingKind#LOCK_FREE} mailboxes: a sender that claims the posted receive leaves
     * its one-int message in the receive line, and the owner completes the receive.
     */
    @JCStressTest
    @State
    public static class LockFree extends CancelVersusMatch {
        public LockFree() {
            super(MatchingKind.LOCK_FREE, 1);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void canceller() {
            cancel();
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }

    /**
     * With {@link MatchingKind#LOCK_FREE} mailboxes and messages too long for the receive line: a sender
     * that claims the posted receive fills it itself.
     */
    @JCStressTest
    @State
    public static class LockFreeFilled extends CancelVersusMatch {
        public LockFreeFilled() {
            super(MatchingKind.LOCK_FREE, Device.FILLED_WIDTH);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void canceller() {
            cancel();
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }
}
