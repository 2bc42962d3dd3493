package org.mpjlite.stress;

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
 * Test against completion: rank 1 has a receive posted; rank 0 sends the message while a thread of
 * rank 1 does what {@code MPI_Test} does (progress, then {@code isComplete()}) and, if it reports
 * complete, reads the buffer and the status at once. Reported: (Test said complete, what it saw,
 * complete after the arbiter's progress).
 *
 * <p>Acceptable: {@code 0, 0, 1}, Test ran before the match, and {@code 1, 42, 1}, Test saw the
 * completion and, with it, the data and the status (source 0, count 1). FORBIDDEN: {@code 1, -1, .}
 * (complete, but the data or status not yet visible: the completion flag was published before them)
 * and anything not complete at the end (a lost message).
 */
@Outcome(id = "0, 0, 1", expect = Expect.ACCEPTABLE, desc = "Test ran before the match.")
@Outcome(id = "1, 42, 1", expect = Expect.ACCEPTABLE, desc = "Test saw completion, data and status.")
@Outcome(id = "1, -1, 1", expect = Expect.FORBIDDEN, desc = "Complete, but data or status not visible.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Never completed: the message was lost.")
public abstract class TestVersusCompletion {
    private static final int TAG = 8;

    private final Job job;
    private final int[] buffer = new int[1];
    private final RecvRequest recv;

    TestVersusCompletion(MatchingKind matching) {
        job = Device.job(matching, 2);
        recv = Device.recv(job, 1, 0, TAG, buffer);
    }

    void send() {
        Device.send(job, 0, 1, TAG, 42);
    }

    void test(III_Result r) {
        Device.progress(job, 1);
        if (recv.isComplete()) {
            r.r1 = 1;
            r.r2 = buffer[0] == 42 && recv.statusSource() == 0 && recv.statusCount() == 1 ? 42 : -1;
        }
    }

    void check(III_Result r) {
        Device.progress(job, 1);
        r.r3 = recv.isComplete() ? 1 : 0;
    }

    /** With {@link MatchingKind#LOCKED} mailboxes. */
    @JCStressTest
    @State
    public static class Locked extends TestVersusCompletion {
        public Locked() {
            super(MatchingKind.LOCKED);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void tester(III_Result r) {
            test(r);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }

    /** With {@link MatchingKind#LOCK_FREE} mailboxes. */
    @JCStressTest
    @State
    public static class LockFree extends TestVersusCompletion {
        public LockFree() {
            super(MatchingKind.LOCK_FREE);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void tester(III_Result r) {
            test(r);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }
}
