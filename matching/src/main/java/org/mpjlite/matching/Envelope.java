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
