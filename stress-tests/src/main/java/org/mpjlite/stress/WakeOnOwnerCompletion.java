package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.mpjlite.smpdev.wait.WaitMode;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * No lost wake-up when the rank's own mailbox completes a receive without a fence: in a job with
 * {@link WaitMode#PARK} (every wait parks at once), a small message from rank 0 is already waiting
 * for rank 1's posted receive, in a cell of rank 0's message ring ({@code Ring}) or in rank 1's
 * receive line ({@code Line}), when one thread of rank 1 waits for that receive
 * ({@code Request.await}) and another thread of rank 1 lets its mailbox match ({@code progress}).
 * Whichever thread matches it completes the receive with a release store under the owner lock and
 * rings only the threads already registered on the doorbell; nothing else rings. The waiter
 * passes the owner lock after registering, so it sees the completion or is rung.
 *
 * <p>{@code TERMINATED} is the only acceptable outcome; {@code STALE} (still parked after the
 * receive completed) is a lost wake-up: FORBIDDEN.
 */
@Outcome(id = "TERMINATED", expect = Expect.ACCEPTABLE, desc = "Returned once the receive completed.")
@Outcome(id = "STALE", expect = Expect.FORBIDDEN, desc = "Lost wake-up: still parked after the receive completed.")
@Outcome(id = "ERROR", expect = Expect.FORBIDDEN, desc = "Wait threw: the device failed.")
public abstract class WakeOnOwnerCompletion {
    private static final int TAG = 1;

    private final Job job;
    private final RecvRequest recv;

    WakeOnOwnerCompletion(boolean ring) {
        job = Device.job(MatchingKind.LOCK_FREE, 2, Tunables.DEFAULT_EAGER_THRESHOLD, WaitMode.PARK);
        if (ring) {
            Device.openRing(job, 0, 1);
            Device.recv(job, 1, 0, TAG + 1, new int[1]); // published first: the message cannot claim the receive below
        }
        recv = Device.recv(job, 1, 0, TAG, new int[1]);
        Device.send(job, 0, 1, TAG, 42);
    }

    void await() {
        recv.await("Wait");
        if (recv.statusCount() != 1) {
            throw new IllegalStateException("completed with " + recv.statusCount() + " elements, not 1");
        }
    }

    void matchOnOtherThread() {
        Device.progress(job, 1);
    }

    /** The message in a cell of the sender's ring, matched from there. */
    @JCStressTest(Mode.Termination)
    @State
    public static class Ring extends WakeOnOwnerCompletion {
        public Ring() {
            super(true);
        }

        @Actor
        public void waiter() {
            await();
        }

        @Signal
        public void otherThread() {
            matchOnOtherThread();
        }
    }

    /** The message in the receiver's receive line, which the sender claimed. */
    @JCStressTest(Mode.Termination)
    @State
    public static class Line extends WakeOnOwnerCompletion {
        public Line() {
            super(false);
        }

        @Actor
        public void waiter() {
            await();
        }

        @Signal
        public void otherThread() {
            matchOnOtherThread();
        }
    }
}
