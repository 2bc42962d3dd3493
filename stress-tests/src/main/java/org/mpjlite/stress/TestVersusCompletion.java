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
    private final int width;
    private final int[] buffer;
    private final RecvRequest recv;

    TestVersusCompletion(MatchingKind matching, int width) {
        this.width = width;
        job = Device.job(matching, 2);
        buffer = new int[width];
        recv = Device.recv(job, 1, 0, TAG, buffer);
    }

    void send() {
        Device.send(job, 0, 1, TAG, Device.payload(42, width));
    }

    void test(III_Result r) {
        Device.progress(job, 1);
        if (recv.isComplete()) {
            r.r1 = 1;
            r.r2 = buffer[0] == 42 && recv.statusSource() == 0 && recv.statusCount() == width ? 42 : -1;
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
            super(MatchingKind.LOCKED, 1);
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

    /**
     * With {@link MatchingKind#LOCK_FREE} mailboxes: a sender that claims the posted receive leaves
     * its one-int message in the receive line, and the owner completes the receive.
     */
    @JCStressTest
    @State
    public static class LockFree extends TestVersusCompletion {
        public LockFree() {
            super(MatchingKind.LOCK_FREE, 1);
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

    /**
     * With {@link MatchingKind#LOCK_FREE} mailboxes and messages too long for the receive line: a sender
     * that claims the posted receive fills it itself.
     */
    @JCStressTest
    @State
    public static class LockFreeFilled extends TestVersusCompletion {
        public LockFreeFilled() {
            super(MatchingKind.LOCK_FREE, Device.FILLED_WIDTH);
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
