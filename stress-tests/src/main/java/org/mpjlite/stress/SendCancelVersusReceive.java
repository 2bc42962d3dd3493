package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.TypeMap;
import org.mpjlite.smpdev.p2p.Message;
import org.mpjlite.smpdev.p2p.PointToPoint;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.mpjlite.smpdev.p2p.SendRequest;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Cancel of a send against its receive: rank 0's synchronous send (a pending send, whose message
 * its sender may withdraw) has arrived at rank 1 and nobody has received it; a thread of rank 0
 * cancels the send while a thread of rank 1 receives (or takes with a matched probe) a message
 * the send's message matches. The arbiter lets rank 1 progress and reports (cancel returned true,
 * the send completed as cancelled, the value received, the receive complete, messages left
 * unexpected at rank 1).
 *
 * <p>Exactly one of the two wins. Acceptable: {@code 1, 1, 0, 0, 0}, the cancel won: the send is
 * cancelled, the receive still waits and the message is gone (a cancelled send is as if never
 * sent); and {@code 0, 0, 42, 1, 0}, the receive won: the cancel failed, the send completed
 * normally and the data arrived. FORBIDDEN: cancelled and also received (a duplicate), neither
 * (a lost message, or a send that never completes), a cancelled message still visible as
 * unexpected, or a cancel result that disagrees with the send's status.
 */
@Outcome(id = "1, 1, 0, 0, 0", expect = Expect.ACCEPTABLE, desc = "Cancel won; the receive still waits.")
@Outcome(id = "0, 0, 42, 1, 0", expect = Expect.ACCEPTABLE, desc = "Receive won; the cancel failed.")
@Outcome(id = "1, 1, 42, .*", expect = Expect.FORBIDDEN, desc = "Cancelled and also received.")
@Outcome(id = "0, 0, 0, 0, .*", expect = Expect.FORBIDDEN, desc = "Neither: lost, or a send that never completes.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Inconsistent cancel state, a lost, duplicated or visible cancelled message.")
public abstract class SendCancelVersusReceive {
    private static final int TAG = 6;

    private final Job job;
    private final SendRequest send;
    private final int[] buffer = new int[1];
    private RecvRequest recv;
    private int cancelled;
    private Message taken;

    /** Rank 0's send has arrived at rank 1; {@code drained}: rank 1 has moved it to its unexpected list. */
    SendCancelVersusReceive(MatchingKind matching, boolean drained) {
        job = Device.job(matching, 2);
        send = Device.ssend(job, 0, 1, TAG, 42);
        if (drained) {
            Device.progress(job, 1);
        }
    }

    void cancel() {
        cancelled = send.cancel() ? 1 : 0;
    }

    void receive() {
        recv = Device.recv(job, 1, Device.ANY, TAG, buffer);
    }

    /** A matched probe; the arbiter receives what it took. */
    void take() {
        taken = PointToPoint.improbe(job.rank(1), Device.CONTEXT, Device.ANY, TAG);
    }

    void check(IIIII_Result r) {
        if (taken != null) {
            recv = PointToPoint.mrecv(job.rank(1), taken, buffer, 0, 1, TypeMap.of(BasicType.INT), "Mrecv");
        }
        Device.progress(job, 1);
        r.r1 = cancelled;
        r.r2 = send.isComplete() ? (send.isCancelled() ? 1 : 0) : -1;
        r.r3 = buffer[0];
        r.r4 = recv != null && recv.isComplete() && !recv.failed() ? 1 : 0;
        r.r5 = Device.unexpected(job, 1);
    }

    /** {@link MatchingKind#LOCKED} mailboxes: the message waits in the unexpected list. */
    @JCStressTest
    @State
    public static class Locked extends SendCancelVersusReceive {
        public Locked() {
            super(MatchingKind.LOCKED, false);
        }

        @Actor
        public void canceller() {
            cancel();
        }

        @Actor
        public void receiver() {
            receive();
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            check(r);
        }
    }

    /**
     * {@link MatchingKind#LOCK_FREE} mailboxes, the message still in the inbox: the receive's post
     * drains it and holds it while it looks for its receive.
     */
    @JCStressTest
    @State
    public static class LockFreeInInbox extends SendCancelVersusReceive {
        public LockFreeInInbox() {
            super(MatchingKind.LOCK_FREE, false);
        }

        @Actor
        public void canceller() {
            cancel();
        }

        @Actor
        public void receiver() {
            receive();
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            check(r);
        }
    }

    /** {@link MatchingKind#LOCK_FREE} mailboxes, the message in the unexpected list: the post binds it there. */
    @JCStressTest
    @State
    public static class LockFreeUnexpected extends SendCancelVersusReceive {
        public LockFreeUnexpected() {
            super(MatchingKind.LOCK_FREE, true);
        }

        @Actor
        public void canceller() {
            cancel();
        }

        @Actor
        public void receiver() {
            receive();
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            check(r);
        }
    }

    /** A matched probe ({@code MPI_Improbe}) of rank 1 against the cancel, lock-free mailboxes. */
    @JCStressTest
    @State
    public static class LockFreeMatchedProbe extends SendCancelVersusReceive {
        public LockFreeMatchedProbe() {
            super(MatchingKind.LOCK_FREE, false);
        }

        @Actor
        public void canceller() {
            cancel();
        }

        @Actor
        public void prober() {
            take();
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            check(r);
        }
    }

    /** A matched probe of rank 1 against the cancel, locked mailboxes. */
    @JCStressTest
    @State
    public static class LockedMatchedProbe extends SendCancelVersusReceive {
        public LockedMatchedProbe() {
            super(MatchingKind.LOCKED, false);
        }

        @Actor
        public void canceller() {
            cancel();
        }

        @Actor
        public void prober() {
            take();
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            check(r);
        }
    }
}
