package org.mpjlite.matching;

/**
 * The envelope of a message, which may keep a place in its sender's {@link MessageRing} order: a
 * message of a sender that has a ring to the mailbox, sent through the inbox, carries the ring's id
 * and its place there (an index of its own, or the indices it follows), and the
 * {@link LockFreeMailbox} matches it in that order. Receives do not carry these fields, so they
 * stay as small as the key needs.
 *
 * <p>Thread safety: as {@link Envelope}: written by the sender before the message is delivered.
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
}
