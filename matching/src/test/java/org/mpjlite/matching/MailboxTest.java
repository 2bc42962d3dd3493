package org.mpjlite.matching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The matching rules every mailbox keeps, run against both implementations. */
class MailboxTest {
    static final class Msg extends Envelope {
        final int seq;

        Msg(int context, int source, int tag, int seq) {
            super(context, source, tag);
            this.seq = seq;
        }
    }

    static final class Recv extends Envelope {
        volatile Msg matched;

        Recv(int context, int source, int tag) {
            super(context, source, tag);
        }
    }

    /** Records matches; a receive matched twice or a message matched twice fails the test. */
    static final class Recorder implements MatchHandler<Msg, Recv> {
        final List<Recv> order = Collections.synchronizedList(new ArrayList<>());
        final Map<Msg, Boolean> seen = new ConcurrentHashMap<>();

        @Override
        public void matched(Recv receive, Msg message) {
            if (receive.matched != null) {
                throw new AssertionError("receive matched twice");
            }
            if (seen.put(message, Boolean.TRUE) != null) {
                throw new AssertionError("message delivered twice: " + message.seq);
            }
            receive.matched = message;
            order.add(receive);
        }
    }

    static Stream<Named<Function<Recorder, Mailbox<Msg, Recv>>>> mailboxes() {
        return Stream.of(
            Named.of("locked", LockedMailbox::new),
            Named.of("lock-free", LockFreeMailbox::new),
            Named.of("lock-free, the test thread's posts deferred", MailboxTest::deferringMailbox));
    }

    /** A lock-free mailbox that defers the calling thread's posts made behind a waiting receive. */
    private static Mailbox<Msg, Recv> deferringMailbox(Recorder recorder) {
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(recorder);
        box.deferPostsOf(Thread.currentThread());
        return box;
    }

    @ParameterizedTest
    @MethodSource("mailboxes")
    void aPostedReceiveTakesTheEarliestMatchingUnexpectedMessage(Function<Recorder, Mailbox<Msg, Recv>> factory) {
        Recorder rec = new Recorder();
        Mailbox<Msg, Recv> box = factory.apply(rec);
        Msg a = new Msg(0, 1, 5, 0);
        Msg b = new Msg(0, 2, 5, 1);
        Msg c = new Msg(0, 1, 5, 2);
        box.deliver(a);
        box.deliver(b);
        box.deliver(c);
        Recv r1 = new Recv(0, 1, 5);
        box.post(r1);
        assertSame(a, r1.matched);
        Recv r2 = new Recv(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG);
        box.post(r2);
        assertSame(b, r2.matched);
        Recv r3 = new Recv(0, 1, Envelope.ANY_TAG);
        box.post(r3);
        assertSame(c, r3.matched);
        assertTrue(box.unexpectedSnapshot().isEmpty());
    }

    @ParameterizedTest
    @MethodSource("mailboxes")
    void anArrivingMessageTakesTheEarliestPostedReceiveThatAcceptsIt(Function<Recorder, Mailbox<Msg, Recv>> factory) {
        Recorder rec = new Recorder();
        Mailbox<Msg, Recv> box = factory.apply(rec);
        Recv tag7 = new Recv(0, 3, 7);
        Recv any1 = new Recv(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG);
        Recv any2 = new Recv(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG);
        box.post(tag7);
        box.post(any1);
        box.post(any2);
        Msg m1 = new Msg(0, 3, 8, 0);
        Msg m2 = new Msg(0, 3, 7, 1);
        Msg m3 = new Msg(0, 4, 7, 2);
        deliverAndProgress(box, m1);
        deliverAndProgress(box, m2);
        deliverAndProgress(box, m3);
        assertSame(m1, any1.matched);
        assertSame(m2, tag7.matched);
        assertSame(m3, any2.matched);
    }

