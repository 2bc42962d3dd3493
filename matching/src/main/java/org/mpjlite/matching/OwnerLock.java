package org.mpjlite.matching;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The lock a {@link LockFreeMailbox} takes among its owner's threads (a rank at
 * {@code MPI_THREAD_MULTIPLE}, and a diagnosis thread reading its lists): mutual exclusion, not
 * reentrant, not fair.
 *
 * <p>Why not {@link java.util.concurrent.locks.ReentrantLock}: its unlock is a volatile write, on x86
 * a full fence, which waits until every store before it has left the core. A critical section of
 * the mailbox often ends with a store to a line another rank's core may hold (the receive it just
 * published, which senders poll), and the fence then waits for that line to cross between the
 * cores. Here the unlock is a release store, which waits for nothing; the lock is the one
 * compare-and-set. And {@code ReentrantLock}'s state is a field of a small unpadded object, which
 * shares its cache line with whatever the heap puts next to it; here the lock's words sit alone in
 * their line (padding on both sides), so the holder's core keeps that line whatever another core
 * writes next to the lock.
 *
 * <p>Thread-safety: any thread. Memory ordering: {@link #lock()} is a compare-and-set with volatile
 * semantics and {@link #unlock()} a release store of the same word, so everything a holder did
 * happens-before what the next holder does after its {@code lock()}.
 *
 * <p>Progress: blocking. A thread that finds the lock held spins briefly (a holder's section is
 * short and never blocks), then queues and parks. An unlock that sees a thread queued (a count
 * beside the lock word) wakes the first one. Because the release store does not order the unlock's
 * later read of that count (a store may pass a later load on x86), an unlock can miss a thread that
 * queued just then; so a parked thread also wakes by itself after {@link #RECHECK_NANOS} and tries
 * again: a missed wake-up costs at most that, never a hang. Interrupts are not honoured while
 * waiting, as for {@code ReentrantLock.lock()}: the wait is for a section of a few hundred
 * nanoseconds.
 */
public final class OwnerLock extends OwnerLockTailPadding {
    /** How long a queued thread parks before it looks at the lock again by itself. */
    public static final long RECHECK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** Failed attempts a contending thread spins through before it queues. */
    private static final int SPINS = 64;

    private static final VarHandle HELD;
    private static final VarHandle WAITERS;

    static {
        try {
            HELD = MethodHandles.lookup().findVarHandle(OwnerLockState.class, "held", int.class);
            WAITERS = MethodHandles.lookup().findVarHandle(OwnerLockState.class, "waiters", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The threads parked for the lock, in arrival order; only a contended lock touches it. */
    private final ConcurrentLinkedQueue<Thread> queued = new ConcurrentLinkedQueue<>();

    /** Takes the lock, waiting while another thread holds it. */
    public void lock() {
        if (!HELD.compareAndSet(this, 0, 1)) {
            lockContended();
        }
    }

    /** Takes the lock if it is free; true if it did. */
    public boolean tryLock() {
        return (int) HELD.getAcquire(this) == 0 && HELD.compareAndSet(this, 0, 1);
    }

    /** Releases the lock, which the calling thread holds, and wakes a queued thread. */
    public void unlock() {
        HELD.setRelease(this, 0);
        if (waiters != 0) {
            LockSupport.unpark(queued.peek());
        }
    }

    /** True while some thread holds the lock (a snapshot, for tests). */
    public boolean isHeld() {
        return (int) HELD.getVolatile(this) != 0;
    }

    private void lockContended() {
        for (int i = 0; i < SPINS; i++) {
            Thread.onSpinWait();
            if (tryLock()) {
                return;
            }
        }
        Thread me = Thread.currentThread();
        queued.add(me);
        WAITERS.getAndAdd(this, 1);
        try {
            // Queued before each attempt: an unlock the attempt misses sees this thread and wakes
            // it, but for the window the class comment describes, which RECHECK_NANOS bounds.
            while (!tryLock()) {
                LockSupport.parkNanos(this, RECHECK_NANOS);
            }
        } finally {
            WAITERS.getAndAdd(this, -1);
            queued.remove(me);
        }
    }
}

/**
 * Padding before the lock's words, so that they share no cache line with whatever was allocated
 * just before the lock (superclass fields come first in an object). Bytes, so that the JVM finds no
 * gap in them to fill with a subclass's field.
 */
abstract class OwnerLockPadding {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

/** The words of an {@link OwnerLock}, written only by the threads that take it. */
abstract class OwnerLockState extends OwnerLockPadding {
    /** 1 while held, else 0. */
    volatile int held;
    /** Threads queued for the lock (parked, or about to park). */
    volatile int waiters;
}

/** Padding after the lock's words, for whatever is allocated right after the lock. */
abstract class OwnerLockTailPadding extends OwnerLockState {
    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
}
