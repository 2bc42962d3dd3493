package org.mpjlite.stress;

import org.mpjlite.matching.Mailbox;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.p2p.Message;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Probe against receive: rank 0's message has arrived at rank 1 (sent when the state is made; with
 * the lock-free mailbox it still sits in the inbox, so whichever thread comes first drains it); two
 * threads of rank 1 race for it, one posting a receive, the other probing ({@code Iprobe}) and then
 * taking what the probe showed ({@code Improbe}-style matched probe: {@link Mailbox#take}). The
 * arbiter reports (probe saw it, take got it, receive got it, messages left unexpected).
 *
 * <p>A probe only looks; the message goes to exactly one of take and receive. Acceptable:
 * {@code 0, 0, 1} (the receive won before the probe), {@code 1, 0, 1} (seen, then the receive won),
 * {@code 1, 1, 0} (seen and taken). FORBIDDEN: take and receive both got it (duplicate), neither did
 * (lost), the probe missed a message that had arrived and was still there for the take ({@code 0, 1,
 * 0}), or it was left unexpected although a receive was posted.
 */
@Outcome(id = "0, 0, 1, 0", expect = Expect.ACCEPTABLE, desc = "The receive got it before the probe.")
@Outcome(id = "1, 0, 1, 0", expect = Expect.ACCEPTABLE, desc = "Probe saw it; the receive got it first.")
@Outcome(id = "1, 1, 0, 0", expect = Expect.ACCEPTABLE, desc = "Probe saw it; the matched probe took it.")
@Outcome(id = "0, 1, 0, 0", expect = Expect.FORBIDDEN, desc = "Probe missed an arrived message the take found.")
@Outcome(id = ".*, 1, 1, .*", expect = Expect.FORBIDDEN, desc = "Duplicated: taken and received.")
@Outcome(id = ".*, 0, 0, .*", expect = Expect.FORBIDDEN, desc = "Lost: neither taken nor received.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Left unexpected, or another impossible combination.")
public abstract class ProbeVersusReceive {
    private static final int TAG = 4;

    private final Job job;
    private final int[] buffer = new int[1];
    private RecvRequest recv;
    private int probed;
    private int taken;

    ProbeVersusReceive(MatchingKind matching) {
        job = Device.job(matching, 2);
        Device.send(job, 0, 1, TAG, 42);
    }

    void receive() {
        recv = Device.recv(job, 1, 0, TAG, buffer);
    }

    void probeThenTake() {
        Mailbox<Message, RecvRequest> box = job.rank(1).endpoint().mailbox();
        probed = box.probe(Device.CONTEXT, 0, TAG) != null ? 1 : 0;
        taken = box.take(Device.CONTEXT, 0, TAG) != null ? 1 : 0;
    }

    void check(IIII_Result r) {
        Device.progress(job, 1);
        r.r1 = probed;
        r.r2 = taken;
        r.r3 = recv.isComplete() && buffer[0] == 42 ? 1 : 0;
        r.r4 = Device.unexpected(job, 1);
    }

    /** With {@link MatchingKind#LOCKED} mailboxes. */
    @JCStressTest
    @State
    public static class Locked extends ProbeVersusReceive {
        public Locked() {
            super(MatchingKind.LOCKED);
        }

        @Actor
        public void receiver() {
            receive();
        }

        @Actor
        public void prober() {
            probeThenTake();
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }

    /** With {@link MatchingKind#LOCK_FREE} mailboxes. */
    @JCStressTest
    @State
    public static class LockFree extends ProbeVersusReceive {
        public LockFree() {
            super(MatchingKind.LOCK_FREE);
        }

        @Actor
        public void receiver() {
            receive();
        }

        @Actor
        public void prober() {
            probeThenTake();
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            check(r);
        }
    }
}