    @ParameterizedTest
    @MethodSource("mailboxes")
    void contextsNeverMatchEachOther(Function<Recorder, Mailbox<Msg, Recv>> factory) {
        Recorder rec = new Recorder();
        Mailbox<Msg, Recv> box = factory.apply(rec);
        Recv r = new Recv(1, Envelope.ANY_SOURCE, Envelope.ANY_TAG);
        box.post(r);
        Msg m = new Msg(0, 0, 0, 0);
        deliverAndProgress(box, m);
        assertNull(r.matched);
        assertSame(m, box.probe(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG));
        assertNull(box.probe(1, Envelope.ANY_SOURCE, Envelope.ANY_TAG));
    }

    @ParameterizedTest
    @MethodSource("mailboxes")
    void probeLeavesTheMessageAndTakeRemovesIt(Function<Recorder, Mailbox<Msg, Recv>> factory) {
        Recorder rec = new Recorder();
        Mailbox<Msg, Recv> box = factory.apply(rec);
        assertNull(box.probe(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG));
        Msg m = new Msg(0, 2, 9, 0);
        box.deliver(m);
        assertSame(m, box.probe(0, 2, 9));
        assertSame(m, box.probe(0, Envelope.ANY_SOURCE, 9));
        assertNull(box.probe(0, 1, 9));
        assertSame(m, box.take(0, 2, Envelope.ANY_TAG));
        assertNull(box.probe(0, 2, 9));
    }

    @ParameterizedTest
    @MethodSource("mailboxes")
    void aCancelledReceiveIsNeverMatchedAndAMatchedOneCannotBeCancelled(
            Function<Recorder, Mailbox<Msg, Recv>> factory) {
        Recorder rec = new Recorder();
        Mailbox<Msg, Recv> box = factory.apply(rec);
        Recv cancelled = new Recv(0, 0, 0);
        box.post(cancelled);
        assertTrue(box.cancel(cancelled));
        assertFalse(box.cancel(cancelled));
        Msg m = new Msg(0, 0, 0, 0);
        deliverAndProgress(box, m);
        assertNull(cancelled.matched);
        Recv r = new Recv(0, 0, 0);
        box.post(r);
        assertSame(m, r.matched);
        assertFalse(box.cancel(r));
    }

    @ParameterizedTest
    @MethodSource("mailboxes")
    void matchPostedHandsTheSenderAPostedReceiveThatAcceptsIt(Function<Recorder, Mailbox<Msg, Recv>> factory) {
        Recorder rec = new Recorder();
        Mailbox<Msg, Recv> box = factory.apply(rec);
        Recv r = new Recv(0, Envelope.ANY_SOURCE, 4);
        box.post(r);
        assertNull(box.matchPosted(new Msg(0, 1, 5, 1)));
        assertSame(r, box.matchPosted(new Msg(0, 1, 4, 0)));
        assertTrue(box.postedSnapshot().isEmpty());
        assertFalse(box.cancel(r), "a claimed receive is matched, not cancellable");
        assertNull(box.matchPosted(new Msg(0, 1, 4, 2)), "a receive is claimed once");
    }

    /**
     * The inbox is the atomic-add queue below JDK 24 and the VarHandle queue from JDK 24 on, or on
     * any JDK with {@link LockFreeMailbox#VAR_HANDLE_INBOX_PROPERTY} (which the build's second
     * test run of this module sets): so that run does test the other queue.
     */
    @Test
    void inboxIsTheQueueTheJdkAndThePropertyChoose() {
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(new Recorder());
        boolean varHandle = Runtime.version().feature() >= LockFreeMailbox.FIRST_UNSAFE_WARNING_JDK
            || Boolean.getBoolean(LockFreeMailbox.VAR_HANDLE_INBOX_PROPERTY);
        assertEquals(varHandle, box.inbox == null, "the atomic-add queue is absent");
        assertEquals(varHandle, box.quietInbox != null, "the VarHandle queue is present");
    }

