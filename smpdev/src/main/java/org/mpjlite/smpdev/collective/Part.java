package org.mpjlite.smpdev.collective;

import org.mpjlite.smpdev.BasicType;
import org.mpjlite.smpdev.CollectiveRequest;
import org.mpjlite.smpdev.Copier;

/**
 * What one member publishes for one collective: where the others read its contribution, where its
 * results go, its per-member counts, and, for a non-blocking call, its request. Counts, indexes and
 * displacements are in storage units of the basic type.
 *
 * <p>Written by its member before it arrives at the slot (the arrival's atomic increment publishes
 * it), read by any member after it has seen every arrival; its references to user buffers are
 * dropped when nobody reads them any more (by the member as it leaves a blocking collective, by
 * the finisher of a non-blocking one). A part keeps its snapshot array across uses so that small
 * collectives do not allocate.
 */
final class Part {
    /** The contribution others read (a user buffer or the snapshot), or null (none, or in place at a root). */
    Object send;
    int sendIndex;
    /** Units sent, where members may differ (Gatherv, Allgatherv). */
    int sendUnits;
    int[] sendCounts;
    int[] sendDispls;
    BasicType[] sendTypes;

    /** Where this member's results go. */
    Object recv;
    int recvIndex;
    /** Units this member can receive, where members may differ (Scatterv). */
    int recvUnits;
    int[] recvCounts;
    int[] recvDispls;
    BasicType[] recvTypes;

    /** The request of a non-blocking call; null when blocking. */
    CollectiveRequest request;

    private Object snapshot;
    private int snapshotUnits;

    /**
     * Replaces the contribution by a private copy of its first {@code units}: the member may then
     * leave (or overwrite its buffer, in place) while others still read it.
     */
    void snapshot(BasicType type, int units) {
        if (snapshot == null || snapshot.getClass() != type.arrayClass() || snapshotUnits < units) {
            snapshotUnits = Math.max(units, 16);
            snapshot = type.newArray(snapshotUnits);
        }
        Copier.copy(send, sendIndex, snapshot, 0, units, type);
        send = snapshot;
        sendIndex = 0;
    }

    /**
     * Forgets the previous collective: drops the references to user buffers (an idle slot must not
     * keep them alive), keeping only the snapshot array for reuse.
     */
    void clear() {
        send = null;
        sendCounts = null;
        sendDispls = null;
        sendTypes = null;
        recv = null;
        recvCounts = null;
        recvDispls = null;
        recvTypes = null;
        request = null;
    }
}
