package org.mpjlite.smpdev.wait;

/**
 * What a waiter waits for: polled by a {@link WaitStrategy} after the waiter's arrivals have been
 * matched ({@link Waiter#progress}). Only the polling side lives here; what a deadlock report says
 * about a wait is the diagnostics package's concern.
 *
 * <p>Whoever makes the condition true must do so with a volatile write (or stronger) and then ring
 * the waiter's {@link Doorbell}, so that a parked waiter re-checks it.
 */
@FunctionalInterface
public interface Condition {
    /** True once the wait is over; called by the waiting thread only. */
    boolean isMet();

    /**
     * True while another thread is known to be finishing the work this waiter waits for (a peer
     * copying a message into its buffer): a spinning waiter keeps spinning instead of parking,
     * because the wake-up would cost more than the rest of the copy.
     */
    default boolean isImminent() {
        return false;
    }
}
