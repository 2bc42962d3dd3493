package org.mpjlite.matching;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;
import org.jctools.queues.varhandle.MpscUnboundedVarHandleArrayQueue;
import org.jctools.queues.varhandle.SpscVarHandleArrayQueue;

/**
 * A mailbox whose senders never lock: a message either claims the published receive with one
 * compare-and-set (and the sender moves the data straight into it, or leaves a small message in the
 * mailbox's {@link ReceiveLine}), or is offered to a JCTools multi-producer, single-consumer queue
 * (the inbox) that the owning rank drains and matches itself.
 *
 * <p>Senders are lock-free: one atomic add in the queue (a compare-and-set from JDK 24 on, where
 * the queue must do without {@code sun.misc.Unsafe}: {@link #quietInbox}), or one compare-and-set
 * on the claim word of the receive they claim. The owner's side ({@link #post}, {@link #probe}, {@link #progress}, ...) is
 * serialized by an owner lock ({@link OwnerLock}) that only the owning rank's own threads can contend for (never
 * senders); the inbox's single consumer is whoever holds it. Once the mailbox is confined to one
 * thread ({@link #confineTo}: a rank at {@code THREAD_SINGLE} or {@code THREAD_FUNNELED}), that
 * thread is the only owner and takes no lock at all. The handler runs on the owner's threads, or
 * on the sender's thread after a claim.
 *
 * <p><b>Deferred posts.</b> A receive that the thread named by {@link #deferPostsOf} (the rank's
 * Init thread) posts while an earlier receive waits goes into a single-producer queue of at most
 * {@link #DEFERRED_POSTS} receives, not into the lists: no owner lock, no drain, a store of the
 * receive and a release store of the queue's index. Every call of the owner's that matches
 * ({@link #post} under the lock, {@link #probe}, {@link #take}, {@link #cancel}, {@link #progress},
 * the snapshots) first drains the inbox and then puts the deferred receives in their places, in
 * order, exactly as {@link #post} would have with the inbox drained: the earliest unexpected
 * message each accepts, else published if none is, else posted behind the rest; only then does it
 * drain the rings. So a window of receives posted ahead of its messages (a stream's receiver) takes
 * the lock once per round of its wait, not once per receive; the rank's waits and tests find them
 * through {@link #progress}, which matches whenever the queue is not empty. Nothing a sender does
 * depends on them: a sender claims only the published receive, which is earlier than every
 * deferred one, and a message that a deferred receive accepts and no earlier receive does waits in
 * the inbox, a ring or the unexpected list until the receive takes its place, as it would have
 * waited there had the receive been posted at once and the owner not yet drained. Whether an earlier receive waits is read without the lock ({@code state}, a
 * hint): a stale reading only costs the post its deferral or the next match a publish, never the
 * order. Another thread of the rank that posts after it learnt of a deferred receive (its own
 * happens-before) takes the deferred one into the lists first, as the queue's consumer under the
 * owner lock; one that did not may go first, as any two concurrent posts may. A rank parked in a
 * wait has no deferred receive: its wait matched before parking.
 *
 * <p>Snapshots ({@link #unexpectedSnapshot}, {@link #postedSnapshot}) asked for by another thread
 * of a confined mailbox (a deadlock report) read the lists as they are, without matching what
 * has arrived: the owner does not lock, and only it may consume the inbox. Such a report is made
 * of a rank parked in a blocking call, which does not change its lists while it stays parked.
 *
 * <p><b>The published receive.</b> The earliest posted receive (wildcards allowed) is the one
 * senders may claim. The owner publishes it right after emptying the inbox (when it posts a receive
 * while none is published, or when the one published before was matched and others wait): it has
 * found no unexpected message the receive accepts, and writes the receive's pattern and the inbox's
 * index into the line, then makes the line's claim word odd with a release store. A sender may
 * claim it if it accepts the message and the inbox's producer index still equals that index:
 * <ul>
 *   <li>{@link #matchPosted}: the claim word goes from odd to the next even value, and the sender
 *       moves the data into the receive and completes it itself;</li>
 *   <li>{@link #claimLine}, for a message small enough for the line and of the kind the receive
 *       takes there: the claim word goes up by {@link ReceiveLine#LINE_CLAIM}; the sender writes its
 *       data and status into the line and then the filled word, and the owner, polling that line,
 *       completes the receive ({@link MatchHandler#matchedInLine}) and only then publishes again.</li>
 * </ul>
 * The owner matches the published receive against arriving messages with the same compare-and-set
 * (odd to the next even value), so of a sender's claim, the owner's match and a cancel exactly one
 * wins.
 *
 * <p><b>Rings.</b> A sender whose small message finds no receive to claim opens a
 * {@link MessageRing} here ({@link #openRing}, at most {@link #MAX_RINGS} per mailbox, made by
 * {@code reader}) and from then on sends every message here in that ring's order: small ones in its
 * cells, the rest through the inbox carrying their ring index. The owner matches each ring's
 * messages in index order, holding an inbox message back until the indices before it are matched,
 * and matches a cell only after the inbox messages offered before the cell was published. A sender
 * claims the published receive only while its ring is drained (every index matched; an index is
 * counted only after its message is matched), so no claim overtakes a message still in the ring.
 * A receive that takes a cell's message as it would take it in the line (its kind, and it fits)
 * gets it straight from the cell ({@link MatchHandler#matchedInCell}): no message is made. A post
 * drains the rings only until its receive has matched, leaving later cells for the receives posted
 * next, and only when no earlier receive waits (else the next wait, test or probe drains them).
 * The owner polls a ring's next cell, never its producer index, which the sender writes at
 * every message. It tells the senders how far it has matched once per drain of the rings, and at
 * once when it matches a ring's message that came through the inbox: so whenever the owner's side
 * is idle, what the senders were told is what has been matched, and that is where the rank's
 * waiters look for each ring's next cell.
 *
 * <p>Why the claim keeps MPI's order: a receive matches the earliest message it accepts, and a
 * sender's earlier message to this rank was offered to the inbox before the sender reads the
 * producer index, so if the index still equals the published one that message was drained (and
 * matched, or kept as unexpected and found not accepted) before the receive was published. The
 * check is stronger than MPI needs (it also waits for other senders' messages), which keeps it one
 * read.
 * A message matches the earliest posted receive: the published one is the earliest; receives
 * posted after it wait in the owner's list, and the next is published once it is matched (for a
 * message left in the line, once the owner has consumed it).
 *
 * <p>Memory ordering: the queue's offer/poll, and the release/acquire of the claim word (then the
 * compare-and-set that wins it), publish a message's or a receive's fields; a ring cell's sequence
 * word (release/acquire) publishes the cell; the filled word's
 * volatile write and acquire read publish a message left in the line. There is no full fence: a
 * parking owner and a sender meet in a Dekker handshake through sequentially consistent atomics
 * only: the sender's atomic update of the producer index, the inbox's or its ring's (or the
 * completing volatile write of a claimed receive, or of the filled word) and then its volatile read
 * of the doorbell, against the waiter's compare-and-set in the doorbell and then its volatile reads
 * of the producer indices and the filled word ({@link #progress}, then {@link #hasArrivals}). A
 * message whose inbox index the owner sees before its element is stored is waited for (drain
 * returns only with the inbox empty), a few instructions of the producer away. A ring's message
 * whose index is claimed and not yet in its cell is not: the owner polling for messages reads the
 * rings' cells, not their producer indices, and a waiter about to park that finds an index claimed
 * ({@link #hasArrivals}) does not park.
 */
