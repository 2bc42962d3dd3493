package org.mpjlite.matching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.matching.MailboxTest.Msg;
import org.mpjlite.matching.MailboxTest.Recorder;
import org.mpjlite.matching.MailboxTest.Recv;

/**
 * The receives the Init thread posts behind a waiting receive ({@link LockFreeMailbox#deferPostsOf}):
 * they take their places at the owner's next call, exactly as if posted at once, and only the
 * deferring thread's posts wait. The matching rules themselves run against a deferring mailbox in
 * {@link MailboxTest}.
 */
class DeferredPostsTest {
    private static final int WAITING_TAG = 1;
    private static final int TAG = 2;

    private final Recorder recorder = new Recorder();

    /** A deferring mailbox (confined to the test thread, or not) with one receive waiting, published. */
    private LockFreeMailbox<Msg, Recv> mailboxWithAWaitingReceive(boolean confined) {
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(recorder);
        box.deferPostsOf(Thread.currentThread());
        if (confined) {
            box.confineTo(Thread.currentThread());
        }
        box.post(new Recv(0, 0, WAITING_TAG));
        return box;
    }

    @ParameterizedTest(name = "confined {0}")
    @ValueSource(booleans = {false, true})
    void aReceivePostedBehindAWaitingOneTakesItsPlaceAtTheNextCall(boolean confined) {
        LockFreeMailbox<Msg, Recv> box = mailboxWithAWaitingReceive(confined);
        Msg m = new Msg(0, 0, TAG, 0);
        box.deliver(m);
        Recv r = new Recv(0, 0, TAG);
        box.post(r);
        assertNull(r.matched, "deferred: the post neither drained the inbox nor matched");
        box.progress();
        assertSame(m, r.matched, "the next call drained the inbox and put the receive in its place");
    }

    @Test
    void anotherThreadsPostIsNotDeferred() throws InterruptedException {
        LockFreeMailbox<Msg, Recv> box = mailboxWithAWaitingReceive(false);
        Msg m = new Msg(0, 0, TAG, 0);
        box.deliver(m);
        Recv r = new Recv(0, 0, TAG);
        Thread other = new Thread(() -> box.post(r));
        other.start();
        other.join();
        assertSame(m, r.matched, "posted at once, under the owner lock");
    }

    @Test
    void aReceiveIsNotDeferredWhenNoneWaits() {
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(recorder);
        box.deferPostsOf(Thread.currentThread());
        Msg m = new Msg(0, 0, TAG, 0);
        box.deliver(m);
        Recv r = new Recv(0, 0, TAG);
        box.post(r);
        assertSame(m, r.matched);
    }

    @Test
    void progressMatchesWhenOnlyADeferredReceiveIsNew() {
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(recorder);
        box.deferPostsOf(Thread.currentThread());
        Msg m = new Msg(0, 0, TAG, 0);
        box.deliver(m);
        box.progress(); // m unexpected: the inbox is empty again
        box.post(new Recv(0, 0, WAITING_TAG));
        Recv r = new Recv(0, 0, TAG);
        box.post(r);
        assertNull(r.matched);
        box.progress(); // nothing arrived, nothing to settle, no ring: only the deferred receive
        assertSame(m, r.matched);
    }

    @Test
    void probeAndTakeNeverSeeAMessageADeferredReceiveTakes() {
        LockFreeMailbox<Msg, Recv> box = mailboxWithAWaitingReceive(false);
        Msg first = new Msg(0, 0, TAG, 0);
        Msg second = new Msg(0, 0, TAG, 1);
        box.deliver(first);
        box.deliver(second);
        Recv r = new Recv(0, 0, TAG);
        box.post(r);
        assertSame(second, box.probe(0, 0, TAG), "the receive, posted before the probe, took the first");
        assertSame(first, r.matched);
        assertSame(second, box.take(0, 0, TAG));
    }

    @Test
    void aDeferredReceiveCanBeCancelled() {
        LockFreeMailbox<Msg, Recv> box = mailboxWithAWaitingReceive(false);
        Recv r = new Recv(0, 0, TAG);
        box.post(r);
        assertTrue(box.cancel(r));
        assertFalse(box.cancel(r));
        Msg m = new Msg(0, 0, TAG, 0);
        box.deliver(m);
        box.progress();
        assertNull(r.matched);
        assertSame(m, box.probe(0, 0, TAG));
    }

    @Test
    void snapshotsListDeferredReceivesInPostOrder() {
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(recorder);
        box.deferPostsOf(Thread.currentThread());
        List<Recv> posted = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Recv r = new Recv(0, 0, TAG + i);
            posted.add(r);
            box.post(r);
        }
        assertEquals(posted, box.postedSnapshot());
    }

    /** Past the queue's room a post takes the lock, which first puts the deferred ones in place. */
    @Test
    void moreReceivesThanTheQueueHoldsKeepTheirOrder() {
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(recorder);
        box.deferPostsOf(Thread.currentThread());
        int n = 3 * LockFreeMailbox.DEFERRED_POSTS + 1;
        List<Recv> receives = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Recv r = new Recv(0, Envelope.ANY_SOURCE, Envelope.ANY_TAG);
            receives.add(r);
            box.post(r);
        }
        for (int i = 0; i < n; i++) {
            box.deliver(new Msg(0, 0, i % 3, i));
        }
        box.progress();
        for (int i = 0; i < n; i++) {
            assertEquals(i, receives.get(i).matched.seq, "receive " + i);
        }
        assertTrue(box.postedSnapshot().isEmpty());
        assertTrue(box.unexpectedSnapshot().isEmpty());
    }

    /**
     * A receive another thread of the rank posts after it learnt of the deferred ones (here through
     * Thread.start) comes after them; the sender claims the published receive when it can.
     */
    @Test
    void aPostAfterAHandOffComesAfterTheDeferredReceives() throws InterruptedException {
        LockFreeMailbox<Msg, Recv> box = new LockFreeMailbox<>(recorder);
        box.deferPostsOf(Thread.currentThread());
        Recv r0 = new Recv(0, Envelope.ANY_SOURCE, TAG);
        Recv r1 = new Recv(0, Envelope.ANY_SOURCE, TAG);
        Recv r2 = new Recv(0, Envelope.ANY_SOURCE, TAG);
        box.post(r0);
        box.post(r1);
        Thread other = new Thread(() -> box.post(r2));
        other.start();
        other.join();
        for (int i = 1; i <= 3; i++) {
            Msg m = new Msg(0, 0, TAG, i);
            Recv claimed = box.matchPosted(m);
            if (claimed != null) {
                recorder.matched(claimed, m);
            } else {
                box.deliver(m);
            }
        }
        box.progress();
        assertEquals(1, r0.matched.seq);
        assertEquals(2, r1.matched.seq);
        assertEquals(3, r2.matched.seq);
    }
}
