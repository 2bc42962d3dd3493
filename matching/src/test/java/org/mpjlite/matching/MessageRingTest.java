package org.mpjlite.matching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A sender's {@link MessageRing} to a {@link LockFreeMailbox}: its messages are matched in the
 * order of their indices whether each came in a cell or through the inbox, ahead of nothing sent
 * after them and behind nothing sent before; no message is lost or matched twice; a full ring
 * sends through the inbox; a claimed index the owner cannot see yet keeps a waiter from parking; a
 * receive that takes a cell's message gets it straight from the cell.
 */
class MessageRingTest {
    private static final int CONTEXT = 3;
    private static final int TAG = 7;

    /** A message: its value is the first int of its data. */
    static final class Msg extends SentEnvelope {
        final int value;

        Msg(int context, int source, int tag, int value) {
            super(context, source, tag);
            this.value = value;
        }
    }

    static final class Recv extends Envelope {
        volatile Msg matched;
        /** Whether the message went into this receive straight from its cell. */
        volatile boolean fromCell;

        Recv(int source, int tag) {
            super(CONTEXT, source, tag);
        }

        /** A receive that takes a small message of kind 1 and up to {@code bytes} bytes from a line or cell. */
        Recv takingAsLine(int bytes) {
            takesInLine(1, bytes);
            return this;
        }
    }

    /** Records each message once, in the order of the matches; fails on a second match of either side. */
    static final class Recorder implements MatchHandler<Msg, Recv> {
        final List<Integer> values = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void matched(Recv receive, Msg message) {
            if (receive.matched != null) {
                throw new AssertionError("receive matched twice");
            }
            receive.matched = message;
            values.add(message.value);
        }

        @Override
        public void matchedInCell(Recv receive, MessageRing ring, long index) {
            matched(receive, new Msg(ring.context(index), ring.source(index), ring.tag(index),
                ring.data(index).getInt(0)));
            receive.fromCell = true;
        }
    }

    private final Recorder recorder = new Recorder();
    private final LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(recorder, (ring, index) -> {
        assertNotEquals(MessageRing.NO_MESSAGE, ring.kind(index), "a cell without a message is not read");
        return new Msg(ring.context(index), ring.source(index), ring.tag(index), ring.data(index).getInt(0));
    });

    /**
     * Sends {@code value} from {@code source} as a device does: a small message takes the ring's
     * next index and goes into its cell, or through the inbox with the index when the ring is full;
     * a message that does not fit a cell ({@code inbox}) goes through the inbox following the
     * indices claimed so far. True if it went in a cell.
     */
    private boolean send(MessageRing ring, int source, int value, boolean inbox) {
        Msg m = new Msg(CONTEXT, source, TAG, value);
        if (inbox) {
            m.followsIndicesOf(ring);
            box.deliver(m);
            return false;
        }
        long index = ring.claim();
        if (ring.hasCell(index)) {
            ring.data(index).putInt(0, value);
            ring.publish(index, CONTEXT, source, TAG, 1, 1, 4, "Send");
            return true;
        }
        m.takesIndex(ring, index);
        if (ThreadLocalRandom.current().nextInt(4) == 0) {
            Thread.yield(); // as a sender that loses its core between its claim and its delivery
        }
        box.deliver(m);
        return false;
    }

    private boolean inCell(MessageRing ring, int source, int value) {
        return send(ring, source, value, false);
    }

    private void inInbox(MessageRing ring, int source, int value) {
        send(ring, source, value, true);
    }

    private Recv post(int source) {
        return post(new Recv(source, Envelope.ANY_TAG));
    }

    private Recv post(Recv r) {
        box.post(r);
        return r;
    }

    @Test
    void cellsAndInboxMessagesMatchInTheRingsOrder() {
        MessageRing ring = box.openRing();
        assertTrue(ring.isDrained());
        assertTrue(inCell(ring, 0, 1));
        inInbox(ring, 0, 2);
        assertTrue(inCell(ring, 0, 3));
        assertFalse(ring.isDrained());
        assertTrue(box.hasArrivals());
        Recv first = post(0); // matched at once: the drain takes all three in order, the rest unexpected
        Recv second = post(Envelope.ANY_SOURCE);
        Recv third = post(0);
        assertEquals(List.of(1, 2, 3), recorder.values);
        assertEquals(1, first.matched.value);
        assertEquals(2, second.matched.value);
        assertEquals(3, third.matched.value);
        assertTrue(ring.isDrained());
        assertFalse(box.hasArrivals());
    }

