package org.mpjlite.smpdev.collective;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One collective in flight on a team: the parts its members published and the counters that
 * synchronize them. A team has a ring of slots; collective number {@code op} of the team uses slot
 * {@code op % SLOTS}, once every member has left the slot's previous collective.
 *
 * <p>Memory ordering: a member writes its {@link Part}, then increments {@link #arrived}
 * (a volatile read-modify-write); a member that reads {@code arrived >= target} therefore sees every
 * part written before those arrivals. The last member to depart clears the parts and resets the
 * counters before its volatile write of {@link #op} admits the next collective, so members entering
 * next see a clean slot.
 */
final class Slot {
    /** Number of the collective this slot admits now. */
    volatile long op;
    /** Arrivals of the current collective: one per member per phase (phase p is complete at p * size). */
    final AtomicInteger arrived = new AtomicInteger();
    /** Members that have left the current collective. */
    final AtomicInteger departed = new AtomicInteger();
    final Part[] parts;

    Slot(long op, int size) {
        this.op = op;
        parts = new Part[size];
        for (int i = 0; i < size; i++) {
            parts[i] = new Part();
        }
    }
}
