package org.mpjlite.smpdev;

/** Which matching structure ({@code org.mpjlite.matching}) each rank's mailbox uses. */
public enum MatchingKind {
    /** {@link org.mpjlite.matching.LockedMailbox}: one lock per receiving rank. */
    LOCKED,
    /** {@link org.mpjlite.matching.LockFreeMailbox}: a JCTools MPSC inbox drained by the receiver. */
    LOCK_FREE;

    /** Parses {@code locked}, {@code lockfree}, {@code lock-free}, {@code lock_free}, any case. */
    public static MatchingKind parse(String s) {
        String k = s.trim().toLowerCase(java.util.Locale.ROOT).replace("-", "").replace("_", "");
        switch (k) {
            case "locked":
                return LOCKED;
            case "lockfree":
                return LOCK_FREE;
            default:
                throw new IllegalArgumentException("unknown matching structure '" + s + "' (locked, lockfree)");
        }
    }
}