    @Test
    void anInboxMessageAheadOfItsTurnWaitsForTheCellBeforeIt() throws Exception {
        MessageRing ring = box.openRing();
        Recv a = post(0);
        Recv b = post(0);
        Recv c = post(0);
        long early = ring.claim(); // claimed, not yet published: the messages after it must wait
        inInbox(ring, 0, 2);
        inInbox(ring, 0, 3); // follows the same indices as 2: held after it
        assertTrue(box.hasArrivals());
        box.progress(); // the claimed index is not in its cell: both are held
        assertNull(a.matched, "nothing overtakes the claimed index");
        assertNull(b.matched);
        assertTrue(box.hasArrivals(), "a waiter about to park sees the claimed index and does not");
        ring.data(early).putInt(0, 1);
        ring.publish(early, CONTEXT, 0, TAG, 1, 1, 4, "Send");
        box.progress();
        assertEquals(1, a.matched.value);
        assertEquals(2, b.matched.value);
        assertEquals(3, c.matched.value);
        assertFalse(box.hasArrivals());
        assertTrue(ring.isDrained());
    }

    /**
     * A receive that takes a cell's message as a line would (its kind, and it fits) gets it straight
     * from the cell, whether it was posted first or is being posted; one that would truncate it gets
     * a message made of the cell (its receive reports the truncation); the order holds across both.
     */
    @Test
    void aReceiveThatTakesTheCellGetsItStraightFromIt() {
        MessageRing ring = box.openRing();
        Recv postedFirst = post(new Recv(0, TAG).takingAsLine(4));
        assertTrue(inCell(ring, 0, 1));
        box.progress();
        assertEquals(1, postedFirst.matched.value);
        assertTrue(postedFirst.fromCell, "posted before the cell arrived");
        assertTrue(inCell(ring, 0, 2));
        assertTrue(inCell(ring, 0, 3));
        Recv beingPosted = post(new Recv(0, TAG).takingAsLine(4));
        assertEquals(2, beingPosted.matched.value);
        assertTrue(beingPosted.fromCell, "matched while it was posted, without a message");
        assertFalse(ring.isDrained(), "the post stops there: 3 stays in its cell");
        Recv truncating = post(new Recv(0, TAG).takingAsLine(2));
        assertEquals(3, truncating.matched.value);
        assertFalse(truncating.fromCell, "a message that does not fit is made of its cell");
        assertTrue(inCell(ring, 0, 4));
        box.progress();
        assertEquals(1, box.unexpectedSnapshot().size(), "no receive: made a message");
        Recv afterwards = post(new Recv(0, TAG).takingAsLine(4));
        assertEquals(4, afterwards.matched.value);
        assertFalse(afterwards.fromCell, "an unexpected message stays a message");
        assertEquals(List.of(1, 2, 3, 4), recorder.values);
        assertTrue(ring.isDrained());
        assertTrue(box.unexpectedSnapshot().isEmpty());
    }

    /**
     * Receives posted while an earlier one waits leave the rings alone (the rank is ahead of its
     * senders); the next progress matches every cell to them in posting order, straight from the
     * cells, and a post with none waiting drains again.
     */
    @Test
    void receivesPostedWhileOneWaitsAreMatchedByTheNextDrainInOrder() {
        MessageRing ring = box.openRing();
        Recv first = post(new Recv(0, TAG).takingAsLine(4));
        assertTrue(inCell(ring, 0, 1));
        Recv second = post(new Recv(0, TAG).takingAsLine(4));
        assertTrue(inCell(ring, 0, 2));
        Recv third = post(new Recv(Envelope.ANY_SOURCE, TAG).takingAsLine(4));
        assertNull(first.matched, "no drain yet: the first receive still waits");
        assertNull(second.matched, "posted while the first waited: the cells stay");
        assertNull(third.matched);
        assertFalse(ring.isDrained());
        assertTrue(box.hasArrivals(), "a waiter does not park on the cells");
        box.progress();
        assertEquals(1, first.matched.value);
        assertEquals(2, second.matched.value);
        assertTrue(first.fromCell && second.fromCell, "straight from the cells");
        assertNull(third.matched, "nothing left for it");
        assertTrue(ring.isDrained());
        assertTrue(inCell(ring, 0, 3));
        box.progress();
        assertEquals(3, third.matched.value);
        assertTrue(inCell(ring, 0, 4));
        Recv alone = post(new Recv(0, TAG).takingAsLine(4));
        assertEquals(4, alone.matched.value, "none waits: the post drains the ring");
        assertEquals(List.of(1, 2, 3, 4), recorder.values);
    }

