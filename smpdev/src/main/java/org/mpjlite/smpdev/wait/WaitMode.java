package org.mpjlite.smpdev.wait;

/** How a rank waits for a message or a completion. */
public enum WaitMode {
    /**
     * Spin briefly while every rank has a core of its own; otherwise yield the core a few times (to
     * a rank that may be the one waited for), then park. The default.
     */
    AUTO,
    /** Spin briefly, then park, whatever the rank count. */
    SPIN,
    /** Park at once: no spinning at all. */
    PARK;

    public static WaitMode parse(String s) {
        return valueOf(s.trim().toUpperCase(java.util.Locale.ROOT));
    }
}
