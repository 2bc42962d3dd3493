package org.mpjlite.smpdev;

import org.mpjlite.queues.MatchHandler;

/**
 * Moves a matched message into its receive and completes both sides: the one place where data
 * crosses from one rank to another. Checks the element type and the size first: a type mismatch is
 * {@code MPI_ERR_TYPE}, a message longer than the receive buffer is {@code MPI_ERR_TRUNCATE} (the
 * buffer gets the part that fits). Either way the message is consumed and its sender completes.
 *
 * <p>Runs on whichever thread made the match (see {@link MatchHandler}); stateless, thread-safe.
 */
final class Transfer implements MatchHandler<Message, RecvRequest> {
    /**
     * Copies at least this long are announced to the waiting sides ({@link Request#isImminent}),
     * so that a spinning waiter does not park in the middle of them; shorter ones end well within a
     * spin and are not worth the extra volatile write.
     */
    private static final long LONG_COPY_BYTES = 64 * 1024;

    @Override
    public void matched(RecvRequest r, Message m) {
        try {
            if (!r.type.receives(m.type)) {
                r.fail(ErrorClass.ERR_TYPE, r.call + " on rank " + r.owner.id() + CallSite.at(r.site)
                    + ": message from rank " + m.source() + " with tag " + m.tag() + ", sent by " + m.describeSend()
                    + ", carries " + m.type.mpiName() + " elements but the receive expects " + r.type.mpiName()
                    + " (the type signatures of a send and its receive must match)", m.source(), m.tag(), 0, m.type);
            } else if (m.count > r.capacity) {
                m.copyTo(r.buffer, r.index, r.capacity);
                r.fail(ErrorClass.ERR_TRUNCATE, r.call + " on rank " + r.owner.id() + ": message of "
                    + m.count + " " + m.type.mpiName() + " elements (" + (long) m.count * m.type.size()
                    + " bytes) from rank " + m.source() + " with tag " + m.tag()
                    + " is longer than the receive buffer of " + r.capacity + " elements ("
                    + (long) r.capacity * r.type.size() + " bytes)", m.source(), m.tag(), r.capacity, m.type);
            } else {
                if ((long) m.count * m.type.size() >= LONG_COPY_BYTES) {
                    r.startCopy();
                    if (m.sender != null) {
                        m.sender.startCopy();
                    }
                }
                m.copyTo(r.buffer, r.index, m.count);
                r.complete(m.source(), m.tag(), m.count, m.type);
            }
        } catch (RuntimeException e) {
            // A receive buffer that cannot be written (read-only NIO buffer) fails the receive, not
            // the thread that happened to do the copy.
            r.fail(ErrorClass.ERR_BUFFER, r.call + " on rank " + r.owner.id()
                + ": cannot write the receive buffer: " + e, m.source(), m.tag(), 0, m.type);
        } finally {
            m.consumed();
        }
    }
}
