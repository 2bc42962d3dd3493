package org.mpjlite.smpdev.p2p;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.mpjlite.matching.LockFreeMailbox;
import org.mpjlite.matching.LockedMailbox;
import org.mpjlite.matching.Mailbox;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.error.ErrorClass;
import org.mpjlite.smpdev.error.Errors;

/**
 * A rank's end of point-to-point communication: the mailbox where messages to it are matched
 * against its receives, the messages its matched probes took and it has not received yet, the
 * buffer it attached for buffered sends, the shared complete send request of its eager and
 * buffered sends, and the {@link Recycler} of its messages and blocking receives.
 *
 * <p>Thread safety: the mailbox is thread-safe (any rank delivers, the owner's threads post and
 * progress); attach and detach are compare-and-sets, so of two threads attaching at once exactly
 * one succeeds; the rest is immutable.
 */
public final class Endpoint {
    private final Rank rank;
    private final Transfer transfer;
    private final Mailbox<Message, RecvRequest> mailbox;
    private final SendRequest completedSend;
    private final Recycler recycler;
    /** The rings this rank sends through, by destination. */
    private final OutgoingRings rings = new OutgoingRings();
    private final AtomicReference<BsendBuffer> bsendBuffer = new AtomicReference<>();
    /**
     * This rank's sends that wait for their receiver (rendezvous, synchronous) and have not been
     * received yet, in the order they were started: Finalize reports them from here instead of
     * reading every rank's mailbox (which made Finalize of p ranks cost p^2, and a mailbox confined
     * to its own rank's thread is not to be read by another). Synchronized: the sender adds, the
     * receiving thread removes; only sends that wait pay for it.
     */
    private final Set<SendRequest> waitingSends = java.util.Collections.synchronizedSet(new java.util.LinkedHashSet<>());
    /**
     * Messages a matched probe took out of the mailbox and no matched receive has received yet,
     * for the Finalize report: they are in no mailbox list any more. A concurrent set: any thread
     * of the rank probes and receives.
     */
    private final Set<Message> probed = ConcurrentHashMap.newKeySet();

    /**
     * @param transfer the job's transfer, which moves matched messages
     * @param locked   a locked mailbox instead of the lock-free one
     */
    public Endpoint(Rank rank, Transfer transfer, boolean locked) {
        this.rank = rank;
        this.transfer = transfer;
        this.mailbox = locked ? new LockedMailbox<>(transfer)
            : new LockFreeMailbox<>(transfer,
                (ring, index) -> Message.fromRing(recycler(), rank.job().buffers(), ring, index));
        this.completedSend = SendRequest.completed(rank);
        // Made last, so that it is not allocated next to this object: the recycler is written at
        // every receive, and senders read this object's mailbox field. A collection that moves
        // both may still put them side by side; a recycler padded against that (a cache line on
        // either side) measured no faster in a stream or a ping-pong.
        this.recycler = new Recycler();
    }

    public Mailbox<Message, RecvRequest> mailbox() {
        return mailbox;
    }

    Transfer transfer() {
        return transfer;
    }

    /** The rings this rank streams small messages through, by destination. */
    OutgoingRings rings() {
        return rings;
    }

    /** Where this rank's messages and receive requests are reused from. */
    Recycler recycler() {
        return recycler;
    }

    /** A matched probe took {@code m}: it waits for its matched receive. */
    void probed(Message m) {
        probed.add(m);
    }

    /** The matched receive of {@code m} has it. */
    void received(Message m) {
        probed.remove(m);
    }

    /** The messages matched probes took and nothing received yet (a snapshot, for reports). */
    public List<Message> probedSnapshot() {
        return new ArrayList<>(probed);
    }

    /** The shared, already complete send request of eager and buffered sends. */
    SendRequest completedSend() {
        return completedSend;
    }

    /** A send of this rank now waits for its receiver; {@link #sendReceived} follows once received. */
    void sendWaiting(SendRequest s) {
        waitingSends.add(s);
    }

    void sendReceived(SendRequest s) {
        waitingSends.remove(s);
    }

    /** The sends of this rank that wait for their receivers, oldest first (a snapshot, for reports). */
    public List<SendRequest> waitingSendsSnapshot() {
        synchronized (waitingSends) {
            return new ArrayList<>(waitingSends);
        }
    }

    /** MPI_Buffer_attach: {@code userBuffer} is handed back by detach. */
    public void attachBuffer(Object userBuffer, long capacity, String call) {
        if (!bsendBuffer.compareAndSet(null, new BsendBuffer(rank, userBuffer, capacity))) {
            throw Errors.error(ErrorClass.ERR_BUFFER, call + ": a buffer is already attached on rank " + rank.id()
                + " (detach it first)");
        }
    }

    /** MPI_Buffer_detach: waits until every buffered message has been delivered. */
    public Object detachBuffer(String call) {
        BsendBuffer b = bsendBuffer.get();
        if (b == null) {
            throw Errors.error(ErrorClass.ERR_BUFFER, call + ": no buffer is attached on rank " + rank.id());
        }
        rank.await(b::isDrained, call);
        if (!bsendBuffer.compareAndSet(b, null)) {
            throw Errors.error(ErrorClass.ERR_BUFFER, call + ": another thread detached the buffer first on rank "
                + rank.id());
        }
        return b.userBuffer();
    }

    /** The attached buffer for a buffered send; MPI_ERR_BUFFER if none is. */
    BsendBuffer bsendBuffer(String call) {
        BsendBuffer b = bsendBuffer.get();
        if (b == null) {
            throw Errors.error(ErrorClass.ERR_BUFFER, call + ": no buffer is attached for buffered sends on rank "
                + rank.id() + " (call MPI.Buffer_attach / MPI.attachBuffer first)");
        }
        return b;
    }
}
