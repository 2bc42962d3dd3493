package org.mpjlite.smpdev.wait;

/**
 * The one who waits, as a {@link WaitStrategy} sees it: a rank of the device. The strategy asks it
 * to match what has arrived, to check that the job is still alive, where to park, and tells it
 * when a blocking call parks and leaves (which the deadlock detector watches).
 *
 * <p>Implementations are thread-safe: several threads of one rank may wait at once.
 */
public interface Waiter {
    /** Lets the waiter's mailbox match whatever has arrived, so that a condition can become true. */
    void progress();

    /**
     * Takes and releases the lock under which the waiter's mailbox completes receives without a
     * fence ({@code Mailbox.passOwnerLock}): a thread registered on the doorbell calls it before it
     * re-checks its condition, so that it either sees such a completion or is seen by its ring.
     */
    void passOwnerLock();

    /**
     * True if a message may have arrived that {@link #progress} has not matched yet, its sender
     * between taking its place and storing it: a waiter registered on the doorbell yields and
     * re-checks instead of parking, since that sender may have read the doorbell before it
     * registered.
     */
    boolean hasArrivals();

    /** Throws the job-failure error if the job has failed (cheap: one volatile read otherwise). */
    void checkAlive(String call);

    /** True once the job has failed: a waiter about to park must not. */
    boolean jobFailed();

    /** Where the waiter's threads park, and what signallers ring. */
    Doorbell doorbell();

    /**
     * The calling thread is about to park in {@code call} for the first time in this blocking
     * call (slow path only); returns a token for {@link #leaveBlocked}.
     */
    Object enterBlocked(Condition condition, String call);

    /**
     * The calling thread is about to park (again) in the blocking call {@code token} stands for:
     * counted, so that the deadlock detector can tell a thread that saw its ring and went back to
     * sleep from one that has not run since.
     */
    void parking(Object token);

    /** The calling thread leaves the blocking call that {@link #enterBlocked} returned {@code token} for. */
    void leaveBlocked(Object token);
}
