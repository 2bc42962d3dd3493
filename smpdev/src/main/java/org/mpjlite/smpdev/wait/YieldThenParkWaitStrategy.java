package org.mpjlite.smpdev.wait;

/**
 * Yields, then parks ({@link ParkingWaitStrategy}): the strategy of a job with more ranks than
 * cores. A yield hands the core to another runnable rank, often the one the waiter waits for, which
 * then runs on the waiter's core and replies before the waiter would even have parked; a park and
 * the unpark that ends it cost more (a futex call each way, and on a virtual machine a halted
 * virtual CPU to wake: tens of microseconds). A waiter yields {@code yields} times, and for
 * platform threads keeps yielding until {@code yieldNanos} have passed since its wait began; when
 * no other thread is runnable on its core a yield returns at once, so that bound is how long a
 * waiter with a core to itself (3 ranks on 2 cores: the odd one) holds it before it parks. Virtual
 * threads take {@code yieldNanos} 0: their yield goes through the carrier's scheduler queue, and
 * 64 virtual ranks that kept yielding for 20 microseconds ran a Barrier plus Allreduce 1.2-1.5 times
 * slower.
 *
 * <p>{@link #neverSpins}: its waiters do not hold a core while another rank could use it, so the
 * collective engine takes its paths for more ranks than cores. Immutable; thread-safe.
 */
final class YieldThenParkWaitStrategy implements WaitStrategy {
    private final int yields;
    private final long yieldNanos;

    YieldThenParkWaitStrategy(int yields, long yieldNanos) {
        this.yields = yields;
        this.yieldNanos = yieldNanos;
    }

    @Override
    public void await(Waiter waiter, Condition condition, String call) {
        waiter.progress();
        if (condition.isMet() || yieldUntilMet(waiter, condition, call, yields, yieldNanos)) {
            return;
        }
        ParkingWaitStrategy.parkUntilMet(waiter, condition, call);
    }

    @Override
    public boolean neverSpins() {
        return true;
    }

    /**
     * Yields at least {@code yields} times and until {@code yieldNanos} have passed, each yield
     * followed by a round of matching; true if the condition came true meanwhile, false if it is
     * time to park.
     */
    static boolean yieldUntilMet(Waiter waiter, Condition condition, String call, int yields, long yieldNanos) {
        long until = yieldNanos > 0 ? System.nanoTime() + yieldNanos : 0;
        for (int i = 0; i < yields || yieldNanos > 0 && System.nanoTime() - until < 0; i++) {
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
