package org.mpjlite.matching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A sender's withdrawal of a message it made withdrawable (a cancelled send) against the owner's
 * matching, in both mailboxes: withdrawn before it is matched, the message is never received,
 * probed or reported; matched first, the withdrawal fails.
 */
class WithdrawalTest {
    static final class Sent extends SentEnvelope {
        final int seq;
        long stamp;

        Sent(int context, int source, int tag, int seq) {
            super(context, source, tag);
            this.seq = seq;
        }

        /** Made withdrawable, as a pending send's message is before its delivery. */
        Sent withdrawable() {
            stamp = makeWithdrawable();
            return this;
        }

        boolean withdraw() {
            return withdraw(stamp);
        }
    }

    static final class Recv extends Envelope {
        volatile Sent matched;

        Recv(int context, int source, int tag) {
            super(context, source, tag);
        }
    }

    /** Records matches; a message or a receive matched twice fails the test. */
    static final class Recorder implements MatchHandler<Sent, Recv> {
        final ConcurrentHashMap<Sent, Recv> seen = new ConcurrentHashMap<>();

        @Override
        public void matched(Recv receive, Sent message) {
            if (receive.matched != null) {
                throw new AssertionError("receive matched twice");
            }
            if (seen.put(message, receive) != null) {
                throw new AssertionError("message delivered twice: " + message.seq);
            }
            receive.matched = message;
        }
    }

    static Stream<Named<Function<Recorder, Mailbox<Sent, Recv>>>> mailboxes() {
        return Stream.of(
            Named.of("locked", LockedMailbox::new),
            Named.of("lock-free", LockFreeMailbox::new));
    }

    @ParameterizedTest
    @MethodSource("mailboxes")
    void aMessageWithdrawnBeforeTheOwnerLooksAtItIsNeverReceived(Function<Recorder, Mailbox<Sent, Recv>> factory) {
        Mailbox<Sent, Recv> box = factory.apply(new Recorder());
        Sent m = new Sent(0, 1, 5, 0).withdrawable();
        box.deliver(m); // the lock-free mailbox's inbox still holds it
        assertTrue(m.withdraw());
        assertFalse(m.withdraw(), "withdrawn once");
        Recv r = new Recv(0, 1, 5);
        box.post(r);
        box.progress();
        assertNull(r.matched);
        assertNull(box.probe(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG));
        assertTrue(box.unexpectedSnapshot().isEmpty());
        assertEquals(List.of(r), box.postedSnapshot());
        Sent next = new Sent(0, 1, 5, 1);
        box.deliver(next);
        box.progress();
        assertSame(next, r.matched, "the receive takes the next message");
    }

    @ParameterizedTest
    @MethodSource("mailboxes")
    void aMessageWithdrawnWhileUnexpectedIsSkippedByReceivesProbesAndReports(
            Function<Recorder, Mailbox<Sent, Recv>> factory) {
        Mailbox<Sent, Recv> box = factory.apply(new Recorder());
        Sent first = new Sent(0, 1, 5, 0);
        Sent withdrawn = new Sent(0, 1, 5, 1).withdrawable();
        Sent last = new Sent(0, 1, 5, 2).withdrawable();
        box.deliver(first);
        box.deliver(withdrawn);
        box.deliver(last);
        assertEquals(3, box.unexpectedSnapshot().size(), "drained: all three wait, unexpected");
        assertTrue(withdrawn.withdraw());
        assertEquals(List.of(first, last), box.unexpectedSnapshot());
        Recv r1 = new Recv(0, 1, 5);
        Recv r2 = new Recv(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG);
        box.post(r1);
        assertSame(first, r1.matched);
        assertSame(last, box.probe(0, 1, 5), "a probe skips the withdrawn message");
        box.post(r2);
        assertSame(last, r2.matched, "non-overtaking order of the rest is kept");
        assertFalse(last.withdraw(), "matched: no longer withdrawable");
        assertTrue(box.unexpectedSnapshot().isEmpty());
        assertTrue(box.postedSnapshot().isEmpty());
    }

    @ParameterizedTest
    @MethodSource("mailboxes")
    void aMessageAPostedReceiveTookOnArrivalCannotBeWithdrawn(Function<Recorder, Mailbox<Sent, Recv>> factory) {
        Mailbox<Sent, Recv> box = factory.apply(new Recorder());
        Recv r = new Recv(0, Envelope.ANY_SOURCE, 3);
        box.post(r);
        Sent m = new Sent(0, 2, 3, 0).withdrawable();
        box.deliver(m);
        box.progress();
        assertSame(m, r.matched);
        assertFalse(m.withdraw());
    }

