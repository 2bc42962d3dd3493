package org.mpjlite.matching;

/**
 * The matching key of a message or of a posted receive: communicator context, source rank and tag,
 * plus the intrusive link that lets a {@link MatchLists} hold it without allocating a node.
 *
 * <p>A message carries concrete values. A receive may carry {@link #ANY_SOURCE} and/or
 * {@link #ANY_TAG}. The context is never a wildcard: traffic on one communicator never matches a
 * receive on another.
 *
 * <p>Thread safety: the fields are written by the thread that creates the envelope before it is
 * handed to a {@link Mailbox}; the mailbox's hand-off (a lock or a queue) publishes them. An
 * envelope sits in at most one list at a time; the link belongs to that list's owner.
 */
public abstract class Envelope {
    /** Wildcard source, equal to {@code mpi.MPI.ANY_SOURCE}. */
    public static final int ANY_SOURCE = -1;
    /** Wildcard tag, equal to {@code mpi.MPI.ANY_TAG}. */
    public static final int ANY_TAG = -1;

    protected int context;
    protected int source;
    protected int tag;

    /** Intrusive link, owned by the {@link MatchLists} that currently holds this envelope. */
    Envelope next;

    /**
     * What a receive takes in its mailbox's {@link ReceiveLine} or from a ring's cell: a
     * device-defined kind of data (0: none, the default) and at most how many bytes of it (the line
     * is offered at most its own size). Written by the owner before it posts the receive; unused by
     * messages.
     */
    int lineKind;
    int lineCapacity;
    /**
     * Set by a mailbox when it hands a waiting message to a probe ({@link Mailbox#probe},
     * {@link Mailbox#take}): the caller keeps a reference after the mailbox lets go of it, so the
     * message must not be reused once received ({@link #isExposed}). Written and read by threads
     * that hold the message through the mailbox, which orders them.
     */
    boolean exposed;
    /**
     * Set on a message whose sender may withdraw it ({@link SentEnvelope#makeWithdrawable}): the
     * mailbox binds it before a receive or a matched probe takes it, and drops it if withdrawn.
     * Here rather than in {@link SentEnvelope} so that matching reads it with the key, without a
     * type check; written by the sender before delivery, never set on a receive.
     */
    boolean withdrawable;

    protected Envelope() {
    }

    protected Envelope(int context, int source, int tag) {
        this.context = context;
        this.source = source;
        this.tag = tag;
    }

    public final int context() {
        return context;
    }

    public final int source() {
        return source;
    }

    public final int tag() {
        return tag;
    }

    /**
     * True if a {@link Mailbox#probe} or {@link Mailbox#take} has returned this message: its caller
     * may still read it, so it must not be recycled for another message.
     */
    public final boolean isExposed() {
        return exposed;
    }

    /** Marks a message a mailbox hands to a probe ({@link #isExposed}) and returns it; null passes. */
    static <M extends Envelope> M exposed(M message) {
        if (message != null) {
            message.exposed = true;
        }
        return message;
    }

    /**
     * Sets the key of an envelope that is reused for another message or receive. The caller owns
     * it: no mailbox holds it.
     */
    protected final void rekey(int context, int source, int tag) {
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.exposed = false;
        this.withdrawable = false;
    }

    /**
     * Lets a sender leave a message of {@code kind} (device-defined, not 0) and at most
     * {@code capacity} bytes in the mailbox's {@link ReceiveLine} for this receive (no more than
     * the line holds), and the mailbox hand it one still in a {@link MessageRing} cell
     * ({@link #takesAsLine}); kind 0 lets none. The caller owns the receive: it is not posted yet.
     */
    protected final void takesInLine(int kind, int capacity) {
        this.lineKind = kind;
        this.lineCapacity = capacity;
    }

    /**
     * True when this receive takes a small message of {@code kind} and {@code bytes} bytes as a
     * {@link ReceiveLine} or a {@link MessageRing} cell carries it: the kind it was posted with
     * ({@link #takesInLine}; never kind 0), and no more bytes than that allows.
     */
    public final boolean takesAsLine(int kind, int bytes) {
        return kind != 0 && kind == lineKind && bytes <= lineCapacity;
    }

    /** True when this (a receive pattern) accepts a message with the given concrete key. */
    public final boolean accepts(int msgContext, int msgSource, int msgTag) {
        return context == msgContext
            && (source == ANY_SOURCE || source == msgSource)
            && (tag == ANY_TAG || tag == msgTag);
    }

    /** True when this (a receive pattern) accepts the given message. */
    public final boolean accepts(Envelope message) {
        return accepts(message.context, message.source, message.tag);
    }
}
