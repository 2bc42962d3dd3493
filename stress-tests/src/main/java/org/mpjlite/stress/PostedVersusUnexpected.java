package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.mpjlite.smpdev.p2p.SendRequest;
import org.mpjlite.smpdev.wait.WaitMode;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Posted versus unexpected: rank 1 posts a receive while rank 0's matching send arrives, by
 * rendezvous (eager threshold 0, so the receive copies straight from the sender's buffer and then
 * completes the send). Whichever wins the race (the sender finds the receive posted; the receive
 * finds the message unexpected; or, lock-free, the message waits in the inbox until rank 1
 * progresses), they match exactly once. The arbiter lets rank 1 progress and reports (payload
 * received or 0, send complete 1/0, messages or receives left over).
 *
 * <p>Only {@code 42, 1, 0} is acceptable. A 0 payload or an incomplete send is a lost match; a
 * leftover means the message and the receive missed each other (both kept, never matched): FORBIDDEN.
 */
@Outcome(id = "42, 1, 0", expect = Expect.ACCEPTABLE, desc = "Matched exactly once, both sides complete.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Lost match, missed each other, or a side never completed.")
public abstract class PostedVersusUnexpected {
    private static final int TAG = 3;

    private final Job job;
    private final int[] buffer = new int[1];
    private SendRequest send;
    private RecvRequest recv;

    PostedVersusUnexpected(MatchingKind matching) {
        job = Device.job(matching, 2, 0, WaitMode.AUTO);
    }

    void send() {
        send = Device.send(job, 0, 1, TAG, 42);
    }

    void receive() {
        recv = Device.recv(job, 1, 0, TAG, buffer);
    }

    void check(III_Result r) {
        Device.progress(job, 1);
        r.r1 = recv.isComplete() ? buffer[0] : 0;
        r.r2 = send.isComplete() ? 1 : 0;
        r.r3 = Device.unexpected(job, 1) + Device.posted(job, 1);
    }

    /** With {@link MatchingKind#LOCKED} mailboxes. */
    @JCStressTest
    @State
    public static class Locked extends PostedVersusUnexpected {
        public Locked() {
            super(MatchingKind.LOCKED);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void receiver() {
            receive();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }

    /** With {@link MatchingKind#LOCK_FREE} mailboxes. */
    @JCStressTest
    @State
    public static class LockFree extends PostedVersusUnexpected {
        public LockFree() {
            super(MatchingKind.LOCK_FREE);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void receiver() {
            receive();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }
}
