package org.mpjlite.smpdev.p2p;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReference;
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
 * So messages wander between the ranks that exchange them. Once a rank's list is full, the
 * messages it consumes go back to the rank that made them ({@link Message#home}), gathered in
 * batches of {@link #RETURN_BATCH} and pushed with one compare-and-set on that rank's
 * {@link #returned} stack, which its user thread takes whole, with one atomic swap, when its own
 * list is empty. So a one-way stream and a ping-pong whose messages take different paths each way
 * stop allocating once the lists have filled. Handing each message back on its own (a
 * compare-and-set per message, on a line both threads write) cut a stream of small messages to
 * about half its rate; a batch costs each side one atomic per {@code RETURN_BATCH} messages.
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
 * <p>Memory ordering: a recycler's lists are read and written by its user thread only, but for
 * {@link #returned}. A message reaches that thread through the mailbox that delivered it (whose
 * release and acquire order the sender's last use of it, which comes before the delivery, before the
 * receiver's), on the sender's own thread after a claim, or through {@link #returned} (the
 * returning thread's compare-and-set releases its last use of the batch, the taker's swap
 * acquires it); it goes to its next receiver the same way.
 */
final class Recycler {
    private static final VarHandle USER;
    /** Busy slots a receive passes over, from the cursor, before it makes a new request. */
    private static final int RECEIVE_PROBES = 4;
    /** Messages handed back to the rank that made them at once. */
    static final int RETURN_BATCH = 32;

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
    /** The user thread's free messages (beyond {@link #last}), and how many. */
    private Message free;
    private int freeCount;
    /**
     * Batches of this rank's messages that other ranks have handed back, linked through
     * {@link Message#nextFree}: pushed by their user threads, taken whole by this one's.
     */
    private final AtomicReference<Message> returned = new AtomicReference<>();
    /** The batch being gathered for the home of its messages (all the same), its last message and length. */
    private Message batch;
    private Message batchTail;
    private int batchLength;
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
                if (free == null && returned.get() != null) {
                    takeReturned();
                }
                m = free;
                if (m == null) {
                    m = new Message(this, context, source, tag, map, items, call);
                    last = m;
                    return m;
                }
                free = m.nextFree;
                freeCount--;
                m.nextFree = null;
                last = m;
            }
            m.reuse(context, source, tag, map, items, call);
            return m;
        }
        return new Message(null, context, source, tag, map, items, call);
    }

    /** Makes the batches other ranks handed back this rank's free list (which is empty). */
    private void takeReturned() {
        Message all = returned.getAndSet(null);
        int n = 0;
        for (Message m = all; m != null; m = m.nextFree) {
            n++;
        }
        free = all;
        freeCount = n;
    }

    /**
     * Keeps a consumed message if the calling thread is the user thread: the message it took last
     * only sets a flag, another goes to the free list, or once that is full into the batch that goes
     * back to the message's home rank. Dropped (the collector takes it) when another thread calls,
     * or when the message has no other home.
     */
    void keep(Message m) {
        if ((Thread) USER.getOpaque(this) != Thread.currentThread()) {
            return;
        }
        if (m == last && !lastFree) {
            lastFree = true;
            return;
        }
        if (freeCount < Tunables.RECYCLED_MESSAGES) {
            m.nextFree = free;
            free = m;
            freeCount++;
            return;
        }
        Recycler home = m.home;
        if (home == null || home == this) {
            return;
        }
        if (batch != null && batch.home != home) {
            sendBatch();
        }
        m.nextFree = batch;
        batch = m;
        if (batchTail == null) {
            batchTail = m;
        }
        if (++batchLength == RETURN_BATCH) {
            sendBatch();
        }
    }

    /** Pushes the gathered batch onto its home's {@link #returned} stack. */
    private void sendBatch() {
        Message first = batch;
        Message tail = batchTail;
        AtomicReference<Message> stack = first.home.returned;
        batch = null;
        batchTail = null;
        batchLength = 0;
        Message top;
        do {
            top = stack.get();
            tail.nextFree = top;
        } while (!stack.compareAndSet(top, first));
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
