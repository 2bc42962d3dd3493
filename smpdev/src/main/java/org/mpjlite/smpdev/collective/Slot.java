package org.mpjlite.smpdev.collective;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One collective in flight on a team: the parts its members published. A team has a ring of slots;
 * collective number {@code op} of the team uses slot {@code op % SLOTS}, once every member has left
 * the slot's previous collective ({@link Team} tracks that in per-member words).
 *
 * <p>Non-blocking collectives also count their arrivals here, so that exactly one member, the last,
 * finishes them; the counter stays non-zero until the finisher is done, which keeps the slot busy
 * (blocking collectives never write it, so it stays in every core's cache).
 *
 * <p>Memory ordering: a member writes its {@link Part} before it publishes its arrival (its epoch
 * word, or this counter) with a volatile write or read-modify-write; a member that has seen every
 * arrival therefore sees every part.
 */
final class Slot {
    /** Arrivals at the non-blocking collective in this slot; 0 when none is in progress. */
    private final AtomicInteger arrived = new AtomicInteger();
    /** Number of the collective those arrivals belong to. */
    private volatile long nonBlockingOp = -1;
    final Part[] parts;
    /**
     * In a large team, whether the calls of collective {@link Verdict#op} match: the first member to
     * compare every part publishes it (volatile), and the others of the same collective use it.
     */
    volatile Verdict verdict;

    /** The first member whose part differs from member 0's in collective {@code op}, or -1. */
    record Verdict(long op, int mismatch) {
    }

    Slot(int size) {
        parts = new Part[size];
        for (int i = 0; i < size; i++) {
            parts[i] = new Part();
        }
    }

    /** Counts an arrival at non-blocking collective {@code op}; returns the arrivals so far. */
    int arrive(long op) {
        nonBlockingOp = op;
        return arrived.incrementAndGet();
    }

    /**
     * True when collective {@code op} may use the slot: no non-blocking collective is in progress
     * here, or only {@code op} itself (whose first members have arrived).
     */
    boolean freeFor(long op) {
        return arrived.get() == 0 || nonBlockingOp == op;
    }

    /** Ends the non-blocking collective here; by its finisher, after its last use of the parts. */
    void release() {
        arrived.set(0);
    }
}