public final class LockFreeMailbox<M extends Envelope, R extends Envelope> extends LockFreeMailboxOwnerPadding<M>
    implements Mailbox<M, R> {
    /** Nothing published. */
    private static final int NONE = 0;
    /** Pauses a drain makes for a sender mid-message before it yields the core to it. */
    private static final int PAUSES_BEFORE_YIELD = 100;
    /** {@link #published} is published, unless a sender has claimed it since. */
    private static final int LIVE = 1;
    /** A sender claimed {@link #published} to leave its message in the line, and may still be writing it. */
    private static final int FILLING = 2;
    private static final VarHandle SLOT;
    private static final VarHandle CONSUMED;

    static {
        try {
            SLOT = MethodHandles.lookup().findVarHandle(LockFreeMailboxSenderFields.class, "slot", Envelope.class);
            CONSUMED = MethodHandles.lookup().findVarHandle(LockFreeMailbox.class, "consumed", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // The owner's fields, which it writes at every publish: behind the padding of the superclasses,
    // off the lines senders read.
    private final OwnerLock ownerLock = new OwnerLock();
    private final MatchLists<M, R> lists = new MatchLists<>();
    private final MatchHandler<M, R> handler;
    /** Makes the owner's message of a ring's cell; null: this mailbox opens no rings. */
    private final RingReader<M> reader;
    /** The bytes of the overflow arrays of this mailbox's rings (their senders add, rarely). */
    private final AtomicLong ringOverflowBytes = new AtomicLong();
    /**
     * The one thread that calls the owner's methods, which then skip the owner lock; null (any
     * thread of the owner, under the lock) until {@link #confineTo}.
     */
    private volatile Thread confined;
    /** The one thread whose posts may wait in {@link #deferred} ({@link #deferPostsOf}); null: none. */
    private volatile Thread deferring;
    /**
     * The receives {@link #deferring} posted while an earlier one waited, oldest first, not yet in
     * the lists: produced by that thread only, consumed under the owner lock (or by the confined
     * thread). JCTools' VarHandle queue, which needs no {@code sun.misc.Unsafe} on any JDK.
     */
    private final SpscVarHandleArrayQueue<R> deferred = new SpscVarHandleArrayQueue<>(DEFERRED_POSTS);
    /**
     * The owner's view of the published receive (owner lock held): while {@link #state} is not
     * {@link #NONE}, the earliest posted receive; kept, stale, after it is matched, for the reason of
     * {@code slot}. Read without the lock only as a hint ({@link #settleable}).
     */
    private R published;
    /**
     * The receive being posted while {@link #post} drains the rings (owner lock held), else null:
     * the latest posted receive, so a message no earlier receive accepts goes to it straight from
     * its cell rather than to the unexpected list. Null again once it has matched.
     */
    private R incoming;
    private int state = NONE;
    /** The odd claim word {@link #published} was published with. */
    private long publishedClaim;
    /**
     * The line claim of the last message the owner consumed from the line, for
     * {@link #hasArrivals} (any thread): until the next publish the line still shows it filled.
     */
    @SuppressWarnings("unused")
    private long consumed = -1;

    /** A mailbox whose senders have no {@link MessageRing}s: small messages they cannot leave in the line take the inbox. */
    public LockFreeMailbox(MatchHandler<M, R> handler) {
        this(handler, null);
    }

    /**
     * A mailbox that opens {@link MessageRing}s to its senders ({@link #openRing}); {@code reader}
     * makes the owner's message of a ring's cell.
     */
    public LockFreeMailbox(MatchHandler<M, R> handler, RingReader<M> reader) {
        this.handler = handler;
        this.reader = reader;
    }

    /**
     * A new ring for one sender's messages to this mailbox, or null when this mailbox has
     * {@link #MAX_RINGS} already (or opens none). The sender keeps it and sends every later message
     * here through it ({@link MessageRing}). Any thread; rare.
     */
    @Override
    public synchronized MessageRing openRing() {
        MessageRing[] current = rings;
        if (reader == null || current.length == MAX_RINGS) {
            return null;
        }
        MessageRing ring = new MessageRing(current.length + 1, ringOverflowBytes);
        MessageRing[] next = Arrays.copyOf(current, current.length + 1);
        next[current.length] = ring;
        rings = next;
        return ring;
    }

    @Override
    public void deliver(M message) {
        if (XADD_INBOX) {
            inbox.offer(message);
        } else {
            quietInbox.offer(message);
        }
    }

    /**
     * Claims the published receive for {@code message} if it accepts it and nothing has entered
     * the inbox since it was published; lock-free (reads, then one compare-and-set).
     */
    @Override
    @SuppressWarnings("unchecked")
    public R matchPosted(M message) {
        long claim = line.claim();
        if ((claim & 1) == 0 || !line.accepts(message.context, message.source, message.tag)
            || line.claimIndex() != inboxProducerIndex()) {
            return null;
        }
        // Read before the claim: once it is won, the owner may publish the next receive here.
        Envelope r = (Envelope) SLOT.getAcquire(this);
        return line.tryClaim(claim, claim + 1) ? (R) r : null;
    }

    /**
     * Claims the published receive, as {@link #matchPosted}, for a message the sender leaves in the
     * line; lock-free.
     */
    @Override
    public long claimLine(int context, int source, int tag, int kind, int bytes) {
        long claim = line.claim();
        if ((claim & 1) == 0 || !line.takes(kind, bytes) || !line.accepts(context, source, tag)
            || line.claimIndex() != inboxProducerIndex()) {
            return NO_CLAIM;
        }
        long claimed = claim + ReceiveLine.LINE_CLAIM;
        return line.tryClaim(claim, claimed) ? claimed : NO_CLAIM;
    }

    @Override
    public boolean inboxBusy() {
        return !inboxEmpty();
    }

    @Override
    public ReceiveLine line() {
        return line;
    }

    @Override
    public void passOwnerLock() {
        unlock(lockUnlessConfined());
    }

    @Override
    public void confineTo(Thread owner) {
        confined = owner;
    }

    @Override
    public void deferPostsOf(Thread poster) {
        deferring = poster;
    }

    /**
     * Posts a receive: it matches the earliest unexpected message it accepts; else, if no receive
     * posted before it waits, the rings are drained with it as the latest posted receive, so that a
     * message it takes goes into it straight from its cell ({@link #incoming}); else it waits,
     * published if it is the earliest. An unexpected message is taken before the rings are drained:
     * of one sender's messages, those already unexpected came first.
     *
     * <p>While an earlier receive waits, the rings are left for the rank's next wait, test or probe
     * (or a post with none waiting) to drain: this rank is then ahead of its senders, and reading a
     * ring's next cell at every post would take the line back from the sender about to write it,
     * each time. A window of receives posted before the sender's messages arrive is thus matched
     * in one drain, behind the sender, as its cells fill.
     */
    @Override
    public void post(R receive) {
        // state read without the lock: a hint (see Deferred posts); a full queue takes the lock,
        // which puts the deferred receives in their places before this one.
        if (state != NONE && deferring == Thread.currentThread() && deferred.offer(receive)) {
            return;
        }
        boolean locked = lockUnlessConfined();
        try {
            drainInbox(Long.MAX_VALUE);
            settle();
            integrateDeferred();
            if (matchUnexpected(receive)) {
                return;
            }
            MessageRing[] current = rings;
            // NONE after a settle: no receive waits (a waiting one would have been published).
            if (current.length != 0 && state == NONE) {
                incoming = receive;
                drainRings(current);
                boolean matched = incoming == null;
                incoming = null;
                settle();
                if (matched) {
                    return;
                }
            }
            leavePosted(receive);
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
            boolean cancelled = state == LIVE && receive == published ? claimPublished() : lists.removePosted(receive);
            settle();
            return cancelled;
        } finally {
            unlock(locked);
        }
    }

    @Override
    public void progress() {
        if (inboxEmpty() && !settleable() && !ringsPublished() && deferred.isEmpty()) {
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

    /**
     * The inbox's raw producer index (any thread): one step per message in the atomic-add queue,
     * two in the VarHandle queue, odd there while an offer links a new chunk. The mailbox only
     * compares raw indices: an offer counts from its atomic update of the producer index on, the
     * write a waiter's handshake relies on, with nothing rounded away.
     */
    private long inboxProducerIndex() {
        return XADD_INBOX ? inbox.lvProducerIndex() : quietInbox.lvProducerIndex();
    }

    /** The inbox's raw consumer index (any thread). */
    private long inboxConsumerIndex() {
        return XADD_INBOX ? inbox.lvConsumerIndex() : quietInbox.lvConsumerIndex();
    }

    /**
     * Whether every message offered to the inbox has been taken (any thread; the consumer index
     * read first, so an offer made in between reads as not taken).
     */
    private boolean inboxEmpty() {
        long consumed = inboxConsumerIndex();
        return consumed == inboxProducerIndex();
    }

    @Override
    public boolean hasArrivals() {
        long filled = line.filled();
        return !inboxEmpty() || filled == line.claim() && filled != (long) CONSUMED.getAcquire(this)
            || ringsPending();
    }

    /**
     * Whether a ring's next message is in its cell (any thread): what a polling owner reads, the
     * cell the sender writes anyway, not the producer index, which the sender writes at every
     * message and would have to win back from the owner's core.
     */
    private boolean ringsPublished() {
        for (MessageRing r : rings) {
            if (r.hasPublished()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a ring has an index claimed and not matched yet (any thread): a message in its cell,
     * or one whose sender is between its claim and its publish.
     */
    private boolean ringsPending() {
        for (MessageRing r : rings) {
            if (r.hasPending()) {
                return true;
            }
        }
        return false;
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
        if (state == LIVE && line.claim() == publishedClaim) {
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
     * Posts the receives {@link #deferring} left in {@link #deferred}, in order, as {@link #post}
     * would have; right after a drain of the inbox and a settle. Owner lock held.
     */
    private void integrateDeferred() {
        R receive;
        while ((receive = deferred.relaxedPoll()) != null) {
            if (!matchUnexpected(receive)) {
                leavePosted(receive);
            }
        }
    }

    /** Hands {@code receive} the earliest unexpected message it accepts; false if none does. Owner lock held. */
    private boolean matchUnexpected(R receive) {
        M message = lists.takeUnexpected(receive);
        if (message == null) {
            return false;
        }
        handler.matched(receive, message);
        return true;
    }

    /**
     * Leaves {@code receive}, which took no unexpected message, to wait: published if none is,
     * else posted behind the others. Right after a drain of the inbox and a settle; owner lock held.
     */
    private void leavePosted(R receive) {
        if (state == NONE) {
            publish(receive);
        } else {
            lists.addPosted(receive);
        }
    }

    /**
     * Moves every arrived message, from the inbox and from the rings, to a posted receive or to the
     * unexpected list, putting the deferred receives in their places between the two (after the
     * inbox, which publishing a receive needs drained; before the rings, whose cells they may take
     * straight); owner lock held. Returns once the inbox is empty (a producer that has taken
     * an index but not yet stored its message is waited for, {@link #awaitPeer}) and no ring's
     * next message is in its cell. A ring's sender between its claim and its publish is not waited
     * for: its send has not returned, and {@link #hasArrivals} tells a waiter about to park that it
     * is coming.
     */
    private void drain() {
        drainInbox(Long.MAX_VALUE);
        if (!deferred.isEmpty()) {
            settle();
            integrateDeferred();
        }
        MessageRing[] current = rings;
        if (current.length != 0) {
            drainRings(current);
        }
    }

    /**
     * Waits, for the {@code waits}-th time, for another thread a few instructions from done: a sender
     * that has taken an index of the inbox and not yet stored its message, or (for
     * {@link SentEnvelope#withdraw}) an owner holding a message while it looks for its receive. A
     * pause when that thread runs, not a system call; after {@link #PAUSES_BEFORE_YIELD} waits it
     * may have lost its core, and a yield lets it finish.
     */
    static void awaitPeer(int waits) {
        if (waits < PAUSES_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }

    /**
     * Matches what the inbox holds, until it is empty or the consumer reaches {@code upTo}, a raw
     * producer index the caller read ({@link #inboxProducerIndex}). A message whose index was taken
     * but not yet stored is waited for.
     */
    private void drainInbox(long upTo) {
        int waits = 0;
        while (upTo == Long.MAX_VALUE || inboxConsumerIndex() < upTo) {
            M message = XADD_INBOX ? inbox.relaxedPoll() : quietInbox.relaxedPoll();
            if (message == null) {
                if (inboxEmpty()) {
                    return;
                }
                awaitPeer(waits++);
                continue;
            }
            if (message instanceof SentEnvelope sent && sent.ringId != 0) {
                inRingOrder(rings[sent.ringId - 1], sent);
            } else {
                match(message);
            }
        }
    }

    /**
     * A message of a ring's sender that came through the inbox: matched in its turn, or held until
     * then; then the senders are told how far the ring is matched. At once, not at the end of a
     * drain of the rings: a post drains the inbox alone, and the rank's waiters look for the ring's
     * next message at the index the senders were told ({@link #ringsPublished}), so an index matched
     * here and not told would hide every later cell from them. Only messages that take the inbox
     * (a full ring's, longer ones) pay for it.
     */
    private void inRingOrder(MessageRing ring, SentEnvelope message) {
        if (!ring.holdsAny() && ring.isDue(message)) {
            matchInTurn(ring, message);
        } else {
            ring.hold(message);
        }
        matchHeld(ring);
        ring.publishMatched();
    }

    /** Matches the held messages of a ring whose turn has come, in order. */
    private void matchHeld(MessageRing ring) {
        SentEnvelope due;
        while ((due = ring.takeDue()) != null) {
            matchInTurn(ring, due);
        }
    }

    /** Matches a message whose turn has come, then counts its index if it has one. */
    @SuppressWarnings("unchecked")
    private void matchInTurn(MessageRing ring, SentEnvelope message) {
        match((M) message);
        if (message.hasIndex()) {
            ring.matched(message.index());
        }
    }

    /**
     * Matches what the rings hold, each ring in its order, up to the first index not in its cell,
     * or, while a receive is being posted, until it has matched (the rest stays in the cells, for
     * the receives posted next to take straight from there); then tells each ring's sender how far
     * its messages are matched.
     */
    private void drainRings(MessageRing[] current) {
        boolean posting = incoming != null;
        for (MessageRing ring : current) {
            for (;;) {
                matchHeld(ring);
                if (posting && incoming == null) {
                    break;
                }
                long next = ring.next();
                if (ring.isPublished(next)) {
                    // A message offered to the inbox before this cell was published (one that
                    // follows the ring's indices, or one sent before the ring existed) is matched
                    // first: its inbox index is below the producer index read now. Later offers
                    // are not waited for.
                    drainInbox(inboxProducerIndex());
                    // Matched first, then counted: a sender that sees its ring drained may claim
                    // the published receive, which this message may be about to take.
                    matchCell(ring, next);
                    ring.matched(next);
                } else {
                    break;
                }
            }
        }
        // After all the matching: a drain of the inbox above may have matched another ring's messages.
        for (MessageRing ring : current) {
            ring.publishMatched();
        }
    }

    /**
     * Matches one arrived message: the published receive, else the earliest posted one, else the
     * one being posted, else unexpected.
     */
    private void match(M message) {
        if (message.withdrawable) {
            matchWithdrawable(message);
            return;
        }
        matchTo(receiveFor(message.context, message.source, message.tag), message);
    }

    /**
     * Matches an arrived message its sender may withdraw: held while its receive is looked for (the
     * receive is taken before the message is handed to it, so the sender's withdrawal must wait for
     * the outcome), then bound to the receive, or let go as unexpected; dropped if withdrawn.
     */
    private void matchWithdrawable(M message) {
        SentEnvelope sent = (SentEnvelope) message;
        if (!sent.hold()) {
            return;
        }
        R receive = receiveFor(message.context, message.source, message.tag);
        if (receive == null) {
            lists.addUnexpected(message);
            sent.letGo();
        } else {
            sent.bindHeld();
            handler.matched(receive, message);
        }
    }

    /** Hands {@code message} to {@code receive}, the one it matched; null: keeps it unexpected. */
    private void matchTo(R receive, M message) {
        if (receive == null) {
            lists.addUnexpected(message);
        } else {
            handler.matched(receive, message);
        }
    }

    /**
     * Matches the message in a ring's cell as {@link #match} does: into a receive that takes it as
     * a line would ({@link Envelope#takesAsLine}), straight from the cell; otherwise (unexpected,
     * or a receive that rejects or truncates it) as a message the reader makes of the cell.
     */
    private void matchCell(MessageRing ring, long index) {
        int kind = ring.kind(index);
        if (kind == MessageRing.NO_MESSAGE) {
            return;
        }
        R receive = receiveFor(ring.context(index), ring.source(index), ring.tag(index));
        if (receive != null && receive.takesAsLine(kind, ring.bytes(index))) {
            handler.matchedInCell(receive, ring, index);
            return;
        }
        matchTo(receive, reader.read(ring, index));
    }

    /**
     * Takes the receive a message of this key matches: the published one, else the earliest
     * posted one, else the one being posted ({@link #incoming}); null if none accepts it.
     */
    private R receiveFor(int context, int source, int tag) {
        if (state == LIVE && published.accepts(context, source, tag) && claimPublished()) {
            return published;
        }
        R receive = lists.takePostedFor(context, source, tag);
        if (receive == null && incoming != null && incoming.accepts(context, source, tag)) {
            receive = incoming;
            incoming = null;
        }
        return receive;
    }

    /**
     * Makes {@code receive}, the earliest posted receive, the one senders may claim; right after a
     * drain, with nothing published (the claim word even). Owner lock held.
     */
    private void publish(R receive) {
        long claim = line.claimOpaque() + 1;
        if (SLOT.getOpaque(this) != receive) {
            SLOT.setRelease(this, receive);
        }
        if (published != receive) {
            published = receive;
        }
        publishedClaim = claim;
        state = LIVE;
        line.publish(receive, claim, inboxConsumerIndex());
    }

    /**
     * Takes the published receive away from senders for the owner (a match or a cancel): true if
     * this call won it, false if a sender had claimed it (a sender leaving its message in the line
     * leaves the receive {@link #FILLING}). Either way it is no longer published.
     */
    private boolean claimPublished() {
        long found = line.claimFrom(publishedClaim, publishedClaim + 1);
        if (found == publishedClaim) {
            state = NONE;
            return true;
        }
        state = found == publishedClaim + ReceiveLine.LINE_CLAIM ? FILLING : NONE;
        return false;
    }

    /**
     * Right after a drain (so that the inbox's consumer index is a valid index to publish at):
     * notices a sender's claim of the published receive, completes the receive from the line once a
     * sender has left its message there, and publishes the earliest posted receive if none is
     * published. While a sender is still writing the line nothing is published: the next message
     * takes the inbox. A published receive accepts no unexpected message: one it accepts would have
     * matched it (or an earlier receive) when it was drained. Owner lock held.
     */
    private void settle() {
        if (state == LIVE) {
            long claim = line.claim();
            if (claim == publishedClaim) {
                return;
            }
            state = claim == publishedClaim + ReceiveLine.LINE_CLAIM ? FILLING : NONE;
        }
        if (state == FILLING) {
            if (line.filled() != publishedClaim + ReceiveLine.LINE_CLAIM) {
                return;
            }
            state = NONE;
            CONSUMED.setRelease(this, publishedClaim + ReceiveLine.LINE_CLAIM);
            handler.matchedInLine(published, line);
        }
        R first = lists.takeFirstPosted();
        if (first != null) {
            publish(first);
        }
    }

    /**
     * A hint, read without the owner lock, that {@link #settle} has work: a message left in the
     * line, or a sender's claim of the published receive while others wait behind it (the next
     * should be published). The owner lock then re-checks.
     */
    private boolean settleable() {
        if (state == NONE) {
            return false;
        }
        return line.filled() == publishedClaim + ReceiveLine.LINE_CLAIM
            || !lists.noPosted() && line.claimOpaque() != publishedClaim;
    }
}

/**
 * Padding before the fields senders read, so that they share no cache line with whatever was
 * allocated just before the mailbox (superclass fields come first in an object). Bytes, so that the
 * JVM finds no gap in them to fill with a subclass's field.
 */
abstract class LockFreeMailboxPadding {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

/**
 * What senders read of a {@link LockFreeMailbox}: set once, or (the slot) only when the published
 * receive changes, so that a sender's read finds the line in its own cache.
 */
abstract class LockFreeMailboxSenderFields<M extends Envelope> extends LockFreeMailboxPadding {
    private static final int CHUNK = 256;
    static final MessageRing[] NO_RINGS = new MessageRing[0];
    /**
     * The most rings a mailbox opens: each is 8 KB of native memory (16 KB once a message longer
     * than a cell's own data has spilled; longer ones add an overflow array per cell, as long as
     * the longest message's rest rounded up to a power of two, at least 1 KB: 64 KB to 256 KB per
     * ring, at most {@link MessageRing#OVERFLOW_BUDGET_BYTES} for all of them), and the owner
     * polls each.
     */
    static final int MAX_RINGS = 8;

    /**
     * The first JDK whose {@code sun.misc.Unsafe} memory access prints a warning at run time (JEP
     * 498); JEP 471 is to deny it by default and then remove it.
     */
    static final int FIRST_UNSAFE_WARNING_JDK = 24;
    /**
     * How many receives the Init thread may leave deferred at once: two windows of
     * {@code OSUBandwidth}; past that a post takes the lock (and the deferred ones into the lists).
     */
    static final int DEFERRED_POSTS = 128;
    /**
     * The system property that, set to {@code true}, makes the inbox the VarHandle queue
     * ({@link #quietInbox}) on every JDK, so that the tests run it on JDK 17 as well (the build
     * does, in a second test run of this module and of {@code smpdev} up to JDK 23). Read once,
     * when this class is loaded.
     */
    public static final String VAR_HANDLE_INBOX_PROPERTY = "mpjlite.mailbox.varHandleInbox";
    /**
     * Whether the inbox is the atomic-add queue ({@link #inbox}) rather than the VarHandle one
     * ({@link #quietInbox}): below JDK 24, unless {@link #VAR_HANDLE_INBOX_PROPERTY} is set. A
     * constant, so the compiler keeps only one side of each choice between the two.
     */
    static final boolean XADD_INBOX = Runtime.version().feature() < FIRST_UNSAFE_WARNING_JDK
        && !Boolean.getBoolean(VAR_HANDLE_INBOX_PROPERTY);
    /**
     * The inbox up to JDK 23: JCTools' queue whose producers take their index with one atomic add
     * (never a retry; its chunks are kept for reuse), built on {@code sun.misc.Unsafe}. Null from
     * JDK 24 on (or with {@link #VAR_HANDLE_INBOX_PROPERTY}), where {@link #quietInbox} is the inbox. Two concrete fields, one of them null,
     * rather than one behind JCTools' interfaces: the claim of a published receive reads the
     * producer index at every message, and through the interfaces a ping-pong through the receive
     * line took 1.05-1.22 times as long (four runs of {@code benchmarks/side-by-side}, JDK 17).
     */
    final MpscUnboundedXaddArrayQueue<M> inbox = XADD_INBOX ? new MpscUnboundedXaddArrayQueue<>(CHUNK) : null;
    /**
     * The inbox from JDK 24 on: JCTools' VarHandle queue, which uses no {@code sun.misc.Unsafe}, so
     * that no JDK needs a JVM option for the mailbox; a compare-and-set per offer, and a new chunk
     * whenever the inbox backs up past one. Null up to JDK 23, unless {@link #VAR_HANDLE_INBOX_PROPERTY}
     * is set.
     */
    final MpscUnboundedVarHandleArrayQueue<M> quietInbox = XADD_INBOX ? null : new MpscUnboundedVarHandleArrayQueue<>(CHUNK);
    final ReceiveLine line = ReceiveLine.allocate();
    /** The rings senders opened here, in the order of their ids; replaced whole when one opens. */
    volatile MessageRing[] rings = NO_RINGS;
    /**
     * The published receive, for a sender that claims it to fill it itself
     * ({@link LockFreeMailbox#matchPosted}); only the owner writes it, before the claim word's
     * release. It keeps pointing at a receive after that one is matched until the next is
     * published: a reference store into this long-lived object costs the G1 collector's write
     * barrier a fence, storing the same receive again nothing.
     */
    volatile Envelope slot;
}

/** Padding between what senders read and what the owner writes at every publish. */
abstract class LockFreeMailboxOwnerPadding<M extends Envelope> extends LockFreeMailboxSenderFields<M> {
    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
}
