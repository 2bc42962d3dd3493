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
     * In a large team or with ranks that park, whether the calls of a collective here match: the
     * first member to compare every part publishes the verdict (volatile), and the others of the
     * same collective use it. One word, so that the verdict and the collective it is about are
     * read together without an object per collective: the collective's number in the high bits,
     * one more than the first member whose part differs (0: none) in the low {@link #MEMBER_BITS}.
     * Initially no collective's; past 2^40 collectives on a team the number no longer fits, no
     * verdict is found, and each member compares the parts itself (the same answer).
     */
    private volatile long verdict;
    /** Bits of a member index in {@link #verdict}: more than any team's members. */
    private static final int MEMBER_BITS = 24;

    /** The verdict of collective {@code op}, if published: the first mismatching member or -1; else -2. */
    int verdict(long op) {
        long v = verdict;
        return (v >>> MEMBER_BITS) == op + 1 ? (int) (v & ((1 << MEMBER_BITS) - 1)) - 1 : -2;
    }

    /** Publishes the verdict of collective {@code op}: the first member whose part differs, or -1. */
    void publishVerdict(long op, int mismatch) {
        verdict = (op + 1) << MEMBER_BITS | (mismatch + 1);
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
