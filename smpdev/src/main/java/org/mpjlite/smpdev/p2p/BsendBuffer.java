package org.mpjlite.smpdev.p2p;

import java.util.concurrent.atomic.AtomicLong;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.error.ErrorClass;
import org.mpjlite.smpdev.error.Errors;

/**
 * The buffer a rank attached for buffered sends (MPI_Buffer_attach). Buffered messages are copied
 * into pooled storage and their size (plus {@link #OVERHEAD}) is charged against the attached
 * capacity until the receiver has taken them, which gives exactly MPI's observable behaviour:
 * a Bsend fails with {@code MPI_ERR_BUFFER} when the attached space is exhausted, and detach blocks
 * until every buffered message has been delivered.
 *
 * <p>Thread safety: the charge is an atomic counter (senders of this rank charge it, receivers of any
 * rank release it); attach and detach are the owner's.
 */
final class BsendBuffer {
    /** Bytes of bookkeeping charged per buffered message (MPI.BSEND_OVERHEAD). */
    static final int OVERHEAD = 16;

    private final Rank owner;
    private final Object userBuffer;
    private final long capacity;
    private final AtomicLong used = new AtomicLong();

    BsendBuffer(Rank owner, Object userBuffer, long capacity) {
        this.owner = owner;
        this.userBuffer = userBuffer;
        this.capacity = capacity;
    }

    Object userBuffer() {
        return userBuffer;
    }

    /** Charges a message of {@code bytes}; throws MPI_ERR_BUFFER if it does not fit. */
    int reserve(int bytes, String call) {
        int charge = bytes + OVERHEAD;
        for (;;) {
            long u = used.get();
            if (u + charge > capacity) {
                throw Errors.error(ErrorClass.ERR_BUFFER, call + ": the attached buffer of " + capacity
                    + " bytes has " + (capacity - u) + " bytes free, but this message needs " + charge
                    + " (" + bytes + " + MPI.BSEND_OVERHEAD " + OVERHEAD + ")");
            }
            if (used.compareAndSet(u, u + charge)) {
                return charge;
            }
        }
    }

    void release(int charge) {
        if (used.addAndGet(-charge) == 0) {
            owner.doorbell().ring();
        }
    }

    boolean isDrained() {
        return used.get() == 0;
    }
}
