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
 * No lost wake-up on abort: in a job with {@link WaitMode#PARK} (waits park at once), ranks 0 and 1
 * play {@link PingPong} and rank 1 then waits for a receive that no one will ever match; the signal fails
 * the job ({@code Job.fail}, what an uncaught exception or {@code MPI_Abort} in some rank does), landing
 * during the ping-pong or during the final wait. The waiter must wake and throw the job-failure error.
 * A Wait that returns normally, with no message, is itself a bug, reported as an {@code ERROR} outcome.
 *
 * <p>{@code TERMINATED} is the only acceptable outcome; {@code STALE} (still parked in a failed job)
 * is a lost wake-up, {@code ERROR} a Wait that did not report the failure: both FORBIDDEN.
 */
@Outcome(id = "TERMINATED", expect = Expect.ACCEPTABLE, desc = "Woken by the failure, Wait threw.")
@Outcome(id = "STALE", expect = Expect.FORBIDDEN, desc = "Lost wake-up: still parked in a failed job.")
@Outcome(id = "ERROR", expect = Expect.FORBIDDEN, desc = "Wait returned normally in a failed job.")
public abstract class WakeOnAbort {
    private final Job job;
    private final RecvRequest recv;

    WakeOnAbort(MatchingKind matching) {
        job = Device.job(matching, 2, Tunables.DEFAULT_EAGER_THRESHOLD, WaitMode.PARK);
        recv = Device.recv(job, 1, 0, 0, new int[1]);
    }

    void await() {
        try {
            PingPong.startRank0(job);
            PingPong.rank1(job);
            recv.await("Wait");
        } catch (RuntimeException jobFailed) {
            if (!job.failed()) {
                throw jobFailed;
            }
            return;
        }
        throw new IllegalStateException("Wait returned although no message was sent and the job failed");
    }

    void abort() {
        job.fail(0, new IllegalStateException("rank 0 aborts"));
    }

    /** With {@link MatchingKind#LOCKED} mailboxes. */
    @JCStressTest(Mode.Termination)
    @State
    public static class Locked extends WakeOnAbort {
        public Locked() {
            super(MatchingKind.LOCKED);
        }

        @Actor
        public void waiter() {
            await();
        }

        @Signal
        public void aborter() {
            abort();
        }
    }

    /** With {@link MatchingKind#LOCK_FREE} mailboxes. */
    @JCStressTest(Mode.Termination)
    @State
    public static class LockFree extends WakeOnAbort {
        public LockFree() {
            super(MatchingKind.LOCK_FREE);
        }

        @Actor
        public void waiter() {
            await();
        }

        @Signal
        public void aborter() {
            abort();
        }
    }
}
