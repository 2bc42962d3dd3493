package org.mpjlite.smpdev.p2p;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.data.TypeMap;

/**
 * One rank's reuse of the objects of its message path, so that a small message in steady state
 * allocates nothing: the {@link Message}s it sends, which their receivers hand back once received,
 * and one spare {@link RecvRequest} for its blocking receives.
 *
 * <p>Only one thread of the rank takes from it, the first that sends or receives (the rank's main
 * thread in a program): every other thread allocates, as before. So the taking side needs no
 * atomic but one compare of the calling thread. Received messages come back from other threads onto
 * a lock-free stack (a compare-and-set per message, at most {@link Tunables#RECYCLED_MESSAGES}
 * deep), or straight to the private list when the user thread itself received them; the user
 * thread moves the whole stack to its private list with one exchange when that list is empty. No
 * message is taken out of the stack singly, so the stack has no ABA problem.
 *
 * <p>Memory ordering: the compare-and-set that hands a message back releases every write of the
 * receiving thread to it, and the exchange that takes the stack acquires them.
 */
final class Recycler {
    private static final VarHandle RETURNED;
    private static final VarHandle USER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            RETURNED = lookup.findVarHandle(Recycler.class, "returned", Message.class);
            USER = lookup.findVarHandle(Recycler.class, "user", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The one thread that takes from this recycler; set once, by the first that asks. */
    @SuppressWarnings("unused")
    private volatile Thread user;
    /** Received messages handed back by any thread, newest first. */
    @SuppressWarnings("unused")
    private volatile Message returned;
    /** The user thread's own free messages (beyond {@link #last}). */
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
                if (m == null && RETURNED.getOpaque(this) != null) {
                    m = (Message) RETURNED.getAndSet(this, (Message) null);
                }
                if (m == null) {
                    m = new Message(this, context, source, tag, map, items, call);
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
        return new Message(this, context, source, tag, map, items, call);
    }

    /**
     * Hands back a received message (any thread): the user thread's own message, received by the
     * user thread itself (a message to self, or one it moved into a receive it claimed), only
     * sets a flag; another the user thread received goes to its own list, with no atomic; others
     * onto the stack. Dropped when the list or the stack is full.
     */
    void recycle(Message m) {
        if ((Thread) USER.getOpaque(this) == Thread.currentThread()) {
            if (m == last) {
                lastFree = true;
                return;
            }
            int depth = free == null ? 1 : free.freeDepth + 1;
            if (depth <= Tunables.RECYCLED_MESSAGES) {
                m.nextFree = free;
                m.freeDepth = depth;
                free = m;
            }
            return;
        }
        for (;;) {
            Message head = (Message) RETURNED.getVolatile(this);
            int depth = head == null ? 1 : head.freeDepth + 1;
            if (depth > Tunables.RECYCLED_MESSAGES) {
                return;
            }
            m.nextFree = head;
            m.freeDepth = depth;
            if (RETURNED.compareAndSet(this, head, m)) {
                return;
            }
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
