package org.mpjlite.stress;

import static org.mpjlite.stress.Device.ANY;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.RecvRequest;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Exactly once: ranks 0 and 1 each send one message (payload {@code 10 + rank}) to rank 2 while rank
 * 2 posts two {@code ANY_SOURCE} receives; all three run concurrently. The arbiter lets rank 2 match
 * what arrived and reports each receive's payload (0 if it never completed, -1 if the payload does
 * not belong to the status source) and the number of messages or receives left over.
 *
 * <p>Acceptable: each receive got a different sender's message, in either order (which sender wins
 * the first receive is a legitimate race). FORBIDDEN: a receive without a message (a lost message),
 * the same message twice (a duplicate), a payload that disagrees with its status, any leftover.
 */
@Outcome(id = "10, 11, 0", expect = Expect.ACCEPTABLE, desc = "Rank 0's message matched the first receive.")
@Outcome(id = "11, 10, 0", expect = Expect.ACCEPTABLE, desc = "Rank 1's message matched the first receive.")
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

    void send(int rank) {
        Device.send(job, rank, 2, TAG, 10 + rank);
    }

    void receive() {
        a = Device.recv(job, 2, ANY, TAG, first);
        b = Device.recv(job, 2, ANY, TAG, second);
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
        public void sender0() {
            send(0);
        }

        @Actor
        public void sender1() {
            send(1);
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
    public static class LockFree extends ExactlyOnce {
        public LockFree() {
            super(MatchingKind.LOCK_FREE);
        }

        @Actor
        public void sender0() {
            send(0);
        }

        @Actor
        public void sender1() {
            send(1);
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
