package org.mpjlite.matching;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;

/**
 * A mailbox whose senders never lock: a message either claims a published receive with one
 * compare-and-set (and the sender moves the data straight into it), or is offered to a JCTools
 * multi-producer, single-consumer queue (the inbox) that the owning rank drains and matches itself.
 *
 * <p>Senders are lock-free: one atomic add in the queue, or one compare-and-set on the receive
 * they claim. The owner's side ({@link #post}, {@link #probe}, {@link #progress}, ...) is
 * serialized by an owner lock that only the owning rank's own threads can contend for (never
 * senders); the inbox's single consumer is whoever holds it. Once the mailbox is confined to one
 * thread ({@link #confineTo}: a rank at {@code THREAD_SINGLE} or {@code THREAD_FUNNELED}), that
 * thread is the only owner and takes no lock at all. The handler runs on the owner's threads, or
 * on the sender's thread after a claim.
 *
 * <p>Snapshots ({@link #unexpectedSnapshot}, {@link #postedSnapshot}) asked for by another thread
 * of a confined mailbox (a deadlock report) read the lists as they are, without matching what
 * has arrived: the owner does not lock, and only it may consume the inbox. Such a report is made
 * of a rank parked in a blocking call, which does not change its lists while it stays parked.
 *
 * <p><b>The published receive.</b> The earliest posted receive (wildcards allowed) is the one
 * senders may claim. The owner publishes it right after emptying the inbox (when it posts a receive
 * while none is posted, or when the one published before was matched and others wait): it has
 * found no unexpected message the receive accepts, records the inbox's index in
 * {@link Envelope#claimIndex}, makes {@link Envelope#claim} odd with a release store, and sets the
 * slot. A sender may claim it if it accepts the message and the inbox's producer index still equals
 * {@code claimIndex}; the claim is a compare-and-set of the odd claim word to the next even one.
 * The owner matches the published receive against arriving messages with the same compare-and-set,
 * so of a sender's claim, the owner's match and a cancel exactly one wins.
 *
 * <p>Why the claim keeps MPI's order: a receive matches the earliest message it accepts, and a
 * sender's earlier message to this rank was offered to the inbox before the sender reads the
 * producer index, so if the index still equals {@code claimIndex} that message was drained (and
 * matched, or kept as unexpected and found not accepted) before the receive was published. The
 * check is stronger than MPI needs (it also waits for other senders' messages), which keeps it one
 * read.
 * A message matches the earliest posted receive: the published one is the earliest; receives
 * posted after it wait in the owner's list, and the next is published once it is matched.
 *
 * <p>Memory ordering: the queue's offer/poll, and the release/acquire of the claim word (then the
 * compare-and-set that wins it), publish a message's or a receive's fields. There is no full fence:
 * a parking owner and a sender meet in a Dekker handshake through sequentially consistent atomics
 * only: the sender's atomic add of the producer index (or the completing volatile write of a
 * claimed receive) and then its volatile read of the doorbell, against the waiter's compare-and-set
 * in the doorbell and then its volatile read of the producer index ({@link #hasArrivals}). A
 * message whose index the owner sees before its element is stored is waited for (drain returns
 * only with the inbox empty), a few instructions of the producer away.
 */
public final class LockFreeMailbox<M extends Envelope, R extends Envelope> implements Mailbox<M, R> {
    private static final int CHUNK = 256;
    private static final VarHandle SLOT;
    private static final VarHandle CLAIM;