    @ParameterizedTest
    @MethodSource("mailboxes")
    void aMatchedProbeBindsTheMessageAndAPlainProbeDoesNot(Function<Recorder, Mailbox<Sent, Recv>> factory) {
        Mailbox<Sent, Recv> box = factory.apply(new Recorder());
        Sent taken = new Sent(0, 2, 3, 0).withdrawable();
        Sent probed = new Sent(0, 2, 4, 1).withdrawable();
        box.deliver(taken);
        box.deliver(probed);
        assertSame(taken, box.take(0, 2, 3));
        assertFalse(taken.withdraw(), "a matched probe matched it");
        assertSame(probed, box.probe(0, 2, 4));
        assertTrue(probed.withdraw(), "a plain probe leaves it unmatched");
        assertNull(box.probe(0, 2, 4));
        assertNull(box.take(0, 2, Envelope.ANY_TAG));
    }

    /** A recycled message made withdrawable again: a withdrawal meant for its earlier use fails. */
    @ParameterizedTest
    @MethodSource("mailboxes")
    void aWithdrawalForAnEarlierUseOfARecycledMessageFails(Function<Recorder, Mailbox<Sent, Recv>> factory) {
        Mailbox<Sent, Recv> box = factory.apply(new Recorder());
        Sent m = new Sent(0, 1, 1, 0).withdrawable();
        long earlier = m.stamp;
        box.deliver(m);
        Recv r = new Recv(0, 1, 1);
        box.post(r);
        assertSame(m, r.matched);
        m.rekey(0, 1, 2); // recycled for another send
        m.withdrawable();
        box.deliver(m);
        box.progress();
        assertFalse(m.withdraw(earlier), "the earlier use was matched");
        assertEquals(List.of(m), box.unexpectedSnapshot());
        assertTrue(m.withdraw());
        assertTrue(box.unexpectedSnapshot().isEmpty());
    }

    /**
     * Many senders withdraw half their messages at random moments while the owner receives: every
     * message is either withdrawn or received, exactly once, and the receives of one sender get its
     * remaining messages in the order sent.
     */
    @ParameterizedTest
    @MethodSource("mailboxes")
    void everyMessageIsWithdrawnOrReceivedExactlyOnce(Function<Recorder, Mailbox<Sent, Recv>> factory)
            throws InterruptedException {
        Recorder rec = new Recorder();
        Mailbox<Sent, Recv> box = factory.apply(rec);
        int senders = 3;
        int perSender = 20_000;
        AtomicIntegerArray withdrawnBy = new AtomicIntegerArray(senders);
        boolean[][] withdrawn = new boolean[senders][perSender];
        CountDownLatch sent = new CountDownLatch(senders);
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            int source = s;
            Thread t = new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                List<Sent> pending = new ArrayList<>();
                for (int i = 0; i < perSender; i++) {
                    Sent m = new Sent(0, source, 0, i).withdrawable();
                    box.deliver(m);
                    pending.add(m);
                    if (random.nextInt(4) == 0) { // withdraw a few recent ones, some already received
                        for (Sent p : pending) {
                            if (random.nextBoolean() && p.withdraw()) {
                                withdrawn[source][p.seq] = true;
                                withdrawnBy.incrementAndGet(source);
                            }
                        }
                        pending.clear();
                    }
                }
                sent.countDown();
            }, "sender-" + s);
            threads.add(t);
            t.start();
        }
        List<Recv> receives = new ArrayList<>();
        int[] lastSeq = new int[senders];
        java.util.Arrays.fill(lastSeq, -1);
        // Receive until every sender is done and no message is left: a receive of any message that
        // finds none once the senders have finished is cancelled, and ends the loop.
        for (;;) {
            Recv r = new Recv(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG);
            box.post(r);
            boolean last = false;
            while (r.matched == null) {
                boolean done = sent.getCount() == 0;
                box.progress();
                if (r.matched == null && done && box.cancel(r)) {
                    last = true;
                    break;
                }
                Thread.onSpinWait();
            }
            if (last) {
                break;
            }
            Sent m = r.matched;
            assertTrue(m.seq > lastSeq[m.source()], "non-overtaking order of sender " + m.source());
            lastSeq[m.source()] = m.seq;
            receives.add(r);
        }
        for (Thread t : threads) {
            t.join();
        }
        int received = receives.size();
        int withdrawnTotal = 0;
        for (int s = 0; s < senders; s++) {
            withdrawnTotal += withdrawnBy.get(s);
        }
        assertEquals(senders * perSender, received + withdrawnTotal, "every message withdrawn or received");
        for (Recv r : receives) {
            assertFalse(withdrawn[r.matched.source()][r.matched.seq],
                "message " + r.matched.seq + " of " + r.matched.source() + " was withdrawn and also received");
        }
        assertTrue(withdrawnTotal > 0, "some withdrawals won");
    }
}
