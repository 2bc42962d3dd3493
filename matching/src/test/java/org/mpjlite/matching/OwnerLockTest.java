package org.mpjlite.matching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** {@link OwnerLock}: exclusion, visibility between holders, and a waiter that gets the lock once it is free. */
class OwnerLockTest {
    private static final int THREADS = 5;
    private static final int ROUNDS = 100_000;

    /** Plain fields: only the lock orders them. */
    private long count;
    private long shadow;

    @Test
    void threadsThatContendSeeEachOthersWritesAndNeverOverlap() throws Exception {
        OwnerLock lock = new OwnerLock();
        AtomicBoolean overlapped = new AtomicBoolean();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread thread = new Thread(() -> {
                awaitQuietly(start);
                for (int i = 0; i < ROUNDS; i++) {
                    lock.lock();
                    try {
                        if (count != shadow) {
                            overlapped.set(true);
                        }
                        count++;
                        if (i % 1024 == 0) {
                            Thread.yield(); // a holder descheduled in its section: the others queue and park
                        }
                        shadow = count;
                    } finally {
                        lock.unlock();
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(thread.isAlive(), "a thread is still waiting for the lock");
        }
        assertFalse(overlapped.get(), "two threads were inside at once");
        assertEquals((long) THREADS * ROUNDS, count);
        assertEquals(count, shadow);
        assertFalse(lock.isHeld());
    }

    @Test
    void tryLockFailsWhileHeldAndSucceedsOnceReleased() {
        OwnerLock lock = new OwnerLock();
        assertTrue(lock.tryLock());
        assertTrue(lock.isHeld());
        assertFalse(lock.tryLock());
        lock.unlock();
        assertFalse(lock.isHeld());
        assertTrue(lock.tryLock());
        lock.unlock();
    }

    @Test
    void aParkedWaiterTakesTheLockOnceItIsReleased() throws Exception {
        OwnerLock lock = new OwnerLock();
        lock.lock();
        AtomicBoolean inside = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            lock.lock();
            inside.set(true);
        });
        waiter.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        boolean parked = false;
        while (!parked && System.nanoTime() < deadline) {
            parked = waiter.getState() == Thread.State.TIMED_WAITING; // spun out and parked (it re-checks now and then)
        }
        assertTrue(parked, "the waiter should park while the lock is held");
        assertFalse(inside.get());
        lock.unlock();
        waiter.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(waiter.isAlive(), "the waiter did not get the released lock");
        assertTrue(inside.get());
        assertTrue(lock.isHeld(), "the waiter holds it now");
        assertFalse(lock.tryLock());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
