package org.mpjlite.stress.broken;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * DELIBERATELY BROKEN: the device's doorbell protocol with the registration and the re-check swapped.
 * A waiter checks its condition and only then registers and parks; a signal that makes the condition
 * true and rings between the check and the registration finds nobody to wake, and the waiter parks for
 * good. The real {@code org.mpjlite.smpdev.wait.Doorbell} registers first, then re-checks, then parks.
 * Exists to prove that a ping-pong Termination test like {@link org.mpjlite.stress.WakeOnArrival}
 * catches it.
 */
final class RacyDoorbell {
    private final Set<Thread> parked = ConcurrentHashMap.newKeySet();

    void ring() {
        for (Thread t : parked) {
            LockSupport.unpark(t);
        }
    }

    /** Waits until {@code condition} holds: check, then register, then park (the bug). */
    void await(BooleanSupplier condition) {
        Thread me = Thread.currentThread();
        while (!condition.getAsBoolean()) {
            Thread.yield(); // where a preempted waiter would lose the CPU: widens the window
            parked.add(me);
            LockSupport.park(this);
            parked.remove(me);
        }
    }
}
