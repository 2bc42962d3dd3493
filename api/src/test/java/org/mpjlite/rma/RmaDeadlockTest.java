package org.mpjlite.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.MPI;
import mpi.Win;
import org.junit.jupiter.api.Test;
import org.mpjlite.JobFailedException;
import org.mpjlite.RankProgram;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.smpdev.DeadlockException;

/** Window waits that can never end: the job ends with the deadlock report naming them. */
class RmaDeadlockTest {
    private static String deadlockReport(int ranks, RankProgram<Object> program) {
        JobFailedException e = assertThrows(JobFailedException.class, () -> Jobs.options().ranks(ranks).run(program));
        assertEquals(DeadlockException.EXIT_CODE, e.exitCode(), e.getMessage());
        return e.getMessage();
    }

    @Test
    void aLockNeverReleased() {
        String report = deadlockReport(3, () -> {
            MPI.Init(new String[0]);
            Win win = new Win(MPI.newIntBuffer(1), 1, 1, null, MPI.COMM_WORLD);
            if (MPI.COMM_WORLD.getRank() == 0) {
                win.lock(MPI.LOCK_EXCLUSIVE, 1, 0);
                MPI.COMM_WORLD.barrier();
                MPI.COMM_WORLD.barrier();
            } else {
                MPI.COMM_WORLD.barrier();
                win.lock(MPI.LOCK_SHARED, 1, 0);
            }
            return null;
        });
        assertTrue(report.contains("rank 1: Win.lock(MPI.LOCK_SHARED, rank=1)"), report);
        assertTrue(report.contains("rank 2: Win.lock(MPI.LOCK_SHARED, rank=1)"), report);
    }

    @Test
    void aStartWhoseTargetNeverPosts() {
        String report = deadlockReport(2, () -> {
            MPI.Init(new String[0]);
            Win win = new Win(MPI.newIntBuffer(1), 1, 1, null, MPI.COMM_WORLD);
            if (MPI.COMM_WORLD.getRank() == 0) {
                win.start(win.getGroup().incl(new int[] {1}), 0);
            } else {
                MPI.COMM_WORLD.barrier();
            }
            return null;
        });
        assertTrue(report.contains("rank 0: Win.start(targets=[1])"), report);
    }

    @Test
    void aWaitForACompleteThatNeverComes() {
        String report = deadlockReport(2, () -> {
            MPI.Init(new String[0]);
            Win win = new Win(MPI.newIntBuffer(1), 1, 1, null, MPI.COMM_WORLD);
            if (MPI.COMM_WORLD.getRank() == 0) {
                win.post(win.getGroup().incl(new int[] {1}), 0);
                win.waitFor();
            } else {
                MPI.COMM_WORLD.barrier();
            }
            return null;
        });
        assertTrue(report.contains("rank 0: Win.waitFor(origins=[1])"), report);
    }
}
