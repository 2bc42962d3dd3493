package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.MatchingKind;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Two threads of one THREAD_MULTIPLE rank call {@code Buffer_attach} at once. MPI allows one
 * attached buffer per process: exactly one attach succeeds, the other fails with
 * {@code MPI_ERR_BUFFER}, and the buffer detach hands back is the winner's.
 *
 * <p>The race this guards against (found and fixed in {@code Rank.attachBuffer}): attach was a
 * check-then-set on a volatile field, so both threads could see no buffer attached and both
 * "succeed"; one buffer was then silently dropped, and its owner's buffered sends were charged
 * against the other's capacity. Attach is now a compare-and-set.
 *
 * <p>Acceptable: {@code 1, 0, 1} and {@code 0, 1, 2} (either thread wins; detach returns its
 * buffer). Forbidden: both attached ({@code 1, 1, _}), neither, or detach returning the loser's.
 */
@Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "Thread 1 attached, thread 2 was refused.")
@Outcome(id = "0, 1, 2", expect = Expect.ACCEPTABLE, desc = "Thread 2 attached, thread 1 was refused.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Both or neither attached, or detach returned the wrong buffer.")
@JCStressTest
@State
public class BufferAttachOnce {
    private static final int CAPACITY = 1024;

    private final Job job;
    private final byte[] first = new byte[CAPACITY];
    private final byte[] second = new byte[CAPACITY];

    public BufferAttachOnce() {
        // The attached buffer is the rank's, not its mailbox's: one matching structure is enough.
        job = Device.job(MatchingKind.LOCK_FREE, 1);
    }

    /** 1 if the attach succeeded, 0 if it was refused. */
    private int attach(byte[] buffer) {
        try {
            job.rank(0).attachBuffer(buffer, CAPACITY, "Buffer_attach");
            return 1;
        } catch (RuntimeException refused) {
            return 0;
        }
    }

    /** Which buffer detach hands back: 1 or 2 (0 for anything else). */
    private int detached() {
        Object b = job.rank(0).detachBuffer("Buffer_detach");
        return b == first ? 1 : b == second ? 2 : 0;
    }

    @Actor
    public void thread1(III_Result r) {
        r.r1 = attach(first);
    }

    @Actor
    public void thread2(III_Result r) {
        r.r2 = attach(second);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = detached();
    }
}
