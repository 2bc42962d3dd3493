package org.mpjlite.smpdev.wait;

/**
 * Spins for a while, yields a few times, then parks ({@link ParkingWaitStrategy}): the strategy of
 * a job whose ranks each have a core, where a reply often arrives within microseconds and a park
 * and unpark would cost more than the wait.
 *
 * <p>The hot spin polls only the condition; the job's health, the interrupt flag and the clock are
 * checked every {@code spinsPerCheck} rounds, so a reply is noticed within a pause or two. A
 * spin that runs out while a peer is copying into the waiter's buffer ({@link Condition#isImminent})
 * is extended rather than parked. Immutable; thread-safe.
 */
final class SpinThenParkWaitStrategy implements WaitStrategy {
    private final long spinNanos;
    private final int yields;
    private final int spinsPerCheck;

    SpinThenParkWaitStrategy(long spinNanos, int yields, int spinsPerCheck) {
        this.spinNanos = spinNanos;
        this.yields = yields;
        this.spinsPerCheck = spinsPerCheck;
    }

    @Override
    public void await(Waiter waiter, Condition condition, String call) {
        waiter.progress();
        if (condition.isMet() || spin(waiter, condition, call)) {
            return;
        }
        ParkingWaitStrategy.parkUntilMet(waiter, condition, call);
    }

    /** Spins, then yields; true if the condition came true meanwhile, false if it is time to park. */
    private boolean spin(Waiter waiter, Condition condition, String call) {
        long spinUntil = System.nanoTime() + spinNanos;
        int spinsBeforeChecks = 0;
        for (;;) {
            if (--spinsBeforeChecks > 0) {
                Thread.onSpinWait();
            } else {
                ParkingWaitStrategy.checkWaiting(waiter, call);
                spinsBeforeChecks = spinsPerCheck;
                long now = System.nanoTime();
                if (now - spinUntil > 0) {
                    if (!condition.isImminent()) {
                        break;
                    }
                    spinUntil = now + spinNanos;
                }
            }
            waiter.progress();
            if (condition.isMet()) {
                return true;
            }
        }
        return YieldThenParkWaitStrategy.yieldUntilMet(waiter, condition, call, yields, 0);
    }
}
