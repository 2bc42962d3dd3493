package org.mpjlite.smpdev;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.mpjlite.queues.FastLanes;

/**
 * The receiving side of one rank's fast boxes: the boxes its senders opened to it (at most
 * {@link #MAX_BOXES}, first come first served), polled by its lock-free mailbox before the inbox,
 * and the counts the senders need to keep their messages in order ({@link FastLanes}): per sender,
 * the messages drained from the inbox and the messages read from the box.
 *
 * <p>Thread safety: {@link #open} is called by senders (a CAS on the copy-on-write box list);
 * {@link #drain} and {@link #beforeInbox} by the rank's thread holding the mailbox's owner lock;
 * {@link #hasArrivals} by any thread; {@link #inboxDrained} and {@link #boxRead} by senders. The
 * counts are published with release stores after the message they count was taken (so a sender
 * that reads them with acquire loads knows those messages are out of the way), and the box of a
 * sender is registered before it sends anything through it.
 */
final class FastBoxReader implements FastLanes<Message> {
    /** Boxes one rank polls at most: each costs a load per poll of a waiting receiver. */
    static final int MAX_BOXES = 16;
    private static final FastBox[] NONE = new FastBox[0];

    private final AtomicReference<FastBox[]> boxes = new AtomicReference<>(NONE);
    /** The box of each sender, by world rank; written by that sender before it uses the box. */
    private final FastBox[] boxOf;
    /** Per sender: messages read from its box (owner lock). */
    private final long[] read;
    /** Per sender: messages drained from the inbox (owner lock). */
    private final long[] drained;
    /** Per sender {@code s}: [2s] {@link #drained}, [2s + 1] {@link #read}, published to the senders. */
    private final AtomicLongArray published;

    FastBoxReader(int ranks) {
        boxOf = new FastBox[ranks];
        read = new long[ranks];
        drained = new long[ranks];
        published = new AtomicLongArray(2 * ranks);
    }

    /** Sender side: registers a new box from {@code sender}; null when this rank polls enough boxes. */
    FastBox open(int sender) {
        FastBox box = new FastBox(sender);
        boxOf[sender] = box; // published by the CAS below, or never used
        for (;;) {
            FastBox[] cur = boxes.get();
            if (cur.length >= MAX_BOXES) {
                boxOf[sender] = null;
                return null;
            }
            FastBox[] next = java.util.Arrays.copyOf(cur, cur.length + 1);
            next[cur.length] = box;
            if (boxes.compareAndSet(cur, next)) {
                return box;
            }
        }
    }

    /** Messages from {@code sender} drained from the inbox so far (acquire). */
    long inboxDrained(int sender) {
        return published.getAcquire(2 * sender);
    }

    /** Messages from {@code sender} read from its box so far (acquire). */
    long boxRead(int sender) {
        return published.getAcquire(2 * sender + 1);
    }

    @Override
    public boolean hasArrivals() {
        for (FastBox box : boxes.get()) {
            // The published count, exact for any thread; the owner's own line, so cheap for it.
            if (box.holds(published.getAcquire(2 * box.sender + 1))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void drain(Consumer<Message> sink) {
        for (FastBox box : boxes.get()) {
            take(box, sink);
        }
    }

    @Override
    public void beforeInbox(Message message, Consumer<Message> sink) {
        int sender = message.origin;
        FastBox box = boxOf[sender];
        if (box != null) {
            take(box, sink);
        }
        drained[sender]++;
        published.setRelease(2 * sender, drained[sender]);
    }

    /** Hands everything waiting in the box to the sink, in order. */
    private void take(FastBox box, Consumer<Message> sink) {
        int sender = box.sender;
        long n = read[sender];
        while (box.holds(n)) {
            Message m = box.read(n);
            read[sender] = ++n;
            published.setRelease(2 * sender + 1, n);
            sink.accept(m);
        }
    }
}
