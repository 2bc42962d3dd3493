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
 * Non-overtaking through the device: rank 0 sends 1 then 2 with the same envelope while rank 1,
 * concurrently, posts two wildcard receives ({@code ANY_SOURCE, ANY_TAG}). Whatever interleaving of
 * sends and posts (each send may find a posted receive, claim the lock-free mailbox's published
 * receive, be kept as unexpected, or wait in the lock-free inbox: the second send may try to claim
 * the first receive while the first message waits in the inbox, published between the receiver's
 * drain and the first message's arrival), the first receive must get 1 and the second 2. The arbiter lets rank 1 match
 * what arrived and reports (first, second, messages or receives left over).
 *
 * <p>Only {@code 1, 2, 0} is acceptable: MPI promises it for every interleaving. {@code 2, 1} is
 * overtaking; a 0 is a lost message (a receive never completed); a leftover is a message that no
 * receive got or a receive that got nothing: all FORBIDDEN.
 */
@Outcome(id = "1, 2, 0", expect = Expect.ACCEPTABLE, desc = "Both received, in the order sent.")
@Outcome(id = "2, 1, 0", expect = Expect.FORBIDDEN, desc = "The second message overtook the first.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A message lost (0), duplicated, or left unreceived.")
public abstract class NonOvertaking {
    private static final int TAG = 5;

    private final Job job;
    private final int[] first = new int[1];
    private final int[] second = new int[1];
    private RecvRequest a;
    private RecvRequest b;

    NonOvertaking(MatchingKind matching) {
        job = Device.job(matching, 2);
    }

    void send() {
        Device.send(job, 0, 1, TAG, 1);
        Device.send(job, 0, 1, TAG, 2);
    }

    void receive() {
        a = Device.recv(job, 1, ANY, ANY, first);
        b = Device.recv(job, 1, ANY, ANY, second);
    }

    void check(III_Result r) {
        Device.progress(job, 1);
        r.r1 = a.isComplete() ? first[0] : 0;
        r.r2 = b.isComplete() ? second[0] : 0;
        r.r3 = Device.unexpected(job, 1) + Device.posted(job, 1);
    }

    /** With {@link MatchingKind#LOCKED} mailboxes. */
    @JCStressTest
    @State
    public static class Locked extends NonOvertaking {
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
    public static class LockFree extends NonOvertaking {
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
