package org.mpjlite.smpdev.wait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.smpdev.error.DeviceException;
import org.mpjlite.smpdev.error.ErrorClass;

/**
 * The wait strategies on their own, against a waiter that records what the strategy asks of it:
 * no rank, job or mailbox is needed, since the package uses nothing else of the device.
 */
class WaitStrategyTest {
    /** Every strategy, with a spin short enough to reach the park quickly. */
    static Stream<WaitStrategy> strategies() {
        return Stream.of(new ParkingWaitStrategy(), new SpinThenParkWaitStrategy(1_000_000, 2, 64),
            new YieldThenParkWaitStrategy(4, 0), new YieldThenParkWaitStrategy(2, 1_000_000));
    }

    /** A waiter whose job fails on demand, counting progress calls and recording blocked calls. */
    private static final class FakeWaiter implements Waiter {
        final Doorbell bell = new Doorbell();
        final AtomicInteger progress = new AtomicInteger();
        final AtomicInteger lockPasses = new AtomicInteger();
        final List<String> entered = new CopyOnWriteArrayList<>();
        final List<Object> left = new CopyOnWriteArrayList<>();
        volatile boolean failed;
        /** Run at each pass of the owner lock: what the owner completed in its critical section. */
        volatile Runnable atPass;
        /** What {@link #hasArrivals} says: a sender is storing a message, and will not ring. */
        volatile boolean arriving;

        @Override
        public void progress() {
            progress.incrementAndGet();
        }

        @Override
        public void passOwnerLock() {
            lockPasses.incrementAndGet();
            Runnable r = atPass;
            if (r != null) {
                r.run();
            }
        }

        @Override
        public boolean hasArrivals() {
            return arriving;
        }

        @Override
        public void checkAlive(String call) {
            if (failed) {
                throw new DeviceException(ErrorClass.ERR_PROC_ABORTED, call + ": the job failed", null);
            }
        }

        @Override
        public boolean jobFailed() {
            return failed;
        }

        @Override
        public Doorbell doorbell() {
            return bell;
        }

        @Override
        public Object enterBlocked(Condition condition, String call) {
            entered.add(call);
            return call;
        }

        @Override
        public void parking(Object token) {
        }

        @Override
        public void leaveBlocked(Object token) {
            left.add(token);
        }

