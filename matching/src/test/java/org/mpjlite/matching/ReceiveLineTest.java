package org.mpjlite.matching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * A small message a sender leaves in a {@link LockFreeMailbox}'s {@link ReceiveLine}: claimed like
 * a published receive, completed by the owner from the line, in MPI's order.
 */
class ReceiveLineTest {
    private static final int KIND = 7;

    static final class Msg extends Envelope {
        final int seq;

        Msg(int context, int source, int tag, int seq) {
            super(context, source, tag);
            this.seq = seq;
        }
    }

    static final class Recv extends Envelope {
        volatile Object got;
        volatile int gotSource = -2;
        volatile int gotTag = -2;
        volatile long data;

        Recv(int context, int source, int tag, int capacity) {
            super(context, source, tag);
            takesInLine(KIND, capacity);
        }
    }

    /** Records both kinds of match; a receive matched twice fails the test. */
    static final class Recorder implements MatchHandler<Msg, Recv> {
        final List<Recv> order = new ArrayList<>();

        @Override
        public void matched(Recv receive, Msg message) {
            take(receive, message);
            receive.gotSource = message.source();
            receive.gotTag = message.tag();
        }

        @Override
        public void matchedInLine(Recv receive, ReceiveLine line) {
            take(receive, "line");
            receive.gotSource = line.source();
            receive.gotTag = line.tag();
            receive.data = line.data().getLong(0);
        }

        private synchronized void take(Recv receive, Object what) {
            if (receive.got != null) {
                throw new AssertionError("receive matched twice");
            }
            receive.got = what;
            order.add(receive);
        }
    }

    /** What a sender does: claim, write 8 bytes, fill; true if it went through the line. */
    private static boolean sendInLine(Mailbox<Msg, Recv> box, int context, int source, int tag, long value) {
        long claim = box.claimLine(context, source, tag, KIND, 8);
        if (claim == Mailbox.NO_CLAIM) {
            return false;
        }
        box.line().data().putLong(0, value);
        box.line().fill(claim, source, tag, 1);
        return true;
    }

    @Test
    void theOwnerCompletesAReceiveFromTheLine() {
        Recorder rec = new Recorder();
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(rec);
        Recv r = new Recv(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG, 16);
        box.post(r);
        assertTrue(sendInLine(box, 0, 3, 9, 0x1234_5678_9abcL));
        assertNull(r.got, "the owner completes it, not the sender");
        assertTrue(box.hasArrivals(), "a message waits in the line");
        assertTrue(box.postedSnapshot().isEmpty(), "a claimed receive is matched");
        box.progress();
        assertEquals("line", r.got);
        assertEquals(3, r.gotSource);
        assertEquals(9, r.gotTag);
        assertEquals(0x1234_5678_9abcL, r.data);
        assertFalse(box.hasArrivals(), "consumed");
        assertFalse(sendInLine(box, 0, 3, 9, 1), "nothing is published");
    }

    @Test
    void aSenderClaimsOnlyWhatTheReceiveTakes() {
        Recorder rec = new Recorder();
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(rec);
        Recv r = new Recv(0, 1, 4, 8);
        box.post(r);
        assertEquals(Mailbox.NO_CLAIM, box.claimLine(0, 1, 4, KIND + 1, 8), "another kind of data");
        assertEquals(Mailbox.NO_CLAIM, box.claimLine(0, 1, 4, KIND, 9), "more bytes than the receive takes");
        assertEquals(Mailbox.NO_CLAIM, box.claimLine(0, 2, 4, KIND, 8), "another source");
        assertEquals(Mailbox.NO_CLAIM, box.claimLine(0, 1, 5, KIND, 8), "another tag");
        assertEquals(Mailbox.NO_CLAIM, box.claimLine(1, 1, 4, KIND, 8), "another communicator");
        assertEquals(Mailbox.NO_CLAIM, box.claimLine(0, 1, 4, 0, 0), "kind 0 is no kind");
        assertTrue(sendInLine(box, 0, 1, 4, 5));
        assertNull(box.matchPosted(new Msg(0, 1, 4, 0)), "a receive is claimed once");
        assertEquals(Mailbox.NO_CLAIM, box.claimLine(0, 1, 4, KIND, 8), "a receive is claimed once");
    }

    @Test
    void aReceiveThatTakesNoDataInTheLineIsNeverClaimedForIt() {
        Recorder rec = new Recorder();
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(rec);
        Recv r = new Recv(0, 1, 4, 8);
        r.takesInLine(0, 0);
        box.post(r);
        assertEquals(Mailbox.NO_CLAIM, box.claimLine(0, 1, 4, KIND, 1));
        assertSame(r, box.matchPosted(new Msg(0, 1, 4, 0)), "the sender may still fill it itself");
    }

