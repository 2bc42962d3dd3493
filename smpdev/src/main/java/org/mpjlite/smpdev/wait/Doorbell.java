package org.mpjlite.smpdev.wait;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * Wakes the threads of one rank that are parked waiting for something to happen to it: a message
 * arriving, a request completing, the job failing.
 *
 * <p>Protocol (a Dekker handshake): a waiter {@link #add}s itself, then re-checks its condition,
 * then parks; a signaller first makes the condition true (a volatile write, or the atomic update
 * of a queue's or a ring's producer index: the lock-free mailbox's inbox and rings), then
 * {@link #ring}s. Both sides' operations are
 * sequentially consistent, so either the signaller sees the waiter and unparks it, or the waiter's
 * re-check sees the condition: no wake-up is lost. The one signaller without a fence is the
 * rank's own mailbox completing a receive under its owner lock (a release store); the waiter
 * passes that lock between its {@code add} and its re-check ({@link Waiter#passOwnerLock}), so one
 * of the two critical sections comes first and the same holds.
 * {@link java.util.concurrent.locks.LockSupport#unpark} before {@code park} is remembered, so an
 * early ring is not lost either.
 *
 * <p>Thread safety: lock-free. The parked set is a copy-on-write array in a volatile field of the
 * doorbell itself: waiters (rare, slow path) pay a compare-and-set, and a lone waiter no
 * allocation; a ring with nobody parked (the common case) costs one volatile read, with no object
 * in between to load first.
 */
public final class Doorbell {
    private static final Thread[] NONE = new Thread[0];
    /**
     * Each thread's one-element parked set, reused for the common case of one waiter, so that a
     * wait that parks allocates nothing. Never changed once made; a signaller that still holds it
     * after its thread has left may unpark that thread once more, which a park tolerates.
     */
    private static final ThreadLocal<Thread[]> ALONE =
        ThreadLocal.withInitial(() -> new Thread[] {Thread.currentThread()});

    private static final VarHandle PARKED;

    static {
        try {
            PARKED = MethodHandles.lookup().findVarHandle(Doorbell.class, "parked", Thread[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The parked set, read by every ring: a field of its own, not behind another object. */
    private volatile Thread[] parked = NONE;

    /** Unparks every thread parked here; one volatile read when none is. */
    public void ring() {
        Thread[] waiters = parked;
        for (Thread t : waiters) {
            LockSupport.unpark(t);
        }
    }

    /** Registers {@code t} (the calling thread) before it re-checks its condition and parks. */
    public void add(Thread t) {
        for (;;) {
            Thread[] cur = parked;
            Thread[] next;
            if (cur.length == 0 && t == Thread.currentThread()) {
                next = ALONE.get();
            } else {
                next = Arrays.copyOf(cur, cur.length + 1);
                next[cur.length] = t;
            }
            if (PARKED.compareAndSet(this, cur, next)) {
                return;
            }
        }
    }

    /** Unregisters {@code t} once it stops waiting. */
    public void remove(Thread t) {
        for (;;) {
            Thread[] cur = parked;
            int i = indexOf(cur, t);
            if (i < 0) {
                return;
            }
            Thread[] next;
            if (cur.length == 1) {
                next = NONE;
            } else {
                next = new Thread[cur.length - 1];
                System.arraycopy(cur, 0, next, 0, i);
                System.arraycopy(cur, i + 1, next, i, cur.length - i - 1);
            }
            if (PARKED.compareAndSet(this, cur, next)) {
                return;
            }
        }
    }

    private static int indexOf(Thread[] a, Thread t) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == t) {
                return i;
            }
        }
        return -1;
    }
}
