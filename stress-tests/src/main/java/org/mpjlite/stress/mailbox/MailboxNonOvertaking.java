package org.mpjlite.stress.mailbox;

import static org.mpjlite.matching.Envelope.ANY_SOURCE;
import static org.mpjlite.matching.Envelope.ANY_TAG;

import java.util.function.Function;
import org.mpjlite.matching.LockFreeMailbox;
import org.mpjlite.matching.LockedMailbox;
import org.mpjlite.matching.Mailbox;
import org.mpjlite.matching.MatchHandler;
import org.mpjlite.stress.mailbox.Envelopes.Msg;
import org.mpjlite.stress.mailbox.Envelopes.Recv;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Non-overtaking and exactly-once at the matching structure itself, for any {@link Mailbox}: one
 * sender delivers 1 then 2 with the same envelope while the owner posts two wildcard receives; the
 * arbiter lets the owner match what arrived and reports (first receive's payload, second's, messages
 * or receives left over). A payload of 0 means the receive never matched, -1 that it matched twice.
 *
 * <p>This is the test the deliberately broken {@code LifoMailbox} runs too (package
 * {@code org.mpjlite.stress.broken}): the build fails unless that one FAILS here.
 *
 * <p>Only {@code 1, 2, 0} is acceptable. {@code 2, 1, 0} is overtaking; 0, -1 and leftovers are lost,
 * duplicated or unmatched messages: FORBIDDEN.
 */
@Outcome(id = "1, 2, 0", expect = Expect.ACCEPTABLE, desc = "Both matched once, in the order delivered.")
@Outcome(id = "2, 1, 0", expect = Expect.FORBIDDEN, desc = "The second message overtook the first.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A message lost (0), matched twice (-1), or left over.")
public abstract class MailboxNonOvertaking {
    private static final int CONTEXT = 0;
    private static final int SOURCE = 0;
    private static final int TAG = 5;

    private final Mailbox<Msg, Recv> mailbox;
    private final Recv first = new Recv(CONTEXT, ANY_SOURCE, ANY_TAG);
    private final Recv second = new Recv(CONTEXT, ANY_SOURCE, ANY_TAG);

    protected MailboxNonOvertaking(Function<MatchHandler<Msg, Recv>, Mailbox<Msg, Recv>> factory) {
        mailbox = factory.apply(Envelopes.HANDLER);
    }

    protected void send() {
        mailbox.deliver(new Msg(CONTEXT, SOURCE, TAG, 1));
        mailbox.deliver(new Msg(CONTEXT, SOURCE, TAG, 2));
    }

    /** The calling thread's posts behind a waiting receive are deferred from now on. */
    protected void deferPosts() {
        mailbox.deferPostsOf(Thread.currentThread());
    }

    protected void receive() {
        mailbox.post(first);
        mailbox.post(second);
    }

    protected void check(III_Result r) {
        mailbox.progress();
        r.r1 = first.result();
        r.r2 = second.result();
        r.r3 = mailbox.unexpectedSnapshot().size() + mailbox.postedSnapshot().size();
    }

    /** {@link LockedMailbox}. */
    @JCStressTest
    @State
    public static class Locked extends MailboxNonOvertaking {
        public Locked() {
            super(LockedMailbox::new);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void owner() {
            receive();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }

    /**
     * {@link LockFreeMailbox}, the owner's posts deferred ({@link LockFreeMailbox#deferPostsOf}): the
     * second receive, posted while the first waits, takes its place at the arbiter's round of matching.
     */
    @JCStressTest
    @State
    public static class LockFreeDeferred extends MailboxNonOvertaking {
        public LockFreeDeferred() {
            super(LockFreeMailbox::new);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void owner() {
            deferPosts();
            receive();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }

    /** {@link LockFreeMailbox}. */
    @JCStressTest
    @State
    public static class LockFree extends MailboxNonOvertaking {
        public LockFree() {
            super(LockFreeMailbox::new);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void owner() {
            receive();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }
}