    @Test
    void aMessageOfferedBeforeTheRingOpenedComesFirst() {
        box.deliver(new Msg(CONTEXT, 0, TAG, 1)); // sent before the sender had its ring
        MessageRing ring = box.openRing();
        assertTrue(inCell(ring, 0, 2));
        Recv a = post(0);
        Recv b = post(0);
        assertEquals(1, a.matched.value);
        assertEquals(2, b.matched.value);
    }

    @Test
    void aFullRingSendsThroughTheInboxInOrder() {
        MessageRing ring = box.openRing();
        for (int i = 0; i < MessageRing.CELLS; i++) {
            assertTrue(inCell(ring, 0, i));
        }
        assertFalse(inCell(ring, 0, MessageRing.CELLS), "full: through the inbox with its index");
        inInbox(ring, 0, MessageRing.CELLS + 1); // follows every index so far
        List<Recv> receives = new ArrayList<>();
        for (int i = 0; i < MessageRing.CELLS + 2; i++) {
            receives.add(post(0));
        }
        for (int i = 0; i < MessageRing.CELLS + 2; i++) {
            assertEquals(i, receives.get(i).matched.value);
        }
        assertTrue(ring.isDrained());
        assertTrue(ring.hasCell(ring.nextIndex()), "matched cells go back to the sender");
        assertTrue(inCell(ring, 0, 99));
        assertEquals(99, post(0).matched.value);
    }

    /**
     * A post made while an earlier receive waits drains the inbox alone. When that drain matches a
     * full ring's message that took the inbox with its index, the senders are told at once: a
     * waiter's progress looks for the ring's next message at the index the senders were told, and
     * would otherwise never see the cell after it (the waiter would neither park, seeing an index
     * pending, nor match it).
     */
    @Test
    void aPostThatMatchesAFullRingsInboxMessageTellsTheSenders() {
        MessageRing ring = box.openRing();
        Recv waiting = post(new Recv(0, TAG + 1)); // published: the posts below find a receive waiting
        for (int i = 0; i < MessageRing.CELLS; i++) {
            assertTrue(inCell(ring, 0, i));
        }
        long full = ring.claim(); // no cell for it: its sender is about to take the inbox
        assertFalse(ring.hasCell(full));
        box.progress(); // the 64 cells become unexpected messages; the claimed index is next
        Msg late = new Msg(CONTEXT, 0, TAG, MessageRing.CELLS);
        late.takesIndex(ring, full);
        box.deliver(late);
        assertTrue(inCell(ring, 0, MessageRing.CELLS + 1), "a cell is free again");
        Recv other = post(new Recv(1, TAG)); // drains the inbox only: matches the late message
        box.progress();
        assertTrue(ring.isDrained(), "the progress matched the cell after the late message");
        assertFalse(box.hasArrivals(), "nothing arrived that a waiter would not see");
        assertNull(waiting.matched);
        assertNull(other.matched);
        assertEquals(MessageRing.CELLS + 2, box.unexpectedSnapshot().size());
        for (int i = 0; i < MessageRing.CELLS + 2; i++) {
            assertEquals(i, post(0).matched.value);
        }
    }

    @Test
    void aCellWithNoMessageIsPassedOver() {
        MessageRing ring = box.openRing();
        long failed = ring.claim();
        ring.publish(failed, CONTEXT, 0, TAG, MessageRing.NO_MESSAGE, 0, 0, "Send"); // a send that failed
        assertTrue(inCell(ring, 0, 2));
        assertEquals(2, post(0).matched.value);
        assertTrue(ring.isDrained());
        assertTrue(box.unexpectedSnapshot().isEmpty());
    }

    @Test
    void aPostedWildcardReceiveTakesTheEarliestOfARingsMessages() {
        MessageRing ring = box.openRing();
        Recv any = post(Envelope.ANY_SOURCE);
        assertTrue(inCell(ring, 4, 1));
        assertTrue(inCell(ring, 4, 2));
        box.progress();
        assertEquals(1, any.matched.value);
        assertEquals(1, box.unexpectedSnapshot().size());
        assertEquals(2, box.unexpectedSnapshot().get(0).value);
    }

