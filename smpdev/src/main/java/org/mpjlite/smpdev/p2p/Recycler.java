package org.mpjlite.smpdev.p2p;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.data.TypeMap;

/**
 * One rank's reuse of the objects of its message path, so that a small message in steady state
 * allocates nothing: the {@link Message}s it sends, and one spare {@link RecvRequest} for its
 * blocking receives.
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
 * that exchange them; a ping-pong allocates nothing, and a one-way stream allocates at the sender
 * once the receiver's list is full (the receiver drops what it cannot keep).
 *
 * <p>Memory ordering: a recycler's lists are read and written by its user thread only. A message
 * reaches that thread through the mailbox that delivered it (whose release and acquire order the
 * sender's last use of it, which comes before the delivery, before the receiver's) or on the
 * sender's own thread after a claim; it goes to its next receiver the same way.
 */
final class Recycler {
    private static final VarHandle USER;

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
    /** The user thread's spare receive request, and whether it is free (as {@link #last}). */
    private RecvRequest spareReceive;
    private boolean spareFree;

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

    /** A receive request: the spare for the user thread when it is free, else a new one. */
    RecvRequest receive(Rank owner, int context, int source, int tag, Object buffer, int index, int capacity,
                        TypeMap map, String call) {
        if (spareFree && isUser()) {
            spareFree = false;
            spareReceive.reuse(context, source, tag, buffer, index, capacity, map, call);
            return spareReceive;
        }
        return new RecvRequest(owner, context, source, tag, buffer, index, capacity, map, call);
    }

    /**
     * Keeps a completed receive that nothing refers to any more as the user thread's spare, if that
     * is not free already. The spare keeps its last buffer until it is reused.
     */
    void recycle(RecvRequest r) {
        if (!spareFree && isUser()) {
            if (spareReceive != r) {
                spareReceive = r;
            }
            spareFree = true;
        }
    }

    private boolean isUser() {
        Thread me = Thread.currentThread();
        Thread u = (Thread) USER.getOpaque(this);
        return u == me || u == null && USER.compareAndSet(this, (Thread) null, me);
    }
}
