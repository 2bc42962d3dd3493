package org.mpjlite.stress.broken;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * MUST FAIL: {@link org.mpjlite.stress.WakeOnArrival}'s shape on the broken {@link RacyDoorbell}: two
 * "ranks", each with its own doorbell, bounce a counter {@value #ROUNDS} times (each waiting, parked,
 * for the other's increment), then the waiter waits for the signal. A ring that lands between a
 * waiter's check and its registration is lost and both sides stay parked: {@code STALE}, FORBIDDEN.
 * The build fails if jcstress does not report this test as failed.
 */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = Expect.ACCEPTABLE, desc = "Woken every time.")
@Outcome(id = "STALE", expect = Expect.FORBIDDEN, desc = "Lost wake-up: parked for good.")
@State
public class RacyDoorbellWakeup {
    private static final int ROUNDS = 100;

    private final RacyDoorbell bell0 = new RacyDoorbell();
    private final RacyDoorbell bell1 = new RacyDoorbell();
    private volatile int toRank0;
    private volatile int toRank1;
    private volatile boolean signalled;

    @Actor
    public void waiter() {
        Thread rank0 = new Thread(() -> {
            for (int i = 1; i <= ROUNDS; i++) {
                final int round = i;
                toRank1 = round;
                bell1.ring();
                bell0.await(() -> toRank0 >= round);
            }
        }, "racy-rank-0");
        rank0.setDaemon(true);
        rank0.start();
        for (int i = 1; i <= ROUNDS; i++) {
            final int round = i;
            bell1.await(() -> toRank1 >= round);
            toRank0 = round;
            bell0.ring();
        }
        bell1.await(() -> signalled);
    }

    @Signal
    public void sender() {
        signalled = true;
        bell1.ring();
    }
}
