package org.mpjlite.smpdev;

import java.util.concurrent.locks.LockSupport;

/**
 * The one wait path of the device: every blocking MPI call (receive, wait, probe, init, detach)
 * waits here until its condition holds.
 *
 * <p>Each round it lets the rank's mailbox match whatever has arrived, checks the condition, checks
 * that the job is still alive and that the thread was not interrupted; then it spins (only while
 * every rank has a core, and only for {@link #spinNanos}), yields a little, and finally parks on the
 * rank's {@link Doorbell} until a signaller rings it.
 *
 * <p>Thread safety: immutable; any number of threads may wait at once.
 */
final class WaitStrategy {
    /** How long to spin before parking when spinning is allowed: long enough for a reply. */
    private static final long SPIN_NANOS = 50_000;
    private static final int YIELDS = 4;
    /** Spin rounds between checks of the clock, the job's health and the interrupt flag. */
    private static final int SPINS_PER_CHECK = 64;

    private final long spinNanos;
    private final int yields;

    private WaitStrategy(long spinNanos, int yields) {
        this.spinNanos = spinNanos;
        this.yields = yields;
    }

    static WaitStrategy forJob(WaitMode mode, int ranks) {
        boolean spin = mode == WaitMode.SPIN
            || (mode == WaitMode.AUTO && ranks <= Runtime.getRuntime().availableProcessors());
        return spin ? new WaitStrategy(SPIN_NANOS, YIELDS) : new WaitStrategy(0, 0);
    }

    boolean spins() {
        return spinNanos > 0;
    }

    /** Something a waiter waits for; evaluated after the mailbox has matched arrivals. */
    @FunctionalInterface
    interface Condition {
        boolean isMet();

        /**
         * True while another thread is known to be finishing the work this waiter waits for (a
         * peer copying a message into its buffer): a spinning waiter keeps spinning instead of
         * parking, because the wake-up would cost more than the rest of the copy.
         */
        default boolean isImminent() {
            return false;
        }

        /**
         * What is waited for, for a deadlock report: the arguments of the blocked call
         * ({@code source=1, tag=7, comm=MPI.COMM_WORLD}); empty if there is nothing to add to the
         * call's name.
         */
        default String describe(Job job) {
            return "";
        }

        /**
         * Adds the world ranks whose action could satisfy this wait (the wait-for graph of a
         * deadlock report). By default any rank could.
         */
        default void addAwaitedRanks(Job job, java.util.BitSet ranks) {
            ranks.set(0, job.size());
        }
    }

    /**
     * Returns when {@code condition} holds. Throws the job-failure error if another rank fails or the
     * job aborts, and an interruption error (interrupt flag restored) if the thread is interrupted.
     *
     * @param what the MPI call waiting, for error messages ({@code "Recv"})
     */
    void await(Rank rank, Condition condition, String what) {
        rank.mailbox().progress();
        if (condition.isMet()) {
            return;
        }
        BlockedCall blocked = null;
        try {
            blocked = spinThenPark(rank, condition, what);
        } finally {
            if (blocked != null) {
                rank.clearBlocked(blocked);
            }
        }
    }

    /** The waiting loop; returns the blocked-call record it published if it parked, else null. */
    private BlockedCall spinThenPark(Rank rank, Condition condition, String what) {
        final Job job = rank.job();
        BlockedCall blocked = null;
        long spinUntil = spinNanos > 0 ? System.nanoTime() + spinNanos : 0;
        int spinsBeforeChecks = 0;
        int yieldsLeft = yields;
        for (;;) {
            if (spinUntil != 0 && --spinsBeforeChecks > 0) {
                // The hot spin: only the condition is polled; the rarer checks below run every
                // SPINS_PER_CHECK rounds, so a reply is noticed within a pause or two.
                Thread.onSpinWait();
            } else {
                job.checkAlive(rank, what);
                if (Thread.currentThread().isInterrupted()) {
                    throw interrupted(rank, what);
                }
                if (spinUntil != 0) {
                    spinsBeforeChecks = SPINS_PER_CHECK;
                    long now = System.nanoTime();
                    if (now - spinUntil > 0) {
                        spinUntil = condition.isImminent() ? now + spinNanos : 0;
                    }
                } else if (yieldsLeft > 0) {
                    yieldsLeft--;
                    Thread.yield();
                } else {
                    if (blocked == null) {
                        // Published once per blocking call, not per park: the deadlock detector
                        // recognizes a rank that stays in the same wait across its probes.
                        blocked = rank.publishBlocked(condition, what);
                    }
                    parkOnce(rank, condition);
                }
            }
            rank.mailbox().progress();
            if (condition.isMet()) {
                return blocked;
            }
        }
    }

    private static void parkOnce(Rank rank, Condition condition) {
        Thread me = Thread.currentThread();
        Doorbell bell = rank.doorbell();
        bell.add(me);
        try {
            rank.mailbox().progress();
            if (condition.isMet() || rank.job().failed() || me.isInterrupted()) {
                return;
            }
            LockSupport.park(bell);
        } finally {
            bell.remove(me);
        }
    }

    private static RuntimeException interrupted(Rank rank, String what) {
        return Errors.error(ErrorClass.ERR_OTHER,
            what + ": rank " + rank.id() + " was interrupted while waiting", new InterruptedException());
    }
}
