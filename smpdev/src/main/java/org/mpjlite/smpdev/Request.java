package org.mpjlite.smpdev;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.mpjlite.matching.Envelope;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.diag.Awaited;
import org.mpjlite.smpdev.error.Errors;
import org.mpjlite.smpdev.wait.Condition;

/**
 * A pending operation of one rank (a send, a receive, a collective), and, once complete, its status.
 *
 * <p>Memory ordering: the completing thread (the rank's own, or a peer that moved the data) writes
 * the status fields and the received data, then sets {@code complete} with a volatile write and
 * rings the owner's doorbell. A thread that sees {@code complete == true} (volatile read) therefore
 * sees the status and every byte of the data: MPI's "after Wait returns, the buffer holds the
 * message" is a happens-before edge through this field. The owner's mailbox, completing a receive
 * under its owner lock, sets it with a release store instead ({@link #completeInMailbox}): the
 * same edge, without the store-load fence a volatile write costs.
 *
 * <p>The completing methods ({@link #complete}, {@link #completeInMailbox}, {@link #fail},
 * {@link #startCopy}) are public for the device's protocol packages (point-to-point transfer,
 * collectives); the API layer only reads.
 */
public abstract class Request extends Envelope implements Condition, Awaited {
    protected final Rank owner;
    private volatile boolean complete;
    /** Set by a peer that has matched this request and is copying its data now. */
    private volatile boolean copying;
    private int statusSource;
    private int statusTag;
    private int statusCount;
    private BasicType statusType;
    private long statusBytes;
    private boolean cancelled;
    private int errorClass;
    private String errorMessage;
    /** The group told when this request completes ({@link #join}); null for almost every request. */
    private volatile RequestGroup group;
    /** 1 once the group has counted this request: the completer and the joiner race to count it once. */
    private volatile int counted;

    protected Request(Rank owner) {
        this.owner = owner;
    }

    protected Request(Rank owner, int context, int source, int tag) {
        super(context, source, tag);
        this.owner = owner;
    }

    /**
     * Makes a completed request that nobody refers to any more pending again, for another
     * operation of its owner (the device recycles blocking receives). Plain writes: the new
     * operation's hand-over to other threads (posting it) publishes them.
     */
    protected final void reuse(int context, int source, int tag) {
        rekey(context, source, tag);
        COMPLETE.set(this, false);
        COPYING.set(this, false);
        cancelled = false;
        errorClass = 0;
        errorMessage = null;
    }

    public final Rank owner() {
        return owner;
    }

    public final boolean isComplete() {
        return complete;
    }

    /** Waits until complete (the device's single wait path). Does not throw the request's error. */
    public final void await(String call) {
        if (!complete) {
            owner.await(this, call);
        }
    }

    @Override
    public final boolean isMet() {
        return complete;
    }

    @Override
    public final boolean isImminent() {
        return copying;
    }

    /** A peer starts moving this request's data; completion follows without waiting for anyone. */
    public final void startCopy() {
        copying = true;
    }

    public final void complete(int source, int tag, int count, BasicType type) {
        complete(source, tag, count, type, type == null ? 0 : (long) count * type.size());
    }

    /** Completes with a status of {@code count} elements ({@code bytes} bytes) of {@code type} (null: mixed). */
    public final void complete(int source, int tag, int count, BasicType type, long bytes) {
        setStatus(source, tag, count, type, bytes);
        complete = true;
        completed();
    }

    /**
     * Completes as {@link #complete} does, for the owner's mailbox, which matched this receive
     * itself (a message in its receive line or in a ring's cell) and holds its owner lock, or runs
     * on the one thread it is confined to. The completion is a release store, not a volatile
     * write: a thread that sees it sees the status and the data all the same, and the store-load
     * fence a volatile write costs is not needed for the doorbell, because a thread of the owner
     * that parks passes the owner lock after registering ({@code Mailbox.passOwnerLock}), and so
     * does {@link #join}: either this completion's critical section comes first and they see it,
     * or theirs does and the ring and the group's read below see them.
     */
    public final void completeInMailbox(int source, int tag, int count, BasicType type, long bytes) {
        setStatus(source, tag, count, type, bytes);
        COMPLETE.setRelease(this, true);
        completed();
    }

