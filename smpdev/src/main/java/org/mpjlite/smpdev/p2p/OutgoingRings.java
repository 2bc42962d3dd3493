package org.mpjlite.smpdev.p2p;

import java.util.concurrent.atomic.AtomicReferenceArray;
import org.mpjlite.matching.MessageRing;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.Tunables;

/**
 * The {@link MessageRing}s a rank sends through, by destination: at most {@link #SLOTS}
 * destinations, each remembered once, with its ring or with none when the destination's mailbox
 * opened no ring (so that it is asked once, not at every send). A ring is opened for a stream:
 * after {@link Tunables#RING_AFTER_UNCLAIMED} small messages in a row to one destination found no
 * receive to claim ({@link #unclaimed}), or by a longer message that found the destination's inbox
 * holding messages ({@link #open}). A ping-pong whose messages find their receives posted, now and
 * then arriving first, opens none and pays nothing for rings (a sender with a ring checks it before
 * every claim).
 *
 * <p>Thread safety: lock-free; any thread of the rank looks up and opens. A slot is set once (a
 * compare-and-set from null) and never changes, so two threads opening a ring to one destination at
 * once agree on the first; the other ring stays unused in the destination's mailbox. Memory
 * ordering: the slot's volatile write and read publish the entry, and with it the ring. The counts
 * of small messages in a row are plain ints, shared by the rank's threads without order: a lost
 * update only delays a ring.
 */
final class OutgoingRings {
    /** Destinations remembered: a power of two; a rank streaming to more takes the inbox to the rest. */
    private static final int SLOTS = 16;

    private record Entry(Rank dest, MessageRing ring) {
    }

    /** Counts toward {@link Tunables#RING_AFTER_UNCLAIMED}, by destination rank modulo their number (a collision only shares a count). */
    private static final int COUNTS = 64;

    private final AtomicReferenceArray<Entry> slots = new AtomicReferenceArray<>(SLOTS);
    private final int[] unclaimed = new int[COUNTS];

    /** The ring to {@code dest}; null if none has been opened (or none could be). */
    MessageRing to(Rank dest) {
        int start = dest.id() & (SLOTS - 1);
        for (int i = 0; i < SLOTS; i++) {
            Entry e = slots.get((start + i) & (SLOTS - 1));
            if (e == null) {
                return null;
            }
            if (e.dest == dest) {
                return e.ring;
            }
        }
        return null;
    }

    /**
     * A message of {@code bytes} that a ring could carry claimed a posted receive of {@code dest}:
     * for one of up to {@link Tunables#RING_OPENING_BYTES}, the count of those that found none
     * restarts; a longer one counts nothing.
     */
    void claimed(Rank dest, long bytes) {
        int c = dest.id() & (COUNTS - 1);
        if (bytes <= Tunables.RING_OPENING_BYTES && unclaimed[c] != 0) {
            unclaimed[c] = 0;
        }
    }

    /**
     * A message of {@code bytes} that a ring could carry, to {@code dest} with no ring, found no
     * receive to claim: the ring to it (opened now, {@link #open}) if this makes
     * {@link Tunables#RING_AFTER_UNCLAIMED} in a row of up to {@link Tunables#RING_OPENING_BYTES}, or
     * for a longer message if {@code dest}'s inbox holds messages (a stream: a ping-pong's message
     * that arrived before its receive finds it empty); else null.
     */
    MessageRing unclaimed(Rank dest, long bytes) {
        if (bytes > Tunables.RING_OPENING_BYTES) {
            return dest.endpoint().mailbox().inboxBusy() ? open(dest) : null;
        }
        int c = dest.id() & (COUNTS - 1);
        int n = unclaimed[c] + 1;
        if (n < Tunables.RING_AFTER_UNCLAIMED) {
            unclaimed[c] = n;
            return null;
        }
        return open(dest);
    }

    /**
     * The ring to {@code dest}, opening one in its mailbox if none was asked for yet; null if its
     * mailbox opens none, or this rank remembers {@link #SLOTS} destinations already.
     */
    MessageRing open(Rank dest) {
        int start = dest.id() & (SLOTS - 1);
        Entry mine = null;
        for (int i = 0; i < SLOTS; i++) {
            int slot = (start + i) & (SLOTS - 1);
            Entry e = slots.get(slot);
            while (e == null) {
                if (mine == null) {
                    mine = new Entry(dest, dest.endpoint().mailbox().openRing());
                }
                if (slots.compareAndSet(slot, null, mine)) {
                    return mine.ring;
                }
                e = slots.get(slot);
            }
            if (e.dest == dest) {
                return e.ring;
            }
        }
        return null;
    }
}
