package org.mpjlite.smpdev;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One request for several point-to-point operations of a rank (the sends and receives of a
 * neighbourhood collective): it completes when every part has completed, whichever threads
 * complete them, and fails with the error of the first part found failed (a truncated receive).
 *
 * <p>Use: {@link #add} each part as it is started, then {@link #seal}. The count starts at one for
 * the seal, so the group cannot complete while parts are still being added.
 *
 * <p>Memory ordering: each part completes with a volatile write before it is counted, and the
 * count is an atomic read-modify-write chain, so the thread that counts the last part has seen
 * every part's completion, and completes the group with a volatile write after it: a thread that
 * sees the group complete sees every part's data. Not cancellable.
 */
public final class RequestGroup extends Request {
    private final AtomicInteger pending = new AtomicInteger(1);
    private final AtomicReference<Request> failure = new AtomicReference<>();

    public RequestGroup(Rank owner) {
        super(owner);
    }

    /**
     * Adds a started part; a part that is already complete (an eager send, or the rank's shared
     * completed send) is only checked for an error, never joined.
     */
    public void add(Request part) {
        if (part.isComplete()) {
            noteFailure(part);
            return;
        }
        pending.incrementAndGet();
        part.join(this);
    }

    /** Every part is added: the group completes once they have. Call once. */
    public void seal() {
        arrive();
    }

    /** A part completed (called once per joined part, by the thread that completed it or joined it). */
    void partDone(Request part) {
        noteFailure(part);
        arrive();
    }

    private void noteFailure(Request part) {
        if (part.failed()) {
            failure.compareAndSet(null, part);
        }
    }

    private void arrive() {
        if (pending.decrementAndGet() == 0) {
            Request failed = failure.get();
            if (failed == null) {
                complete(ANY_SOURCE, ANY_TAG, 0, null);
            } else {
                failAs(failed);
            }
        }
    }

    /** The parts may have matched already: always false. */
    @Override
    public boolean cancel() {
        return false;
    }
}