        @Override
        public String toString() {
            return "waiter";
        }
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void aConditionAlreadyMetReturnsAfterOneProgressWithoutBlocking(WaitStrategy strategy) {
        FakeWaiter w = new FakeWaiter();
        strategy.await(w, () -> true, "Wait");
        assertEquals(1, w.progress.get());
        assertTrue(w.entered.isEmpty());
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void aParkedWaiterIsWokenByTheRingAndLeavesItsBlockedCallOnce(WaitStrategy strategy) throws Exception {
        FakeWaiter w = new FakeWaiter();
        boolean[] go = new boolean[1];
        Thread t = new Thread(() -> strategy.await(w, () -> {
            synchronized (go) {
                return go[0];
            }
        }, "Recv"));
        t.start();
        while (w.entered.isEmpty()) { // until it parks (bounded by the test timeout)
            Thread.sleep(1);
        }
        Thread.sleep(50); // spurious wake-ups re-park in the same blocked call
        assertEquals(List.of("Recv"), w.entered, "one blocked call, however often it re-parks");
        synchronized (go) {
            go[0] = true;
        }
        w.bell.ring();
        t.join(5_000);
        assertFalse(t.isAlive(), "woken by the ring");
        assertEquals(List.of("Recv"), w.entered);
        assertEquals(List.<Object>of("Recv"), w.left);
    }

    /**
     * A sender that took its place before the waiter registered on the doorbell may have read the
     * doorbell empty and will not ring: while the waiter sees a message arriving it must not park.
     * Here nothing rings; a parked waiter would stay parked past the test's timeout.
     */
    @ParameterizedTest
    @MethodSource("strategies")
    void aWaiterThatSeesAMessageArrivingDoesNotPark(WaitStrategy strategy) throws Exception {
        FakeWaiter w = new FakeWaiter();
        w.arriving = true;
        AtomicInteger checks = new AtomicInteger();
        Thread t = new Thread(() -> strategy.await(w, () -> checks.incrementAndGet() > 10_000, "Recv"));
        t.start();
        t.join(10_000);
        assertFalse(t.isAlive(), "kept re-checking while the message was arriving, without a ring");
        assertTrue(w.progress.get() > 10_000, "progress made at each re-check");
    }

    /**
     * The mailbox completes a receive under its owner lock without a fence and rings only the
     * threads already registered: a waiter must pass that lock after registering and re-check after
     * it. Here the completion happens in the pass, and nothing rings; a waiter that re-checked
     * before passing would stay parked past the test's timeout.
     */
    @ParameterizedTest
    @MethodSource("strategies")
    void aWaiterReChecksAfterPassingTheOwnerLock(WaitStrategy strategy) throws Exception {
        FakeWaiter w = new FakeWaiter();
        AtomicInteger done = new AtomicInteger();
        w.atPass = () -> done.set(1);
        Thread t = new Thread(() -> strategy.await(w, () -> done.get() == 1, "Wait"));
        t.start();
        t.join(10_000);
        assertFalse(t.isAlive(), "saw the completion made in the owner's critical section, without a ring");
        assertEquals(1, w.lockPasses.get(), "passed the owner lock once, before its one park");
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void anInterruptEndsTheWaitWithAnErrorAndKeepsTheFlag(WaitStrategy strategy) throws Exception {
        FakeWaiter w = new FakeWaiter();
        RuntimeException[] error = new RuntimeException[1];
        boolean[] flagKept = new boolean[1];
        Thread t = new Thread(() -> {
            try {
                strategy.await(w, () -> false, "Recv");
            } catch (RuntimeException e) {
                error[0] = e;
                flagKept[0] = Thread.currentThread().isInterrupted();
            }
        });
        t.start();
        Thread.sleep(100);
        t.interrupt();
        t.join(5_000);
        DeviceException e = assertInstanceOf(DeviceException.class, error[0]);
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
        assertTrue(e.getMessage().contains("Recv: waiter was interrupted while waiting"), e.getMessage());
        assertTrue(flagKept[0], "the interrupt flag is kept for the caller");
        assertEquals(w.entered.size(), w.left.size(), "a blocked call entered is left");
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void aJobFailureWakesTheWaiterWithTheJobsError(WaitStrategy strategy) throws Exception {
        FakeWaiter w = new FakeWaiter();
        RuntimeException[] error = new RuntimeException[1];
        Thread t = new Thread(() -> {
            try {
                strategy.await(w, () -> false, "Recv");
            } catch (RuntimeException e) {
                error[0] = e;
            }
        });
        t.start();
        Thread.sleep(100);
        w.failed = true;
        w.bell.ring();
        t.join(5_000);
        assertFalse(t.isAlive());
        assertEquals(ErrorClass.ERR_PROC_ABORTED, assertInstanceOf(DeviceException.class, error[0]).errorClass());
    }

    /** More ranks than cores: a condition that comes true during the yields ends the wait unparked. */
    @Test
    void aConditionMetWhileYieldingEndsTheWaitWithoutParking() {
        FakeWaiter w = new FakeWaiter();
        AtomicInteger checks = new AtomicInteger();
        new YieldThenParkWaitStrategy(4, 0).await(w, () -> checks.incrementAndGet() >= 3, "Recv");
        assertEquals(3, checks.get(), "checked after the first progress and after each of two yields");
        assertEquals(3, w.progress.get());
        assertTrue(w.entered.isEmpty(), "no blocked call recorded: it never parked");
        assertEquals(0, w.lockPasses.get());
    }

    /**
     * More ranks than cores, platform threads: a waiter keeps yielding for its time before it parks,
     * so a condition that comes true meanwhile ends the wait unparked even with no ring (a waiter
     * with a core to itself is not parked, its virtual CPU not halted, for a short wait).
     */
    @Test
    void aWaiterKeepsYieldingForItsTimeBeforeItParks() throws InterruptedException {
        FakeWaiter w = new FakeWaiter();
        AtomicBoolean met = new AtomicBoolean();
        Thread setter = new Thread(() -> {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                return;
            }
            met.set(true); // no ring: only a waiter still yielding sees it
        });
        long start = System.nanoTime();
        setter.start();
        new YieldThenParkWaitStrategy(2, 2_000_000_000L).await(w, met::get, "Recv");
        setter.join();
        assertTrue(w.entered.isEmpty(), "no blocked call recorded: it never parked");
        assertTrue(w.progress.get() > 3, "it yielded, matching after each yield, past its two yields");
        assertTrue(System.nanoTime() - start < 1_000_000_000L, "it returned once the condition held");
    }

    @Test
    void theModeAndTheRankCountChooseTheStrategy() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertInstanceOf(ParkingWaitStrategy.class, WaitStrategy.forMode(WaitMode.PARK, 1, 1, 1, 1, 1, 0));
        assertInstanceOf(SpinThenParkWaitStrategy.class, WaitStrategy.forMode(WaitMode.SPIN, cores + 1, 1, 1, 1, 1, 0));
        assertInstanceOf(SpinThenParkWaitStrategy.class, WaitStrategy.forMode(WaitMode.AUTO, cores, 1, 1, 1, 1, 0));
        assertInstanceOf(YieldThenParkWaitStrategy.class, WaitStrategy.forMode(WaitMode.AUTO, cores + 1, 1, 1, 1, 1, 0));
        assertInstanceOf(ParkingWaitStrategy.class, WaitStrategy.forMode(WaitMode.PARK, cores + 1, 1, 1, 1, 1, 0));
        assertTrue(WaitStrategy.forMode(WaitMode.AUTO, cores + 1, 1, 1, 1, 1, 0).neverSpins());
        assertFalse(WaitStrategy.forMode(WaitMode.AUTO, cores, 1, 1, 1, 1, 0).neverSpins());
    }

    @Test
    void anUnknownModeNameIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> WaitMode.parse("sometimes"));
        assertEquals(WaitMode.SPIN, WaitMode.parse(" spin "));
    }
}
