package org.mpjlite.smpdev.wait;

import java.util.concurrent.locks.LockSupport;
import org.mpjlite.smpdev.error.ErrorClass;
import org.mpjlite.smpdev.error.Errors;

/**
 * Parks at once: the strategy of {@link WaitMode#PARK}. Also the parking phase of
 * {@link SpinThenParkWaitStrategy} and {@link YieldThenParkWaitStrategy}.
 *
 * <p>Each round: check the job and the interrupt flag, record the blocked call (once per call, not
 * per park: the deadlock detector recognizes a rank that stays in the same wait across its probes)
 * and count the park, park on the doorbell, match arrivals, re-check the condition. Immutable; thread-safe.
 */
final class ParkingWaitStrategy implements WaitStrategy {
    @Override
    public void await(Waiter waiter, Condition condition, String call) {
        waiter.progress();
        if (!condition.isMet()) {
            parkUntilMet(waiter, condition, call);
        }
    }

    @Override
    public boolean neverSpins() {
        return true;
    }

    /** Parks until {@code condition} holds; the caller has just found it false. */
    static void parkUntilMet(Waiter waiter, Condition condition, String call) {
        Object blocked = null;
        try {
            do {
                checkWaiting(waiter, call);
                if (blocked == null) {
                    blocked = waiter.enterBlocked(condition, call);
                }
                waiter.parking(blocked);
                parkOnce(waiter, condition);
                waiter.progress();
            } while (!condition.isMet());
        } finally {
            if (blocked != null) {
                waiter.leaveBlocked(blocked);
            }
        }
    }

    /** The checks of every slow round: the job still alive, the thread not interrupted. */
    static void checkWaiting(Waiter waiter, String call) {
        waiter.checkAlive(call);
        if (Thread.currentThread().isInterrupted()) {
            throw Errors.error(ErrorClass.ERR_OTHER, call + ": " + waiter + " was interrupted while waiting",
                new InterruptedException());
        }
    }

    /**
     * One park, after the Dekker handshake of {@link Doorbell}: register, pass the owner lock (for
     * completions the mailbox makes without a fence, {@link Waiter#passOwnerLock}), re-check, park;
     * or yield instead, when a message is on its way ({@link Waiter#hasArrivals}).
     */
    private static void parkOnce(Waiter waiter, Condition condition) {
        Thread me = Thread.currentThread();
        Doorbell bell = waiter.doorbell();
        bell.add(me);
        try {
            waiter.passOwnerLock();
            waiter.progress();
            if (condition.isMet() || waiter.jobFailed() || me.isInterrupted()) {
                return;
            }
            if (waiter.hasArrivals()) {
                // A message on its way whose sender is between taking its place and storing it: a
                // few instructions away while it runs, but it may have lost its core (more threads
                // than cores), and a waiter that went round again at once would hold the core
                // against it.
                Thread.yield();
                return;
            }
            LockSupport.park(bell);
        } finally {
            bell.remove(me);
        }
    }
}
