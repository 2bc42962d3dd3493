package org.mpjlite.smpdev.wait;

/**
 * How a thread of the device waits until a {@link Condition} holds: the one wait path of every
 * blocking MPI call (receive, wait, probe, init, detach, collectives).
 *
 * <p>Every strategy, each round, lets the waiter match what has arrived, checks the condition,
 * checks that the job is alive and that the thread was not interrupted, and ends up parked on the
 * waiter's {@link Doorbell} until a signaller rings it: none spins without bound. They differ in
 * what comes before the park ({@link #forMode}).
 *
 * <p>Thread safety: implementations are immutable; any number of threads may wait at once.
 */
public interface WaitStrategy {
    /**
     * Returns when {@code condition} holds. Throws the job-failure error if the job fails, and an
     * interruption error (interrupt flag restored) if the thread is interrupted.
     *
     * @param call the MPI call waiting, for error messages ({@code "Recv"})
     */
    void await(Waiter waiter, Condition condition, String call);

    /**
     * True when a waiter never spins: it parks, at once or after yielding its core. The ranks
     * outnumber the cores, so a waiter is woken by a ring rather than seeing its condition while it
     * spins, and a thread that is running does the work its waiters would otherwise repeat (the
     * collective engine takes its oversubscribed paths).
     */
    default boolean neverSpins() {
        return false;
    }

    /**
     * The strategy for a job of {@code ranks} ranks waiting in {@code mode}: spin, yield, then park
     * while every rank has a core ({@link WaitMode#AUTO}) or always ({@link WaitMode#SPIN}); with
     * more ranks than cores ({@code AUTO}), where a spinning rank would steal the core of the rank it
     * waits for, yield, then park; park at once in {@link WaitMode#PARK}.
     *
     * @param spinNanos how long a spinning waiter spins before it yields
     * @param yields    how many times a spinning waiter then yields before it parks
     * @param spinsPerCheck spin rounds between checks of the clock, the job and the interrupt flag
     * @param oversubscribedYields how many times a waiter that does not spin (more ranks than
     *                  cores) yields before it parks
     * @param oversubscribedYieldNanos how long such a waiter keeps yielding before it parks (0:
     *                  only {@code oversubscribedYields} times); see {@link YieldThenParkWaitStrategy}
     */
    static WaitStrategy forMode(WaitMode mode, int ranks, long spinNanos, int yields, int spinsPerCheck,
                                int oversubscribedYields, long oversubscribedYieldNanos) {
        return switch (mode) {
            case SPIN -> new SpinThenParkWaitStrategy(spinNanos, yields, spinsPerCheck);
            case PARK -> new ParkingWaitStrategy();
            case AUTO -> ranks <= Runtime.getRuntime().availableProcessors()
                ? new SpinThenParkWaitStrategy(spinNanos, yields, spinsPerCheck)
                : new YieldThenParkWaitStrategy(oversubscribedYields, oversubscribedYieldNanos);
        };
    }
}
