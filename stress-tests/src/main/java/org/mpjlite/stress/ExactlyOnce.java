package org.mpjlite.stress;

import static org.mpjlite.stress.Device.ANY;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Exactly once: ranks 0 and 1 each send one message (payload {@code 10 + rank}) to rank 2, which
 * posts two {@code ANY_SOURCE} receives from two threads of its own (MPI_THREAD_MULTIPLE). Two actors
 * (jcstress runs no more actors than there are cores, and CI has two) play all four roles: actor A
 * sends as rank 0 then posts receive A as rank 2; actor B posts receive B as rank 2 then sends as rank
 * 1. So the senders race each other, the receives race each other, and each send races both
 * receives. The arbiter lets rank 2 match what arrived and reports each receive's payload (0 if it
 * never completed, -1 if the payload does not belong to the status source) and the number of messages
 * or receives left over.
 *
 * <p>Acceptable: each receive got a different sender's message, in either order (which sender wins
 * which receive is a legitimate race). FORBIDDEN: a receive without a message (a lost message),
 * the same message twice (a duplicate), a payload that disagrees with its status, any leftover.
 */
@Outcome(id = "10, 11, 0", expect = Expect.ACCEPTABLE, desc = "Receive A got rank 0's message.")
@Outcome(id = "11, 10, 0", expect = Expect.ACCEPTABLE, desc = "Receive A got rank 1's message.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A message lost, duplicated, mislabelled or left unreceived.")
public abstract class ExactlyOnce {
    private static final int TAG = 9;

    private final Job job;
    private final int[] first = new int[1];
    private final int[] second = new int[1];
    private RecvRequest a;
    private RecvRequest b;

    ExactlyOnce(MatchingKind matching) {
        job = Device.job(matching, 3);
    }

    void sendThenReceive() {
        Device.send(job, 0, 2, TAG, 10);
        a = Device.recv(job, 2, ANY, TAG, first);
    }

    void receiveThenSend() {
        b = Device.recv(job, 2, ANY, TAG, second);
        Device.send(job, 1, 2, TAG, 11);
    }

    void check(III_Result r) {
        Device.progress(job, 2);
        r.r1 = payload(a, first);
        r.r2 = payload(b, second);
        r.r3 = Device.unexpected(job, 2) + Device.posted(job, 2);
    }

    private static int payload(RecvRequest request, int[] buffer) {
        if (!request.isComplete()) {
            return 0;
        }
        return buffer[0] == 10 + request.statusSource() ? buffer[0] : -1;
    }

    /** With {@link MatchingKind#LOCKED} mailboxes. */
    @JCStressTest
    @State
    public static class Locked extends ExactlyOnce {
        public Locked() {
            super(MatchingKind.LOCKED);
        }

        @Actor
        public void actorA() {
            sendThenReceive();
        }

        @Actor
        public void actorB() {
            receiveThenSend();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }

    /** With {@link MatchingKind#LOCK_FREE} mailboxes. */
    @JCStressTest
    @State
    public static class LockFree extends ExactlyOnce {
        public LockFree() {
            super(MatchingKind.LOCK_FREE);
        }

        @Actor
        public void actorA() {
            sendThenReceive();
        }

        @Actor
        public void actorB() {
            receiveThenSend();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }
}
