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
 * No lost wake-up on arrival: in a job with {@link WaitMode#PARK} (every wait parks on the rank's
 * doorbell at once, without spinning), ranks 0 and 1 first play {@link PingPong} (each round a fresh
 * race between a parking waiter and the peer's ring), then rank 1 waits ({@code Request.await}) for a
 * posted receive that the signal's message, sent from rank 0, matches. Whether a send lands before the
 * waiter registers on the doorbell, between its registration and its re-check, or after it parked, the
 * waiter must return.
 *
 * <p>Three ways in: the message claims the posted receive and completes it on the sender's thread (a
 * volatile write, then the ring); or, where an earlier receive that the message does not match is
 * posted first (the only one senders may claim), rank 1's threads match it after it entered, in
 * {@code LockFreeRing}, a cell of rank 0's message ring (opened first; one int: the ring's atomic
 * add, the cell's release, then the ring) or, in {@code LockFreeInbox}, the lock-free inbox (32 ints, too long for
 * a cell: the inbox's atomic add, then the ring). No fence in between on either.
 *
 * <p>{@code TERMINATED} is the only acceptable outcome; {@code STALE} (still parked after the message
 * arrived, in the ping-pong or at the end) is a lost wake-up: FORBIDDEN.
 */
@Outcome(id = "TERMINATED", expect = Expect.ACCEPTABLE, desc = "Woken when the message arrived.")
@Outcome(id = "STALE", expect = Expect.FORBIDDEN, desc = "Lost wake-up: still parked after the message arrived.")
@Outcome(id = "ERROR", expect = Expect.FORBIDDEN, desc = "Wait threw: the device failed.")
public abstract class WakeOnArrival {
    private static final int TAG = 1;

    private final Job job;
    private final RecvRequest recv;
    private final int width;

    WakeOnArrival(MatchingKind matching, boolean unclaimable, int width, boolean ring) {
        this.width = width;
        job = Device.job(matching, 2, Tunables.DEFAULT_EAGER_THRESHOLD, WaitMode.PARK);
        if (ring) {
            Device.openRing(job, 0, 1);
        }
        if (unclaimable) {
            Device.recv(job, 1, 0, TAG + 1, new int[1]);
        }
        recv = Device.recv(job, 1, 0, TAG, new int[width]);
    }

    void await() {
        PingPong.startRank0(job);
        PingPong.rank1(job);
        recv.await("Wait");
    }

    void send() {
        Device.send(job, 0, 1, TAG, Device.payload(42, width));
    }

    /** With {@link MatchingKind#LOCKED} mailboxes. */
    @JCStressTest(Mode.Termination)
    @State
    public static class Locked extends WakeOnArrival {
        public Locked() {
            super(MatchingKind.LOCKED, false, 1, false);
        }

        @Actor
        public void waiter() {
            await();
        }

        @Signal
        public void sender() {
            send();
        }
    }

    /** With {@link MatchingKind#LOCK_FREE} mailboxes. */
    @JCStressTest(Mode.Termination)
    @State
    public static class LockFree extends WakeOnArrival {
        public LockFree() {
            super(MatchingKind.LOCK_FREE, false, 1, false);
        }

        @Actor
        public void waiter() {
            await();
        }

        @Signal
        public void sender() {
            send();
        }
    }

    /** With {@link MatchingKind#LOCK_FREE} mailboxes, the message through a cell of the sender's ring. */
    @JCStressTest(Mode.Termination)
    @State
    public static class LockFreeRing extends WakeOnArrival {
        public LockFreeRing() {
            super(MatchingKind.LOCK_FREE, true, 1, true);
        }

        @Actor
        public void waiter() {
            await();
        }

        @Signal
        public void sender() {
            send();
        }
    }

    /** With {@link MatchingKind#LOCK_FREE} mailboxes, the message (too long for a cell) through the inbox. */
    @JCStressTest(Mode.Termination)
    @State
    public static class LockFreeInbox extends WakeOnArrival {
        public LockFreeInbox() {
            super(MatchingKind.LOCK_FREE, true, Device.FILLED_WIDTH, false);
        }

        @Actor
        public void waiter() {
            await();
        }

        @Signal
        public void sender() {
            send();
        }
    }
}