    @Test
    void aMailboxOpensAtMostItsRingsAndOnlyWithAReader() {
        for (int i = 0; i < LockFreeMailbox.MAX_RINGS; i++) {
            assertNotNull(box.openRing());
        }
        assertNull(box.openRing());
        assertNull(new LockFreeMailbox<Msg, Recv>(recorder).openRing());
        assertNull(new LockedMailbox<Msg, Recv>(recorder).openRing());
    }

    /**
     * Several threads of one sender send through one ring, each its own numbered messages, now in a
     * cell and now through the inbox, while the owner posts receives and makes progress: every
     * message is matched exactly once, and each thread's in the order it sent them. With a receive
     * of another tag waiting throughout, each post finds a receive waiting and drains the inbox
     * alone, and only progress drains the ring.
     */
    @ParameterizedTest(name = "{0} sending threads, a receive of another tag waiting: {1}")
    @CsvSource({"1, false", "2, false", "3, false", "1, true", "2, true", "3, true"})
    void threadsOfOneSenderKeepTheirOrder(int threads, boolean otherWaiting) throws Exception {
        int perThread = 10_000;
        MessageRing ring = box.openRing();
        Recv other = otherWaiting ? post(new Recv(0, TAG + 1)) : null;
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> senders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int base = t * perThread;
            Thread s = new Thread(() -> {
                try {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < perThread; i++) {
                        send(ring, 0, base + i, random.nextInt(4) == 0);
                    }
                } catch (Throwable e) {
                    failed.set(e);
                }
            });
            senders.add(s);
            s.start();
        }
        int total = threads * perThread;
        int[] next = new int[threads];
        for (int received = 0; received < total; received++) {
            Recv r = post(0);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (r.matched == null) {
                box.progress();
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("message " + received + " never arrived; failed: " + failed.get());
                }
                Thread.onSpinWait();
            }
            int value = r.matched.value;
            int t = value / perThread;
            assertEquals(next[t], value % perThread, "thread " + t + "'s messages in order");
            next[t]++;
        }
        for (Thread s : senders) {
            s.join(10_000);
        }
        assertNull(failed.get());
        box.progress();
        assertTrue(box.unexpectedSnapshot().isEmpty(), "nothing left over: no message duplicated");
        assertTrue(ring.isDrained());
        if (other != null) {
            assertNull(other.matched);
            assertTrue(box.cancel(other));
        }
    }

    /**
     * The rings of one mailbox share {@link MessageRing#OVERFLOW_BUDGET_BYTES} of overflow arrays: a
     * cell's overflow that would pass it is refused (the cell keeps the one it had), and an
     * overflow replaced by a shorter one gives the difference back.
     */
    @Test
    void theRingsOfAMailboxShareTheirOverflowBudget() {
        AtomicLong held = new AtomicLong();
        MessageRing first = new MessageRing(1, held);
        MessageRing second = new MessageRing(2, held);
        MessageRing third = new MessageRing(3, held);
        int bytes = MessageRing.OVERFLOW_BUDGET_BYTES / (2 * MessageRing.CELLS);
        for (long index = 0; index < MessageRing.CELLS; index++) {
            assertTrue(first.overflow(index, new byte[bytes], bytes));
            assertTrue(second.overflow(index, new byte[bytes], bytes));
        }
        assertEquals(MessageRing.OVERFLOW_BUDGET_BYTES, held.get());
        assertFalse(third.overflow(0, new byte[bytes], bytes), "past the budget");
        assertNull(third.overflow(0));

        byte[] same = new byte[bytes];
        assertTrue(first.overflow(MessageRing.CELLS, same, bytes), "a replacement of the same size");
        assertSame(same, first.overflow(0), "index CELLS is cell 0 again");
        assertTrue(first.overflow(1, new byte[bytes / 4], bytes / 4), "shorter: gives three quarters back");
        assertEquals(MessageRing.OVERFLOW_BUDGET_BYTES - 3 * bytes / 4, held.get());
        assertTrue(third.overflow(0, new byte[bytes / 2], bytes / 2));
        assertFalse(third.overflow(1, new byte[bytes / 2], bytes / 2), "a quarter left");
        assertNull(third.overflow(1));
        assertEquals(MessageRing.OVERFLOW_BUDGET_BYTES - bytes / 4, held.get());
    }
}
