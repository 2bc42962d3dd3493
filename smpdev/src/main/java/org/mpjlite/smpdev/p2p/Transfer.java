package org.mpjlite.smpdev.p2p;

import org.mpjlite.matching.MatchHandler;
import org.mpjlite.matching.MessageRing;
import org.mpjlite.matching.ReceiveLine;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.Copier;
import org.mpjlite.smpdev.data.ElementSource;
import org.mpjlite.smpdev.data.Packing;
import org.mpjlite.smpdev.data.TypeMap;
import org.mpjlite.smpdev.data.UserMemory;
import org.mpjlite.smpdev.diag.CallSite;
import org.mpjlite.smpdev.error.ErrorClass;

/**
 * Moves a matched message into its receive and completes both sides: the one place where data
 * crosses from one rank to another. Checks the element type and the size first: a type mismatch is
 * {@code MPI_ERR_TYPE}, a message longer than the receive buffer is {@code MPI_ERR_TRUNCATE} (the
 * buffer gets the part that fits). Either way the message is consumed and its sender completes.
 *
 * <p>Runs on whichever thread made the match (see {@link MatchHandler}); stateless, thread-safe.
 */
public final class Transfer implements MatchHandler<Message, RecvRequest> {
    @Override
    public void matched(RecvRequest r, Message m) {
        r.flow = m.flow;
        try {
            if (r.map.isPacked() && !m.map.isPacked()) {
                receivePacked(r, m);
            } else if ((m.map.isPacked() || r.bytesAsMemory && m.map.base() == BasicType.BYTE)
                && !r.map.isPacked() && r.map.base() != BasicType.BYTE) {
                receiveFromPacked(r, m);
            } else {
                receive(r, m);
            }
        } catch (RuntimeException e) {
            failUnwritable(r, e, m.source(), m.tag(), m.type);
        } finally {
            m.consumed(r.owner().endpoint().recycler());
        }
    }

    /**
     * A small message a sender left in the receive's line: same element type, and it fits (the
     * sender checked both against what the receive offered, {@link RecvRequest#offersLine}).
     */
    @Override
    public void matchedInLine(RecvRequest r, ReceiveLine line) {
        BasicType type = r.map.base();
        int n = line.count();
        try {
            Copier.copy(line.data(), 0, r.buffer, r.index, n, type);
        } catch (RuntimeException e) {
            failUnwritable(r, e, line.source(), line.tag(), type);
            return;
        }
        r.completeInMailbox(line.source(), line.tag(), n, type, (long) n * type.size());
    }

    /**
     * A small message still in its ring's cell: same element type, and it fits (the mailbox checked
     * both against what the receive offers, {@link RecvRequest#offersLine}).
     */
    @Override
    public void matchedInCell(RecvRequest r, MessageRing ring, long index) {
        BasicType type = r.map.base();
        int n = ring.count(index);
        try {
            CellData.read(ring, index, r.buffer, r.index, n, type);
        } catch (RuntimeException e) {
            failUnwritable(r, e, ring.source(index), ring.tag(index), type);
            return;
        }
        r.completeInMailbox(ring.source(index), ring.tag(index), n, type, (long) n * type.size());
    }

    /**
     * A receive buffer that cannot be written (read-only NIO buffer), or an object whose class the
     * receiver cannot load, fails the receive, not the thread that happened to do the copy.
     */
    private static void failUnwritable(RecvRequest r, RuntimeException e, int source, int tag, BasicType type) {
        r.fail(ErrorClass.ERR_BUFFER, r.call + " on rank " + r.owner().id() + ": cannot write the receive buffer: " + e,
            source, tag, 0, type, 0);
    }

    /** Typed data into a typed receive: the signatures must match, the sent one a prefix of the other. */
    private void receive(RecvRequest r, Message m) {
        long n = TypeMap.match(m.map, m.items, r.map, r.capacity);
        if (n < 0) {
            r.fail(ErrorClass.ERR_TYPE, r.call + " on rank " + r.owner().id() + CallSite.at(r.site)
                + ": message from rank " + m.source() + " with tag " + m.tag() + ", sent by " + m.describeSend()
                + ", carries " + describe(m.map) + " elements but the receive expects " + describe(r.map)
                + " (element " + (-1 - n) + " differs in type: the type signatures of a send and its receive must"
                + " match)", m.source(), m.tag(), 0, m.type, 0);
            return;
        }
        move(r, m, (int) n);
        long bytes = m.map.bytesOf(n);
        if (n < m.count) {
            r.fail(ErrorClass.ERR_TRUNCATE, r.call + " on rank " + r.owner().id() + ": message of " + m.items + " x "
                + describe(m.map) + " (" + m.count + " elements, " + m.bytes() + " bytes) from rank " + m.source()
                + " with tag " + m.tag() + " is longer than the receive buffer of " + r.capacity + " x "
                + describe(r.map) + " (" + r.map.elements() * r.capacity + " elements, " + r.map.size() * r.capacity
                + " bytes)", m.source(), m.tag(), (int) n, m.type, bytes);
        } else {
            r.complete(m.source(), m.tag(), (int) n, m.type, bytes);
        }
    }

