package org.mpjlite.smpdev.p2p;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.data.TypeMap;

/**
 * One rank's reuse of the objects of its message path, so that a small message in steady state
 * allocates nothing: the {@link Message}s it sends, and the {@link RecvRequest}s of its receives.
 *
 * <p>Only one thread of the rank uses it, the first that sends or receives (the rank's main thread
 * in a program): every other thread allocates, as before. So it needs no atomic but one compare of
 * the calling thread. A message, once received, is kept by the thread that consumed it, if that is
 * the user thread of the message's sending rank (a message to self, or one the sender moved into a
 * receive it claimed) or of the receiving rank (one drained from the inbox): it goes into that
 * rank's free list, at most {@link Tunables#RECYCLED_MESSAGES} deep, and is sent from there next.
 * No message goes back across threads: handing each received message back to its sender (a
 * compare-and-set on a stack the sender takes from) wrote one line from both threads per message
 * and cut a stream of small messages to about half its rate. So messages wander between the ranks
 * that exchange them; a ping-pong whose messages take the same path both ways allocates nothing.
 * A one-way stream of small messages goes through the sender's ring, whose cells the receiver turns
 * into messages of its own list, so neither side allocates; a stream of larger messages (or one
 * overflowing its ring) allocates at the sender once the receiver's list is full (the receiver
 * drops what it cannot keep). Handing them back in batches of 32 (one compare-and-set each) made
 * both allocation-free but a stream slower still: a reused message's lines were last written on the
 * other core, where a fresh one comes out of the sender's own allocation buffer.
 *
 * <p>Receive requests go round a ring of {@link Tunables#RECYCLED_RECEIVES}: a receive takes the
 * one freed last if it is free (a blocking receive in a loop reuses one request), else the next
 * free one from a cursor (a window of non-blocking receives takes them in turn). A request is free
 * again once nothing can reach it: the API has read the status of a blocking receive, or collected
 * a non-blocking one (which deactivates the program's {@code Request}). A request taken and never
 * freed (a receive left pending, or collected on another thread) is replaced in the ring when the
 * cursor finds it busy. Taking and freeing write an int and a boolean, no reference: a recycled
 * request is an old object, and a reference stored into one costs the G1 collector's write barrier
 * a fence.
 *
 * <p>Memory ordering: a recycler's lists are read and written by its user thread only. A message
 * reaches that thread through the mailbox that delivered it (whose release and acquire order the
 * sender's last use of it, which comes before the delivery, before the receiver's) or on the
 * sender's own thread after a claim; it goes to its next receiver the same way.
 */
final class Recycler {
    private static final VarHandle USER;
    /** Busy slots a receive passes over, from the cursor, before it makes a new request. */
    private static final int RECEIVE_PROBES = 4;

    static {
        try {
            USER = MethodHandles.lookup().findVarHandle(Recycler.class, "user", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The one thread that uses this recycler; set once, by the first that asks. */
    @SuppressWarnings("unused")
    private volatile Thread user;
    /** The user thread's free messages (beyond {@link #last}). */
    private Message free;
    /**
     * The message the user thread took last, and whether it is free again: in steady state one
     * message goes round and round, and a flag saves the reference stores of a list (each a
     * fence in the G1 collector's write barrier, since a recycled message is an old object).
     */
    private Message last;
    private boolean lastFree;
    /** The user thread's receive requests (null: not made yet); see the class comment. */
    private final RecvRequest[] receives = new RecvRequest[Tunables.RECYCLED_RECEIVES];
    /** Where the next receive looks after {@link #lastFreed}. */
    private int cursor;
    /** The slot in {@link #receives} of the request freed last, or -1. */
    private int lastFreed = -1;

    /** A message to send: a recycled one for the user thread when there is one, else a new one. */
    Message message(int context, int source, int tag, TypeMap map, int items, String call) {
        if (isUser()) {
            Message m;
            if (lastFree) {
                lastFree = false;
                m = last;
            } else {
                m = free;
                if (m == null) {
                    m = new Message(context, source, tag, map, items, call);
                    last = m;
                    return m;
                }
                free = m.nextFree;
                m.nextFree = null;
                last = m;
            }
            m.reuse(context, source, tag, map, items, call);
            return m;
        }
        return new Message(context, source, tag, map, items, call);
    }

    /**
     * Keeps a consumed message if the calling thread is the user thread: the message it took last
     * only sets a flag, another goes to the free list (dropped when that is full, or when another
     * thread calls: the collector takes it).
     */
    void keep(Message m) {
        if ((Thread) USER.getOpaque(this) != Thread.currentThread()) {
            return;
        }
        if (m == last && !lastFree) {
            lastFree = true;
            return;
        }
        int depth = free == null ? 1 : free.freeDepth + 1;
        if (depth <= Tunables.RECYCLED_MESSAGES) {
            m.nextFree = free;
            m.freeDepth = depth;
            free = m;
        }
    }

    /** A receive request: a free one of the ring for the user thread, else a new one. */
    RecvRequest receive(Rank owner, int context, int source, int tag, Object buffer, int index, int capacity,
                        TypeMap map, String call) {
        if (!isUser()) {
            return new RecvRequest(owner, context, source, tag, buffer, index, capacity, map, call);
        }
        RecvRequest[] ring = receives;
        int slot = lastFreed;
        lastFreed = -1;
        if (slot < 0 || !ring[slot].free) {
            slot = cursor;
            for (int probes = 0; probes < RECEIVE_PROBES && ring[slot] != null && !ring[slot].free; probes++) {
                slot = (slot + 1) & (ring.length - 1);
            }
            cursor = (slot + 1) & (ring.length - 1);
        }
        RecvRequest r = ring[slot];
        if (r == null || !r.free) {
            r = new RecvRequest(owner, context, source, tag, buffer, index, capacity, map, call);
            r.slot = slot;
            ring[slot] = r;
            return r;
        }
        r.free = false;
        r.reuse(context, source, tag, buffer, index, capacity, map, call);
        return r;
    }

    /**
     * Frees a completed receive that nothing refers to any more, if it belongs to the ring and the
     * calling thread is the user thread. It keeps its last buffer until it is reused.
     */
    void recycle(RecvRequest r) {
        if (r.slot >= 0 && receives[r.slot] == r && (Thread) USER.getOpaque(this) == Thread.currentThread()) {
            r.free = true;
            lastFreed = r.slot;
        }
    }

    private boolean isUser() {
        Thread me = Thread.currentThread();
        Thread u = (Thread) USER.getOpaque(this);
        return u == me || u == null && USER.compareAndSet(this, (Thread) null, me);
    }
}
