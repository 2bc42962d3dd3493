package org.mpjlite.matching;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The envelope of a message, which may keep a place in its sender's {@link MessageRing} order: a
 * message of a sender that has a ring to the mailbox, sent through the inbox, carries the ring's id
 * and its place there (an index of its own, or the indices it follows), and the
 * {@link LockFreeMailbox} matches it in that order. Receives do not carry these fields, so they
 * stay as small as the key needs.
 *
 * <p><b>Withdrawal.</b> A message that its sender may take back until it is matched (a pending send
 * that the program cancels) is made withdrawable before delivery ({@link #makeWithdrawable}). Its
 * {@link #binding} word then decides between the sender's {@link #withdraw} and the owner's match
 * with one compare-and-set each, so exactly one of them wins: the owner binds the message before a
 * receive or a matched probe takes it out of the unexpected list ({@link MatchLists}), and holds it
 * while it looks for a posted receive for it on arrival ({@link LockFreeMailbox}), because the
 * receive it finds is taken before the message is handed over; a sender that finds it held waits
 * the few instructions that takes. A withdrawn message stays where it is until the owner next meets
 * it, and is then dropped; probes and snapshots skip it.
 *
 * <p>Thread safety: as {@link Envelope}: written by the sender before the message is delivered;
 * {@link #binding} by compare-and-set (sender and owner) and by the owner's release stores.
 */
public abstract class SentEnvelope extends Envelope {
    /** The ring's id ({@link MessageRing#id}), 0 when the message keeps no ring's order. */
    int ringId;
    /**
     * Its place in the ring's order: {@code 2i + 1} for the message of index {@code i} (a small one
     * whose claim found the ring full), {@code 2p} for one that follows the indices below
     * {@code p} and takes none. Ordered so that a message that follows the indices below p comes
     * before the one of index p.
     */
    long ringPlace;
    /**
     * For a withdrawable message: the use of this message it was made withdrawable for (the bits
     * above the low two, counted up at each {@link #makeWithdrawable}) and its state (the low two:
     * {@link #OPEN}, {@link #HELD}, {@link #BOUND}, {@link #WITHDRAWN}). The use makes a withdrawal
     * meant for an earlier use of a recycled message fail: that use was matched.
     */
    private volatile long binding;

    /** Delivered, not matched: the sender may withdraw it. */
    private static final long OPEN = 0;
    /** The owner is looking for its receive; a withdrawal waits for the outcome. */
    private static final long HELD = 1;
    /** Matched (a receive or a matched probe has it): no longer withdrawable. */
    private static final long BOUND = 2;
    /** Withdrawn by its sender: no receive or probe will ever see it. */
    private static final long WITHDRAWN = 3;
    private static final long STATE = 3;
    private static final VarHandle BINDING;

    static {
        try {
            BINDING = MethodHandles.lookup().findVarHandle(SentEnvelope.class, "binding", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    protected SentEnvelope(int context, int source, int tag) {
        super(context, source, tag);
    }

    /**
     * Makes this message, about to go through the inbox, the message of index {@code index} of
     * {@code ring} (claimed with {@link MessageRing#claim}, no cell found). The caller owns it.
     */
    public final void takesIndex(MessageRing ring, long index) {
        this.ringId = ring.id;
        this.ringPlace = 2 * index + 1;
    }

    /**
     * Makes this message, about to go through the inbox, follow every index of {@code ring} claimed
     * so far ({@link MessageRing#nextIndex}, read now), taking none: it is matched once they are. The
     * caller owns it.
     */
    public final void followsIndicesOf(MessageRing ring) {
        this.ringId = ring.id;
        this.ringPlace = 2 * ring.nextIndex();
    }

    /** A reused message keeps no ring's order until told. The caller owns it. */
    protected final void keepsNoOrder() {
        this.ringId = 0;
    }

    /** Whether this message is a ring index's own, not one that only follows indices. */
    final boolean hasIndex() {
        return (ringPlace & 1) != 0;
    }

    /** The index this message has or follows up to (exclusive). */
    final long index() {
        return ringPlace >> 1;
    }

    /**
     * Makes this message, about to be delivered, one its sender may {@link #withdraw} until it is
     * matched; returns the stamp to withdraw it with. The caller owns it; the delivery publishes it.
     */
    public final long makeWithdrawable() {
        long stamp = ((long) BINDING.get(this) | STATE) + 1; // the next use, OPEN
        BINDING.set(this, stamp);
        withdrawable = true;
        return stamp;
    }

    /**
     * Withdraws the message made withdrawable with {@code stamp} (any thread; its sender's): true if
     * no receive or matched probe has it, and from now on none will. False if it was matched first
     * (the send then completes when its receive has the data). While the owner holds it, waits for
     * the owner to bind it or let go: a few instructions of the owner, which yields to it if it
     * has lost its core.
     */
    public final boolean withdraw(long stamp) {
        int waits = 0;
        for (;;) {
            long b = binding;
            if (b == stamp) {
                if (BINDING.compareAndSet(this, stamp, stamp | WITHDRAWN)) {
                    return true;
                }
            } else if (b == (stamp | HELD)) {
                LockFreeMailbox.awaitPeer(waits++); // only the lock-free mailbox holds messages
            } else {
                return false; // bound, or a later use of a recycled message: this use was matched
            }
        }
    }

    /**
     * The owner takes an arriving withdrawable message in hand while it looks for its receive; false
     * if it is withdrawn (drop it). Then {@link #bindHeld} or {@link #letGo}.
     */
    final boolean hold() {
        long b = binding;
        return (b & STATE) == OPEN && BINDING.compareAndSet(this, b, b | HELD);
    }

    /** The held message has its receive: it is matched. */
    final void bindHeld() {
        BINDING.setRelease(this, (binding & ~STATE) | BOUND);
    }

    /** The held message found no receive and waits, unexpected: withdrawable again. */
    final void letGo() {
        BINDING.setRelease(this, binding & ~STATE);
    }

    /**
     * The owner binds a waiting withdrawable message that a receive or a matched probe is about to
     * take (or, under a locked mailbox's lock, that its sender's own delivery matched); false if it
     * is withdrawn (drop it).
     */
    final boolean bind() {
        long b = binding;
        return (b & STATE) == OPEN && BINDING.compareAndSet(this, b, (b & ~STATE) | BOUND);
    }

    /** Whether a withdrawable message is withdrawn (any thread). */
    final boolean isWithdrawn() {
        return (binding & STATE) == WITHDRAWN;
    }
}