    /** Moves the first {@code n} elements: one bulk copy when both sides are contiguous, else a scatter. */
    private static void move(RecvRequest r, Message m, int n) {
        if (m.bytes() >= Tunables.LONG_COPY_BYTES) {
            r.startCopy();
            if (m.sender != null) {
                m.sender.startCopy();
            }
        }
        if (r.map.isContiguous() && (m.stash != null || m.map.isContiguous())) {
            m.copyTo(r.buffer, r.index, n, r.loader);
        } else {
            Packing.scatter(m.source(r.loader), r.buffer, (long) r.index * r.map.unit(), r.capacity, n, r.map);
        }
    }

    /** Any data received as MPI.PACKED: its elements one after the other as native-order bytes. */
    private void receivePacked(RecvRequest r, Message m) {
        if (!r.map.isContiguous() || m.map.isObjects()) {
            r.fail(ErrorClass.ERR_TYPE, r.call + " on rank " + r.owner().id() + ": a message of " + describe(m.map)
                + " from rank " + m.source() + " can be received as MPI.PACKED only into contiguous bytes"
                + (m.map.isObjects() ? ", and objects cannot be (pack them with Pack)" : ""),
                m.source(), m.tag(), 0, BasicType.PACKED, 0);
            return;
        }
        long capacity = r.map.size() * r.capacity;
        long n = m.map.elementsIn(capacity, m.items);
        long bytes = m.map.bytesOf(n);
        if (m.bytes() >= Tunables.LONG_COPY_BYTES) {
            r.startCopy();
        }
        long origin = r.index;
        if (m.stash == null) {
            UserMemory.copy(new UserMemory.Place(m.data, m.dataIndex), UserMemory.at(r.buffer, origin, m.type, true),
                (int) n, m.type);
        } else {
            long[] at = {origin};
            ElementSource source = m.source(r.loader);
            m.map.walk(0, m.items, n, (type, pos, k) -> {
                source.take(type, r.buffer, at[0], true, k);
                at[0] += (long) k * type.size();
            });
        }
        if (m.bytes() > capacity) {
            r.fail(ErrorClass.ERR_TRUNCATE, r.call + " on rank " + r.owner().id() + ": message of " + m.bytes()
                + " bytes from rank " + m.source() + " with tag " + m.tag()
                + " is longer than the MPI.PACKED receive buffer of " + capacity + " bytes", m.source(), m.tag(),
                (int) bytes, BasicType.PACKED, bytes);
        } else {
            r.complete(m.source(), m.tag(), (int) bytes, BasicType.PACKED, bytes);
        }
    }

    /**
     * Packed bytes (or, for a receive that reads bytes as memory, MPI.BYTE) received as typed data:
     * read as the receive's elements, native byte order.
     */
    private void receiveFromPacked(RecvRequest r, Message m) {
        if (r.map.isObjects()) {
            r.fail(ErrorClass.ERR_TYPE, r.call + " on rank " + r.owner().id() + ": " + m.map.base().mpiName()
                + " data from rank " + m.source() + " cannot be received as MPI.OBJECT (unpack it with Unpack)",
                m.source(), m.tag(), 0, m.map.base(), 0);
            return;
        }
        long n = r.map.elementsIn(m.bytes(), r.capacity);
        long bytes = r.map.bytesOf(n);
        if (m.bytes() >= Tunables.LONG_COPY_BYTES) {
            r.startCopy();
            if (m.sender != null) {
                m.sender.startCopy();
            }
        }
        Packing.scatter(m.source(r.loader), r.buffer, (long) r.index * r.map.unit(), r.capacity, n, r.map);
        BasicType type = r.map.base();
        if (m.bytes() > r.map.size() * r.capacity) {
            r.fail(ErrorClass.ERR_TRUNCATE, r.call + " on rank " + r.owner().id() + ": " + m.map.base().mpiName()
                + " message of "
                + m.bytes() + " bytes from rank " + m.source() + " with tag " + m.tag()
                + " is longer than the receive buffer of " + r.capacity + " x " + describe(r.map) + " ("
                + r.map.size() * r.capacity + " bytes)", m.source(), m.tag(), (int) n, type, bytes);
        } else {
            // Every byte of the message arrived, whole elements or not: the status counts them all.
            r.complete(m.source(), m.tag(), (int) n, type, m.bytes());
        }
    }

    private static String describe(TypeMap map) {
        return map.describeSignature();
    }
}
