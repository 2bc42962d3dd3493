package org.mpjlite.stress.broken;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * MUST FAIL: the shape of {@link org.mpjlite.stress.WakeOnArrival} (a waiter parks until a message
 * arrives; the signal delivers it and rings) on the broken {@link RacyDoorbell}. A signal that lands
 * between the waiter's check and its registration is lost and the waiter stays parked: {@code STALE},
 * FORBIDDEN. The build fails if jcstress does not report this test as failed.
 */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = Expect.ACCEPTABLE, desc = "Woken when the message arrived.")
@Outcome(id = "STALE", expect = Expect.FORBIDDEN, desc = "Lost wake-up: still parked after the message arrived.")
@State
public class RacyDoorbellWakeup {
    private final RacyDoorbell bell = new RacyDoorbell();
    private volatile boolean arrived;

    @Actor
    public void waiter() {
        bell.await(() -> arrived);
    }

    @Signal
    public void sender() {
        arrived = true;
        bell.ring();
    }
}