    /**
     * A sender must not claim a receive while a message it (or anyone) sent earlier may still be in
     * the inbox: the earlier message must get the receive. Only the lock-free mailbox has an inbox.
     */
    @Test
    void noClaimPastAMessageStillInTheInbox() {
        Recorder rec = new Recorder();
        Mailbox<Msg, Recv> box = new LockFreeMailbox<>(rec);
        Recv r = new Recv(0, 1, Envelope.ANY_TAG);
        box.post(r);
        Msg first = new Msg(0, 1, 7, 0);
        box.deliver(first);
        assertNull(box.matchPosted(new Msg(0, 1, 7, 1)), "the second message would overtake the first");
        box.progress();
        assertSame(first, r.matched);
    }

    /**
     * Only the earliest posted receive is published: a later one waits in order behind it, and is
     * published when the owner next looks after the first was claimed.
     */
    @Test
    void aSecondReceiveIsNotClaimableAheadOfTheFirst() {
        Recorder rec = new Recorder();
        Mailbox<Msg, Recv> box = new LockFreeMailbox<>(rec);
        Recv first = new Recv(0, 1, 3);
        Recv second = new Recv(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG);
        box.post(first);
        box.post(second);
        assertEquals(List.of(first, second), box.postedSnapshot());
        assertNull(box.matchPosted(new Msg(0, 1, 4, 0)), "only the first receive may be claimed");
        assertSame(first, box.matchPosted(new Msg(0, 1, 3, 1)));
        assertNull(box.matchPosted(new Msg(0, 1, 3, 2)), "the next is published by the owner, not yet");
        box.progress();
        assertSame(second, box.matchPosted(new Msg(0, 1, 3, 2)), "the owner published the next receive");
        assertTrue(box.postedSnapshot().isEmpty());
    }

    /** A published receive cancelled before any sender claims it can no longer be claimed. */
    @Test
    void aCancelledPublishedReceiveIsNotClaimable() {
        Recorder rec = new Recorder();
        Mailbox<Msg, Recv> box = new LockFreeMailbox<>(rec);
        Recv r = new Recv(0, 1, 3);
        box.post(r);
        assertTrue(box.cancel(r));
        assertNull(box.matchPosted(new Msg(0, 1, 3, 0)));
        assertTrue(box.postedSnapshot().isEmpty());
    }

    /**
     * Several senders deliver concurrently while the owner posts wildcard receives: every message
     * is received exactly once and each sender's messages arrive in the order it sent them.
     */
    @ParameterizedTest
    @MethodSource("mailboxes")
    void concurrentSendersExactlyOnceAndInOrderPerSender(Function<Recorder, Mailbox<Msg, Recv>> factory)
            throws InterruptedException {
        final int senders = 4;
        final int perSender = 20_000;
        Recorder rec = new Recorder();
        Mailbox<Msg, Recv> box = factory.apply(rec);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            final int src = s;
            Thread t = new Thread(() -> {
                await(start);
                for (int i = 0; i < perSender; i++) {
                    box.deliver(new Msg(0, src, i % 3, i));
                }
            });
            threads.add(t);
            t.start();
        }
        start.countDown();
        List<Recv> receives = new ArrayList<>();
        for (int i = 0; i < senders * perSender; i++) {
            Recv r = new Recv(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG);
            receives.add(r);
            box.post(r);
        }
        for (Thread t : threads) {
            t.join();
        }
        while (receives.stream().anyMatch(r -> r.matched == null)) {
            box.progress();
            Thread.onSpinWait();
        }
        int[] next = new int[senders];
        for (Recv r : rec.order) {
            Msg m = r.matched;
            assertEquals(next[m.source()]++, m.seq, "sender " + m.source() + " overtaken");
        }
        for (int s = 0; s < senders; s++) {
            assertEquals(perSender, next[s]);
        }
        assertEquals(senders * perSender, rec.seen.size());
        assertTrue(box.unexpectedSnapshot().isEmpty());
        assertTrue(box.postedSnapshot().isEmpty());
    }

    private static void deliverAndProgress(Mailbox<Msg, Recv> box, Msg m) {
        box.deliver(m);
        box.progress();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
