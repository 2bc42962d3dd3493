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
 * arrival therefore sees every part. A member makes its part in a slot on its first collective
 * there ({@link #enter}), a plain store before that first arrival, so the same holds for the
 * reference: nobody reads a member's entry of {@link #parts} before seeing the member arrive.
 */
final class Slot {
    /** Arrivals at the non-blocking collective in this slot; 0 when none is in progress. */
    private final AtomicInteger arrived = new AtomicInteger();
    /** Number of the collective those arrivals belong to. */
    private volatile long nonBlockingOp = -1;
    /** By member; null until the member's first collective in this slot. */
    final Part[] parts;
    /**
     * In a large team, whether the calls of collective {@link Verdict#op} match: the first member to
     * compare every part publishes it (volatile), and the others of the same collective use it.
     */
    volatile Verdict verdict;

    /** The first member whose part differs from member 0's in collective {@code op}, or -1. */
    record Verdict(long op, int mismatch) {
    }

    /**
     * A slot for {@code size} members, whose parts come with their first use: a team of p members
     * has {@code SLOTS} slots, and most programs use a few of them (at 100,000 ranks, the parts of
     * every slot would be 3.2 million objects).
     */
    Slot(int size) {
        parts = new Part[size];
    }

    /**
     * Member {@code me}'s part, cleared for its next collective here: nothing of the slot's previous
     * collective may leak into this one (a null send means "none"). By member {@code me} only,
     * before it publishes its arrival.
     */
    Part enter(int me) {
        Part p = parts[me];
        if (p == null) {
            p = new Part();
            parts[me] = p;
        } else {
            p.clear();
        }
        return p;
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