    private void setStatus(int source, int tag, int count, BasicType type, long bytes) {
        statusSource = source;
        statusTag = tag;
        statusCount = count;
        if (statusType != type) { // a recycled request is old: an unchanged reference costs no barrier
            statusType = type;
        }
        statusBytes = bytes;
    }

    /** Wakes the owner's parked threads and counts this request in its group, once it is complete. */
    private void completed() {
        owner.wake();
        RequestGroup g = group;
        if (g != null) {
            countIn(g);
        }
    }

    /**
     * Makes {@code g} count this request's completion, now if it is already complete. Both this
     * and {@link #complete} write one volatile and then read the other's, so at least one of them
     * sees both ({@link #completeInMailbox} writes with a release store under the owner lock, which
     * this passes between its write and its read); the compare-and-set of {@link #counted} makes it
     * exactly one.
     */
    final void join(RequestGroup g) {
        group = g;
        owner.passOwnerLock();
        if (complete) {
            countIn(g);
        }
    }

    private void countIn(RequestGroup g) {
        if (COUNTED.compareAndSet(this, 0, 1)) {
            g.partDone(this);
        }
    }

    /** Completes with the error {@code cause} ended with (a group whose part failed). */
    final void failAs(Request cause) {
        fail(cause.errorClass, cause.errorMessage, ANY_SOURCE, ANY_TAG, 0, null);
    }

    public final void fail(int errorClass, String message, int source, int tag, int count, BasicType type) {
        fail(errorClass, message, source, tag, count, type, type == null ? 0 : (long) count * type.size());
    }

    public final void fail(int errorClass, String message, int source, int tag, int count, BasicType type,
                           long bytes) {
        this.errorClass = errorClass;
        this.errorMessage = message;
        complete(source, tag, count, type, bytes);
    }

    protected final void completeCancelled() {
        cancelled = true;
        complete(ANY_SOURCE, ANY_TAG, 0, null);
    }

    /** Nothing to add to the call's name in a report unless a subclass knows more. */
    @Override
    public String describe(Job job) {
        return "";
    }

    /**
     * Tries to cancel: true if the operation was withdrawn before it matched (it then completes as
     * cancelled), false if it matched or completed first (it completes normally).
     */
    public abstract boolean cancel();

    /** Source rank (in the communicator) of the matched message. Valid once complete. */
    public final int statusSource() {
        return statusSource;
    }

    public final int statusTag() {
        return statusTag;
    }

    /** Elements received, of {@link #statusType()}. */
    public final int statusCount() {
        return statusCount;
    }

    /**
     * Element type of the matched message; null for sends, cancelled requests and messages whose
     * signature mixes types.
     */
    public final BasicType statusType() {
        return statusType;
    }

    /** Bytes received (OBJECT elements count one each). */
    public final long statusBytes() {
        return statusBytes;
    }

    public final boolean isCancelled() {
        return cancelled;
    }

    /** True when the operation ended with an error (truncation, type mismatch). Valid once complete. */
    public final boolean failed() {
        return errorMessage != null;
    }

    /**
     * The error the operation ended with, as a new exception created on the calling thread (so its
     * stack trace shows the user's Wait or Recv, not the thread that moved the data); null if none.
     */
    public final RuntimeException error() {
        return errorMessage == null ? null : Errors.error(errorClass, errorMessage);
    }

    private static final VarHandle COUNTED;
    private static final VarHandle COMPLETE;
    private static final VarHandle COPYING;

    static {
        try {
            COUNTED = MethodHandles.lookup().findVarHandle(Request.class, "counted", int.class);
            COMPLETE = MethodHandles.lookup().findVarHandle(Request.class, "complete", boolean.class);
            COPYING = MethodHandles.lookup().findVarHandle(Request.class, "copying", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