    /** A message still in the inbox must get the receive first: no claim past it, line or not. */
    @Test
    void noLineClaimPastAMessageStillInTheInbox() {
        Recorder rec = new Recorder();
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(rec);
        Recv r = new Recv(0, 1, Envelope.ANY_TAG, 8);
        box.post(r);
        Msg first = new Msg(0, 1, 7, 0);
        box.deliver(first);
        assertFalse(sendInLine(box, 0, 1, 7, 1), "the second message would overtake the first");
        box.progress();
        assertSame(first, r.got);
    }

    /**
     * While a sender is still writing the line, the owner publishes nothing: receives posted
     * behind the claimed one get the messages that arrive meanwhile, in order, and the claimed one
     * completes once the sender has filled the line.
     */
    @Test
    void nothingIsPublishedWhileASenderWritesTheLine() {
        Recorder rec = new Recorder();
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(rec);
        Recv first = new Recv(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG, 8);
        Recv second = new Recv(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG, 8);
        Recv third = new Recv(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG, 8);
        box.post(first);
        long claim = box.claimLine(0, 2, 1, KIND, 8);
        assertNotEquals(Mailbox.NO_CLAIM, claim);
        box.post(second);
        box.post(third);
        box.progress();
        assertEquals(List.of(second, third), box.postedSnapshot(), "the claimed receive is matched, the line busy");
        assertEquals(Mailbox.NO_CLAIM, box.claimLine(0, 2, 2, KIND, 8), "nothing new is published yet");
        assertNull(box.matchPosted(new Msg(0, 2, 2, 0)));
        Msg later = new Msg(0, 3, 3, 1);
        box.deliver(later);
        box.progress();
        assertSame(later, second.got, "the next posted receive gets the next message");
        assertNull(first.got);
        assertFalse(box.cancel(first), "a claimed receive is matched, not cancellable");
        box.line().data().putLong(0, 42);
        box.line().fill(claim, 2, 1, 1);
        box.progress();
        assertEquals("line", first.got);
        assertEquals(42, first.data);
        assertTrue(sendInLine(box, 0, 4, 4, 43), "the third receive is published once the line is consumed");
        box.progress();
        assertEquals(43, third.data);
        assertEquals(List.of(second, first, third), rec.order);
    }

    @Test
    void aPublishedReceiveCancelledFirstIsNotClaimable() {
        Recorder rec = new Recorder();
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(rec);
        Recv r = new Recv(0, 1, 3, 8);
        box.post(r);
        assertTrue(box.cancel(r));
        assertFalse(sendInLine(box, 0, 1, 3, 1));
        assertNull(r.got);
    }

    /** An owner's drain that finds a message for the published receive takes it from senders. */
    @Test
    void theOwnersMatchTakesThePublishedReceiveFromSenders() {
        Recorder rec = new Recorder();
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(rec);
        Recv r = new Recv(0, 1, 3, 8);
        box.post(r);
        Msg m = new Msg(0, 1, 3, 0);
        box.deliver(m);
        box.progress();
        assertSame(m, r.got);
        assertFalse(sendInLine(box, 0, 1, 3, 1));
    }

    /**
     * Two senders race for a stream of receives, each sending through the line when it can and
     * through the inbox otherwise, while the owner posts and progresses: every message is received
     * exactly once and each sender's messages arrive in the order it sent them. (How many take the
     * line depends on the timing: none at all when the inbox never empties.)
     */
    @Test
    void racingSendersExactlyOnceAndInOrderPerSender() throws InterruptedException {
        final int perSender = 20_000;
        Recorder rec = new Recorder();
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(rec);
        box.confineTo(Thread.currentThread());
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> senders = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            int source = s;
            Thread t = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perSender; i++) {
                    if (!sendInLine(box, 0, source, 0, i)) {
                        box.deliver(new Msg(0, source, 0, i));
                    }
                }
            });
            t.start();
            senders.add(t);
        }
        Recv[] receives = new Recv[2 * perSender];
        start.countDown();
        for (int i = 0; i < receives.length; i++) {
            receives[i] = new Recv(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG, 8);
            box.post(receives[i]);
            while (receives[i].got == null) {
                box.progress();
                Thread.onSpinWait();
            }
        }
        for (Thread t : senders) {
            t.join();
        }
        long[] next = new long[2];
        for (Recv r : receives) {
            long seq = r.got instanceof Msg m ? m.seq : r.data;
            assertEquals(next[r.gotSource]++, seq, "sender " + r.gotSource + "'s messages in order");
        }
        assertEquals(perSender, next[0]);
        assertEquals(perSender, next[1]);
        assertFalse(box.hasArrivals());
    }
}
