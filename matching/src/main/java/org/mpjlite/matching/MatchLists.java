package org.mpjlite.matching;

import java.util.ArrayList;
import java.util.List;

/**
 * The two ordered lists at the heart of MPI matching: receives posted and not yet matched, and
 * messages arrived and not yet received. Both are intrusive singly linked FIFO lists (the link lives
 * in {@link Envelope}), so adding costs no allocation.
 *
 * <p>Not thread-safe: the mailbox that owns it serializes access (a lock, or the owner's lock for
 * the lock-free mailbox).
 */
final class MatchLists<M extends Envelope, R extends Envelope> {
    private Envelope postedHead;
    private Envelope postedTail;
    private Envelope unexpectedHead;
    private Envelope unexpectedTail;

    /** Removes and returns the earliest posted receive that accepts the message, or null. */
    R takePostedFor(Envelope message) {
        return takePostedFor(message.context, message.source, message.tag);
    }

    /** Removes and returns the earliest posted receive that accepts a message of this key, or null. */
    @SuppressWarnings("unchecked")
    R takePostedFor(int ctx, int src, int tag) {
        Envelope prev = null;
        for (Envelope e = postedHead; e != null; prev = e, e = e.next) {
            if (e.accepts(ctx, src, tag)) {
                unlinkPosted(prev, e);
                return (R) e;
            }
        }
        return null;
    }

    /** Removes and returns the earliest unexpected message the pattern accepts, or null. */
    M takeUnexpected(Envelope pattern) {
        return takeUnexpected(pattern.context, pattern.source, pattern.tag);
    }

    /**
     * Removes and returns the earliest unexpected message matching (context, source, tag), bound if
     * withdrawable ({@link SentEnvelope#bind}); withdrawn ones it meets on the way are dropped.
     */
    @SuppressWarnings("unchecked")
    M takeUnexpected(int context, int source, int tag) {
        Envelope prev = null;
        Envelope e = unexpectedHead;
        while (e != null) {
            Envelope next = e.next;
            if (matches(context, source, tag, e)) {
                unlinkUnexpected(prev, e);
                if (!e.withdrawable || ((SentEnvelope) e).bind()) {
                    return (M) e;
                }
            } else {
                prev = e;
            }
            e = next;
        }
        return null;
    }

    /**
     * The earliest unexpected message matching (context, source, tag), left in place; or null.
     * Withdrawn ones it meets on the way are dropped.
     */
    @SuppressWarnings("unchecked")
    M peekUnexpected(int context, int source, int tag) {
        Envelope prev = null;
        Envelope e = unexpectedHead;
        while (e != null) {
            Envelope next = e.next;
            if (matches(context, source, tag, e)) {
                if (!isWithdrawn(e)) {
                    return (M) e;
                }
                unlinkUnexpected(prev, e);
            } else {
                prev = e;
            }
            e = next;
        }
        return null;
    }

    private static boolean isWithdrawn(Envelope e) {
        return e.withdrawable && ((SentEnvelope) e).isWithdrawn();
    }

    /** Removes and returns the earliest posted receive, or null. */
    @SuppressWarnings("unchecked")
    R takeFirstPosted() {
        Envelope e = postedHead;
        if (e != null) {
            unlinkPosted(null, e);
        }
        return (R) e;
    }

    /** True when no receive is posted. */
    boolean noPosted() {
        return postedHead == null;
    }

    void addPosted(R receive) {
        receive.next = null;
        if (postedTail == null) {
            postedHead = receive;
        } else {
            postedTail.next = receive;
        }
        postedTail = receive;
    }

    void addUnexpected(M message) {
        message.next = null;
        if (unexpectedTail == null) {
            unexpectedHead = message;
        } else {
            unexpectedTail.next = message;
        }
        unexpectedTail = message;
    }

    /** Removes the receive if it is posted; false if it is not in the list. */
    boolean removePosted(R receive) {
        Envelope prev = null;
        for (Envelope e = postedHead; e != null; prev = e, e = e.next) {
            if (e == receive) {
                unlinkPosted(prev, e);
                return true;
            }
        }
        return false;
    }

    /** The unexpected messages, oldest first, but for withdrawn ones (left in place). */
    @SuppressWarnings("unchecked")
    List<M> unexpected() {
        List<M> out = new ArrayList<>();
        for (Envelope e = unexpectedHead; e != null; e = e.next) {
            if (!isWithdrawn(e)) {
                out.add((M) e);
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    List<R> posted() {
        List<R> out = new ArrayList<>();
        for (Envelope e = postedHead; e != null; e = e.next) {
            out.add((R) e);
        }
        return out;
    }

    private static boolean matches(int context, int source, int tag, Envelope message) {
        return message.context == context
            && (source == Envelope.ANY_SOURCE || source == message.source)
            && (tag == Envelope.ANY_TAG || tag == message.tag);
    }

    private void unlinkPosted(Envelope prev, Envelope e) {
        if (prev == null) {
            postedHead = e.next;
        } else {
            prev.next = e.next;
        }
        if (postedTail == e) {
            postedTail = prev;
        }
        e.next = null;
    }

    private void unlinkUnexpected(Envelope prev, Envelope e) {
        if (prev == null) {
            unexpectedHead = e.next;
        } else {
            prev.next = e.next;
        }
        if (unexpectedTail == e) {
            unexpectedTail = prev;
        }
        e.next = null;
    }
}
