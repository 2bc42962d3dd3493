package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.TypeMap;
import org.mpjlite.smpdev.p2p.Message;
import org.mpjlite.smpdev.p2p.PointToPoint;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Matched probe against matched probe: rank 0's message has arrived at rank 1 (sent when the state
 * is made; with the lock-free mailbox it still sits in the inbox, so whichever thread comes first
 * drains it); two threads of rank 1 race to take it with a matched probe ({@code MPI_Improbe},
 * {@link PointToPoint#improbe}, {@code ANY_SOURCE}) and receive what they took
 * ({@link PointToPoint#mrecv}). Each actor reports 1 when it took the message and received its
 * data, 0 when it found nothing, -1 when it took something whose data was wrong; the arbiter
 * reports the messages left unexpected.
 *
 * <p>A matched message leaves matching at once, so exactly one thread gets it. FORBIDDEN: both got
 * it (duplicate), neither did (lost), wrong data, or it was left unexpected.
 */
@Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "The first thread took and received it.")
@Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "The second thread took and received it.")
@Outcome(id = "1, 1, .*", expect = Expect.FORBIDDEN, desc = "Duplicated: both threads took it.")
@Outcome(id = "0, 0, .*", expect = Expect.FORBIDDEN, desc = "Lost: neither thread took it.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Wrong data, left unexpected, or another impossible combination.")
public abstract class MatchedProbeOnce {
    private static final int TAG = 6;

    private final Job job;

    MatchedProbeOnce(MatchingKind matching) {
        job = Device.job(matching, 2);
        Device.send(job, 0, 1, TAG, 42);
    }

    /** 1: took the message and received 42; 0: nothing to take; -1: took it but received something else. */
    int takeAndReceive() {
        Message m = PointToPoint.improbe(job.rank(1), Device.CONTEXT, Device.ANY, TAG);
        if (m == null) {
            return 0;
        }
        int[] buffer = new int[1];
        RecvRequest r = PointToPoint.mrecv(job.rank(1), m, buffer, 0, 1, TypeMap.of(BasicType.INT), "Mrecv");
        return r.isComplete() && !r.failed() && buffer[0] == 42 && r.statusSource() == 0 ? 1 : -1;
    }

    void check(III_Result r) {
        r.r3 = Device.unexpected(job, 1);
    }

    /** With {@link MatchingKind#LOCKED} mailboxes. */
    @JCStressTest
    @State
    public static class Locked extends MatchedProbeOnce {
        public Locked() {
            super(MatchingKind.LOCKED);
        }

        @Actor
        public void first(III_Result r) {
            r.r1 = takeAndReceive();
        }

        @Actor
        public void second(III_Result r) {
            r.r2 = takeAndReceive();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }

    /** With {@link MatchingKind#LOCK_FREE} mailboxes. */
    @JCStressTest
    @State
    public static class LockFree extends MatchedProbeOnce {
        public LockFree() {
            super(MatchingKind.LOCK_FREE);
        }

        @Actor
        public void first(III_Result r) {
            r.r1 = takeAndReceive();
        }

        @Actor
        public void second(III_Result r) {
            r.r2 = takeAndReceive();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }
}
