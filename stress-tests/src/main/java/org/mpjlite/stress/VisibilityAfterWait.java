package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.mpjlite.smpdev.wait.WaitMode;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Visibility after Wait: rank 0 fills a fresh array of {@value #N} ints with a pattern and sends it;
 * rank 1 receives it and waits ({@code Request.await}, the device's Wait). After Wait returns, every
 * element the sender wrote before the send must be in the receive buffer: a happens-before edge from
 * the sender's writes, through the mailbox and the copy (on whichever thread made the match), to the
 * waiter. Run eagerly (the data travels in a stash) and by rendezvous (eager threshold 0: the receiver,
 * or a sender that found the receive posted, copies straight from the sender's array). Reported:
 * (elements with the pattern, status count).
 *
 * <p>Only {@code 256, 256} is acceptable; fewer elements means Wait returned before the data was
 * visible (or the copy was torn): FORBIDDEN. A lost message would hang Wait, which jcstress reports as
 * a failed (timed-out) run, never as an acceptable outcome.
 */
@Outcome(id = "256, 256", expect = Expect.ACCEPTABLE, desc = "Every element visible after Wait.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Wait returned but some of the data (or the status) is not visible.")
public abstract class VisibilityAfterWait {
    static final int N = 256;
    private static final int TAG = 2;

    private final Job job;
    private final int[] received = new int[N];

    VisibilityAfterWait(MatchingKind matching, int eagerThreshold) {
        job = Device.job(matching, 2, eagerThreshold, WaitMode.AUTO);
    }

    void send() {
        int[] data = new int[N];
        for (int i = 0; i < N; i++) {
            data[i] = pattern(i);
        }
        Device.send(job, 0, 1, TAG, data);
    }

    void receiveAndWait(II_Result r) {
        RecvRequest recv = Device.recv(job, 1, 0, TAG, received);
        recv.await("Wait");
        int good = 0;
        for (int i = 0; i < N; i++) {
            if (received[i] == pattern(i)) {
                good++;
            }
        }
        r.r1 = good;
        r.r2 = recv.statusCount();
    }

    private static int pattern(int i) {
        return i * 0x9E3779B9 | 1;
    }

    /** Eager protocol, {@link MatchingKind#LOCKED}. */
    @JCStressTest
    @State
    public static class EagerLocked extends VisibilityAfterWait {
        public EagerLocked() {
            super(MatchingKind.LOCKED, Tunables.DEFAULT_EAGER_THRESHOLD);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void receiver(II_Result r) {
            receiveAndWait(r);
        }
    }

    /** Eager protocol, {@link MatchingKind#LOCK_FREE}. */
    @JCStressTest
    @State
    public static class EagerLockFree extends VisibilityAfterWait {
        public EagerLockFree() {
            super(MatchingKind.LOCK_FREE, Tunables.DEFAULT_EAGER_THRESHOLD);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void receiver(II_Result r) {
            receiveAndWait(r);
        }
    }

    /** Rendezvous protocol, {@link MatchingKind#LOCKED}. */
    @JCStressTest
    @State
    public static class RendezvousLocked extends VisibilityAfterWait {
        public RendezvousLocked() {
            super(MatchingKind.LOCKED, 0);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void receiver(II_Result r) {
            receiveAndWait(r);
        }
    }

    /** Rendezvous protocol, {@link MatchingKind#LOCK_FREE}. */
    @JCStressTest
    @State
    public static class RendezvousLockFree extends VisibilityAfterWait {
        public RendezvousLockFree() {
            super(MatchingKind.LOCK_FREE, 0);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void receiver(II_Result r) {
            receiveAndWait(r);
        }
    }
}
