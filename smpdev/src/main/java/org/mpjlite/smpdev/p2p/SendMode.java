package org.mpjlite.smpdev.p2p;

/** MPI's four send modes. */
public enum SendMode {
    /** Send: eager below the threshold, rendezvous above. */
    STANDARD,
    /** Bsend: copied into the attached buffer; completes at once. */
    BUFFERED,
    /** Ssend: completes only once matched by a receive. */
    SYNCHRONOUS,
    /** Rsend: the receive must already be posted; otherwise like a standard send. */
    READY
}