    static {
        try {
            SLOT = MethodHandles.lookup().findVarHandle(LockFreeMailbox.class, "slot", Envelope.class);
            CLAIM = MethodHandles.lookup().findVarHandle(Envelope.class, "claim", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MpscUnboundedXaddArrayQueue<M> inbox = new MpscUnboundedXaddArrayQueue<>(CHUNK);
    private final ReentrantLock ownerLock = new ReentrantLock();
    private final MatchLists<M, R> lists = new MatchLists<>();
    private final MatchHandler<M, R> handler;
    /**
     * The receive senders may claim if its claim word is odd, or null; senders read it, only the
     * owner writes it. It keeps pointing at a receive after that one is matched (its claim word is
     * then even) until the next is published: a reference store into this long-lived object costs
     * the G1 collector's write barrier a fence, storing the same receive again nothing.
     */
    @SuppressWarnings("unused")
    private volatile Envelope slot;
    /**
     * The one thread that calls the owner's methods, which then skip the owner lock; null (any
     * thread of the owner, under the lock) until {@link #confineTo}.
     */
    private volatile Thread confined;
    /**
     * The owner's view of the published receive (owner lock held): while {@link #live}, the
     * earliest posted receive; kept, stale, after it is matched, for the reason of {@link #slot}.
     */
    private R published;
    private boolean live;
    /** The odd claim word {@link #published} was published with. */
    private long publishedClaim;

    public LockFreeMailbox(MatchHandler<M, R> handler) {
        this.handler = handler;
    }

    @Override
    public void deliver(M message) {
        inbox.offer(message);
    }

    /**
     * Claims the published receive for {@code message} if it accepts it and nothing has entered
     * the inbox since it was published; lock-free (reads, then one compare-and-set).
     */
    @Override
    @SuppressWarnings("unchecked")
    public R matchPosted(M message) {
        Envelope r = (Envelope) SLOT.getAcquire(this);
        if (r == null) {
            return null;
        }
        long claim = (long) CLAIM.getAcquire(r);
        if ((claim & 1) == 0 || !r.accepts(message) || r.claimIndex != inbox.currentProducerIndex()) {
            return null;
        }
        return CLAIM.compareAndSet(r, claim, claim + 1) ? (R) r : null;
    }

    @Override
    public void confineTo(Thread owner) {
        confined = owner;
    }

    @Override
    public void post(R receive) {
        boolean locked = lockUnlessConfined();
        try {
            drain();
            settle();
            M message = lists.takeUnexpected(receive);
            if (message != null) {
                handler.matched(receive, message);
            } else if (!live) {
                publish(receive);
            } else {
                lists.addPosted(receive);
            }
        } finally {
            unlock(locked);
        }
    }

    @Override
    public M probe(int context, int source, int tag) {
        boolean locked = lockUnlessConfined();
        try {
            drain();
            settle();
            return Envelope.exposed(lists.peekUnexpected(context, source, tag));
        } finally {
            unlock(locked);
        }
    }

    @Override
    public M take(int context, int source, int tag) {
        boolean locked = lockUnlessConfined();
        try {
            drain();
            settle();
            return Envelope.exposed(lists.takeUnexpected(context, source, tag));
        } finally {
            unlock(locked);
        }
    }

    @Override
    public boolean cancel(R receive) {
        boolean locked = lockUnlessConfined();
        try {
            // Drain first: a message already in the inbox that matches this receive wins over the
            // cancel, exactly as if it had been matched before the cancel was called.
            drain();
            boolean cancelled = live && receive == published ? claimPublished() : lists.removePosted(receive);
            settle();
            return cancelled;
        } finally {
            unlock(locked);
        }
    }

    @Override
    public void progress() {
        if (inbox.isEmpty() && !republishable()) {
            return;
        }
        boolean locked = lockUnlessConfined();
        try {
            drain();
            settle();
        } finally {
            unlock(locked);
        }
    }

    @Override
    public boolean hasArrivals() {
        return !inbox.isEmpty();
    }

    @Override
    public List<M> unexpectedSnapshot() {
        if (isForeign()) {
            return lists.unexpected();
        }
        ownerLock.lock();
        try {
            drain();
            settle();
            return lists.unexpected();
        } finally {
            ownerLock.unlock();
        }
    }

    @Override
    public List<R> postedSnapshot() {
        if (isForeign()) {
            return withPublished(lists.posted());
        }
        ownerLock.lock();
        try {
            drain();
            settle();
            return withPublished(lists.posted());
        } finally {
            ownerLock.unlock();
        }
    }

    private List<R> withPublished(List<R> posted) {
        if (live && (long) CLAIM.getVolatile(published) == publishedClaim) {
            posted.add(0, published);
        }
        return posted;
    }

    /**
     * Takes the owner lock unless the calling thread is the one the mailbox is confined to; returns
     * whether it did.
     */
    private boolean lockUnlessConfined() {
        if (confined == Thread.currentThread()) {
            return false;
        }
        ownerLock.lock();
        return true;
    }

    private void unlock(boolean locked) {
        if (locked) {
            ownerLock.unlock();
        }
    }

    /** True for a thread other than the one the mailbox is confined to, if it is confined. */
    private boolean isForeign() {
        Thread c = confined;
        return c != null && c != Thread.currentThread();
    }

    /**
     * Moves every arrived message to a posted receive or to the unexpected list; owner lock held.
     * Returns only once the inbox is empty: a producer that has taken an index but not yet stored
     * its message is waited for (yielding, so that on a loaded machine it gets the core to finish
     * its two instructions), which is what lets {@link #deliver} do without a fence.
     */
    private void drain() {
        for (;;) {
            M message = inbox.relaxedPoll();
            if (message == null) {
                if (inbox.isEmpty()) {
                    return;
                }
                Thread.yield();
                continue;
            }
            R receive = null;
            if (live && published.accepts(message) && claimPublished()) {
                receive = published;
            }
            if (receive == null) {
                receive = lists.takePostedFor(message);
            }
            if (receive == null) {
                lists.addUnexpected(message);
            } else {
                handler.matched(receive, message);
            }
        }
    }

    /**
     * Makes {@code receive}, the earliest posted receive, the one senders may claim; right after a
     * drain. Owner lock held.
     */
    private void publish(R receive) {
        receive.claimIndex = inbox.currentConsumerIndex();
        long claim = (long) CLAIM.getOpaque(receive) | 1;
        CLAIM.setRelease(receive, claim);
        if (published != receive) {
            published = receive;
        }
        publishedClaim = claim;
        live = true;
        if (SLOT.getOpaque(this) != receive) {
            SLOT.setRelease(this, receive);
        }
    }

    /**
     * Takes the published receive away from senders for the owner (a match or a cancel): true if
     * this call won it, false if a sender had claimed it. Either way it is no longer published.
     */
    private boolean claimPublished() {
        live = false;
        return CLAIM.compareAndSet(published, publishedClaim, publishedClaim + 1);
    }

    /**
     * Right after a drain (so that the inbox's consumer index is a valid {@link Envelope#claimIndex}):
     * forgets a published receive that a sender has claimed, and publishes the earliest posted
     * receive if none is published. It accepts no unexpected message: one it accepts would have
     * matched it (or an earlier receive) when it was drained. Owner lock held.
     */
    private void settle() {
        if (live) {
            if ((long) CLAIM.getVolatile(published) == publishedClaim) {
                return;
            }
            live = false;
        }
        R first = lists.takeFirstPosted();
        if (first != null) {
            publish(first);
        }
    }

    /**
     * A hint, read without the owner lock, that a sender has claimed the published receive while
     * others wait behind it: the next should be published (the owner lock then re-checks).
     */
    private boolean republishable() {
        return live && !lists.noPosted() && (long) CLAIM.getOpaque(published) != publishedClaim;
    }
}
