package org.mpjlite.stress;

import java.nio.IntBuffer;
import mpi.MPI;
import mpi.Win;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.wait.WaitMode;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * One-sided updates of one target's memory from two ranks at once ({@code mpi.Win}), each actor a
 * rank of a fresh job (bound to the actor thread, then {@code MPI.Init}): either by
 * {@code accumulate(MPI.SUM)}, which MPI makes atomic per element with respect to other accumulates,
 * or by a plain get, increment and put under an exclusive lock, which excludes every other lock of
 * the target. Each rank adds 1, {@link #ROUNDS} times, then both meet in a barrier and report the
 * target's value.
 *
 * <p>Only {@code 2 * ROUNDS} on both ranks is acceptable; anything less is a lost update: the
 * accumulates were not atomic, or two ranks held the exclusive lock at once: FORBIDDEN.
 */
@Outcome(id = "40, 40", expect = Expect.ACCEPTABLE, desc = "No update was lost.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A lost update: accumulates not atomic, or the exclusive lock shared.")
public abstract class WindowAtomicity {
    static final int ROUNDS = 20;

    private final Job job;

    WindowAtomicity() {
        job = Job.create(JobConfig.builder().ranks(2).matching(MatchingKind.LOCK_FREE).waitMode(WaitMode.PARK).build());
    }

    int run(int rank, boolean accumulate) {
        job.rank(rank).bindToCurrentThread();
        MPI.Init(new String[0]);
        IntBuffer memory = MPI.newIntBuffer(1);
        Win win = new Win(memory, 1, 1, null, MPI.COMM_WORLD); // sizes in elements, as Open MPI
        IntBuffer v = MPI.newIntBuffer(1).put(0, 1);
        for (int i = 0; i < ROUNDS; i++) {
            if (accumulate) {
                win.lock(MPI.LOCK_SHARED, 0, 0);
                win.accumulate(v, 1, MPI.INT, 0, 0, 1, MPI.INT, MPI.SUM);
            } else {
                win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
                win.get(v, 1, MPI.INT, 0, 0, 1, MPI.INT);
                v.put(0, v.get(0) + 1);
                win.put(v, 1, MPI.INT, 0, 0, 1, MPI.INT);
            }
            win.unlock(0);
        }
        MPI.COMM_WORLD.barrier();
        win.lock(MPI.LOCK_SHARED, 0, 0);
        win.get(v, 1, MPI.INT, 0, 0, 1, MPI.INT);
        win.unlock(0);
        win.free();
        MPI.Finalize();
        return v.get(0);
    }

    /** Accumulates under shared locks. */
    @JCStressTest
    @State
    public static class Accumulate extends WindowAtomicity {
        @Actor
        public void rank0(II_Result r) {
            r.r1 = run(0, true);
        }

        @Actor
        public void rank1(II_Result r) {
            r.r2 = run(1, true);
        }
    }

    /** Get, increment, put under an exclusive lock. */
    @JCStressTest
    @State
    public static class ExclusiveLock extends WindowAtomicity {
        @Actor
        public void rank0(II_Result r) {
            r.r1 = run(0, false);
        }

        @Actor
        public void rank1(II_Result r) {
            r.r2 = run(1, false);
        }
    }
}
