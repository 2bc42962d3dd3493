package org.mpjlite.smpdev.wait;

/**
 * Yields a few times, then parks ({@link ParkingWaitStrategy}): the strategy of a job with more
 * ranks than cores. A yield hands the core to another runnable rank, often the one the waiter
 * waits for, which then runs on the waiter's core and replies before the waiter would even have
 * parked; a park and the unpark that ends it cost more (a futex call each way, and on a virtual
 * machine a halted virtual CPU to wake). A waiter does not spin: when no other thread is runnable a
 * yield returns at once, and after {@code yields} of them the waiter parks.
 *
 * <p>{@link #neverSpins}: its waiters do not hold a core while they wait, so the collective engine
 * takes its paths for more ranks than cores. Immutable; thread-safe.
 */
final class YieldThenParkWaitStrategy implements WaitStrategy {
    private final int yields;

    YieldThenParkWaitStrategy(int yields) {
        this.yields = yields;
    }

    @Override
    public void await(Waiter waiter, Condition condition, String call) {
        waiter.progress();
        if (condition.isMet() || yieldUntilMet(waiter, condition, call, yields)) {
            return;
        }
        ParkingWaitStrategy.parkUntilMet(waiter, condition, call);
    }

    @Override
    public boolean neverSpins() {
        return true;
    }

    /**
     * Yields up to {@code yields} times, each followed by a round of matching; true if the
     * condition came true meanwhile, false if it is time to park.
     */
    static boolean yieldUntilMet(Waiter waiter, Condition condition, String call, int yields) {
        for (int i = 0; i < yields; i++) {
            ParkingWaitStrategy.checkWaiting(waiter, call);
            Thread.yield();
            waiter.progress();
            if (condition.isMet()) {
                return true;
            }
        }
        return false;
    }
}
