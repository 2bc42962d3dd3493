package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.RequestGroup;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A request group (the one request of a neighbourhood collective) against the completion of one of
 * its parts: rank 1 has two receives posted; one thread of rank 1 adds both to a group and seals it
 * while rank 0 sends the first one's message (matched on the sender's thread with the locked
 * mailbox; with the lock-free one the sending actor then lets rank 1 progress, as another thread of
 * rank 1 would). The arbiter reports whether the group is complete while its second part is not
 * (it must not be), then completes the second part and reports whether the group is complete (it
 * must be).
 *
 * <p>Acceptable: {@code 0, 1}. FORBIDDEN: {@code 1, .*}, the racing part counted twice (the group
 * completed with a part pending); {@code 0, 0}, the racing part never counted (the group never
 * completes: a lost wake-up of every wait on it).
 */
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "Each part counted once; complete after both.")
@Outcome(id = "1, .*", expect = Expect.FORBIDDEN, desc = "Counted twice: complete with a part pending.")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "Never counted: the group never completes.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Another impossible combination.")
public abstract class GroupCountsOnce {
    private static final int FIRST = 1;
    private static final int SECOND = 2;

    private final Job job;
    private final RecvRequest first;
    private final RecvRequest second;
    private final RequestGroup group;

    GroupCountsOnce(MatchingKind matching) {
        job = Device.job(matching, 2);
        first = Device.recv(job, 1, 0, FIRST, new int[1]);
        second = Device.recv(job, 1, 0, SECOND, new int[1]);
        group = new RequestGroup(job.rank(1));
    }

    void send() {
        Device.send(job, 0, 1, FIRST, 42);
        Device.progress(job, 1);
    }

    void gather() {
        group.add(first);
        group.add(second);
        group.seal();
    }

    void check(II_Result r) {
        Device.progress(job, 1);
        r.r1 = group.isComplete() ? 1 : 0;
        Device.send(job, 0, 1, SECOND, 43);
        Device.progress(job, 1);
        r.r2 = group.isComplete() ? 1 : 0;
    }

    /** With {@link MatchingKind#LOCKED} mailboxes. */
    @JCStressTest
    @State
    public static class Locked extends GroupCountsOnce {
        public Locked() {
            super(MatchingKind.LOCKED);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void owner() {
            gather();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            check(r);
        }
    }

    /** With {@link MatchingKind#LOCK_FREE} mailboxes. */
    @JCStressTest
    @State
    public static class LockFree extends GroupCountsOnce {
        public LockFree() {
            super(MatchingKind.LOCK_FREE);
        }

        @Actor
        public void sender() {
            send();
        }

        @Actor
        public void owner() {
            gather();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            check(r);
        }
    }
}
