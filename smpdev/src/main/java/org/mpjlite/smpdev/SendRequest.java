package org.mpjlite.smpdev;

/**
 * A send. Eager and buffered sends are complete as soon as they return; rendezvous and synchronous
 * sends complete when the receiver has copied the data out of the sender's buffer.
 *
 * <p>Sends are not cancellable: by the time a user can cancel, an eager send is delivered, and a
 * rendezvous send may be in the middle of its copy. {@link #cancel} reports that and the send
 * completes normally (MPI allows a cancel to fail).
 */
public final class SendRequest extends Request {
    SendRequest(Rank owner) {
        super(owner);
    }

    /**
     * A send that is complete on creation; immutable once built, so one per rank is shared by every
     * eager and buffered send (no allocation, no volatile write on the fast path).
     */
    static SendRequest completed(Rank owner) {
        SendRequest s = new SendRequest(owner);
        s.complete(ANY_SOURCE, ANY_TAG, 0, null);
        return s;
    }

    @Override
    public boolean cancel() {
        return false;
    }
}
