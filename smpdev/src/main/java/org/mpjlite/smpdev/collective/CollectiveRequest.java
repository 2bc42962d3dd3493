package org.mpjlite.smpdev.collective;

import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.Request;

/**
 * The device request of one rank's non-blocking collective operation (iBcast, iAllReduce...): it
 * completes when the collective engine has done that rank's part, whichever rank's thread does it.
 *
 * <p>Memory ordering as for every {@link Request}: the engine writes the rank's results, then
 * completes the request with a volatile write and rings the owner's doorbell, so a thread that sees
 * it complete sees the results. Collectives cannot be cancelled.
 */
public final class CollectiveRequest extends Request {
    public CollectiveRequest(Rank owner) {
        super(owner);
    }

    /** Completes the request successfully (an empty status). Call once, after the results are written. */
    public void complete() {
        complete(ANY_SOURCE, ANY_TAG, 0, null);
    }

    /** Completes the request with an error, raised by the owner's wait. */
    public void fail(int errorClass, String message) {
        fail(errorClass, message, ANY_SOURCE, ANY_TAG, 0, null);
    }

    /** Collectives cannot be cancelled: always false. */
    @Override
    public boolean cancel() {
        return false;
    }
}
