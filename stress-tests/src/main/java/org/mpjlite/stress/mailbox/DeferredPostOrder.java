package org.mpjlite.stress.mailbox;

import static org.mpjlite.matching.Envelope.ANY_SOURCE;

import org.mpjlite.matching.LockFreeMailbox;
import org.mpjlite.stress.mailbox.Envelopes.Msg;
import org.mpjlite.stress.mailbox.Envelopes.Recv;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Deferred posts ({@link LockFreeMailbox#deferPostsOf}) at a {@link LockFreeMailbox}: the Init thread
 * posts {@code first} then {@code second}, which is deferred whenever a receive waits by then, against
 * another thread of the rank or a sender. Every message has one envelope that every receive accepts,
 * and a sender claims the published receive when it can, as the device's senders do, else delivers
 * to the inbox. A payload of 0 is a receive never matched, -1 one matched twice.
 */
public abstract class DeferredPostOrder {
    private static final int CONTEXT = 0;
    private static final int SOURCE = 0;
    private static final int TAG = 5;

    final LockFreeMailbox<Msg, Recv> mailbox = new LockFreeMailbox<>(Envelopes.HANDLER);
    final Recv first = new Recv(CONTEXT, ANY_SOURCE, TAG);
    final Recv second = new Recv(CONTEXT, ANY_SOURCE, TAG);

    void postFromInitThread() {
        mailbox.deferPostsOf(Thread.currentThread());
        mailbox.post(first);
        mailbox.post(second);
    }

    void send(int payload) {
        Msg m = new Msg(CONTEXT, SOURCE, TAG, payload);
        Recv claimed = mailbox.matchPosted(m);
        if (claimed != null) {
            Envelopes.HANDLER.matched(claimed, m);
        } else {
            mailbox.deliver(m);
        }
    }

    int leftOver() {
        return mailbox.unexpectedSnapshot().size() + mailbox.postedSnapshot().size();
    }

    /**
     * Another thread of the rank posts {@code other} under the owner lock, which first puts the
     * deferred receives it sees in their places; the arbiter then sends 1, 2, 3, makes a round of
     * matching and reports (first, second, other, receives or messages left over). The receives
     * match in the order the mailbox took the posts, and the Init thread's two keep theirs.
     */
    @JCStressTest
    @Outcome(id = "1, 2, 3, 0", expect = Expect.ACCEPTABLE, desc = "The other thread's post taken last.")
    @Outcome(id = "1, 3, 2, 0", expect = Expect.ACCEPTABLE, desc = "The other thread's post taken between the two.")
    @Outcome(id = "2, 3, 1, 0", expect = Expect.ACCEPTABLE, desc = "The other thread's post taken first.")
    @Outcome(expect = Expect.FORBIDDEN,
        desc = "The Init thread's posts out of order, or a message lost (0), matched twice (-1) or left over.")
    @State
    public static class AgainstOtherThread extends DeferredPostOrder {
        private final Recv other = new Recv(CONTEXT, ANY_SOURCE, TAG);

        @Actor
        public void initThread() {
            postFromInitThread();
        }

        @Actor
        public void otherThread() {
            mailbox.post(other);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            send(1);
            send(2);
            send(3);
            mailbox.progress();
            r.r1 = first.result();
            r.r2 = second.result();
            r.r3 = other.result();
            r.r4 = leftOver();
        }
    }

    /**
     * A sender sends 1 then 2 while the Init thread posts; the arbiter makes a round of matching
     * and reports (first, second, left over). Only {@code 1, 2, 0}: {@code 2, 1, 0} is a message
     * overtaking, through a claim or a deferred receive taking its place too early.
     */
    @JCStressTest
    @Outcome(id = "1, 2, 0", expect = Expect.ACCEPTABLE, desc = "Both matched once, in the order sent.")
    @Outcome(id = "2, 1, 0", expect = Expect.FORBIDDEN, desc = "The second message overtook the first.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A message lost (0), matched twice (-1), or left over.")
    @State
    public static class AgainstSender extends DeferredPostOrder {
        @Actor
        public void initThread() {
            postFromInitThread();
        }

        @Actor
        public void sender() {
            send(1);
            send(2);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            mailbox.progress();
            r.r1 = first.result();
            r.r2 = second.result();
            r.r3 = leftOver();
        }
    }
}
