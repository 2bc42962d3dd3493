package org.mpjlite.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import org.junit.jupiter.api.Test;
import org.mpjlite.JobFailedException;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.smpdev.DeadlockException;

/**
 * Deadlock reports on derived communicators and intercommunicators: the communicator is named as
 * it was made, and the wait-for cycle follows the ranks of that communicator to world ranks.
 */
class CommDeadlockReportTest {
    private static String deadlockReport(int ranks, org.mpjlite.RankProgram<Object> program) {
        JobFailedException e = assertThrows(JobFailedException.class, () -> Jobs.options().ranks(ranks).run(program));
        assertEquals(DeadlockException.EXIT_CODE, e.exitCode(), e.getMessage());
        return e.getMessage();
    }

    @Test
    void aRingOfReceivesOnAReversedSplitNamesItAndMapsTheCycle() {
        String report = deadlockReport(3, () -> {
            MPI.Init(new String[0]);
            int me = MPI.COMM_WORLD.Rank();
            // Rank order reversed: rank h of the split is world rank 2 - h.
            Intracomm reversed = MPI.COMM_WORLD.Split(1, -me);
            reversed.Recv(new int[1], 0, 1, MPI.INT, (reversed.Rank() + 1) % 3, 5);
            return null;
        });
        assertTrue(report.contains("rank 0: Recv(source=0, tag=5, comm=MPI.COMM_WORLD.Split(color=1)"), report);
        // World 0 is split rank 2 and waits for split rank 0 = world 2, which waits for world 1...
        assertTrue(report.contains("cycle: rank 0 -> rank 2 -> rank 1 -> rank 0"), report);
    }

    @Test
    void receivesOnAnIntercommunicatorMapRemoteRanks() {
        String report = deadlockReport(4, () -> {
            MPI.Init(new String[0]);
            int me = MPI.COMM_WORLD.Rank();
            Intracomm local = MPI.COMM_WORLD.Split(me % 2, me);
            Intercomm ic = MPI.COMM_WORLD.Create_intercomm(local, 0, 1 - me % 2, 9);
            ic.setName("pairs");
            // Local rank l waits for remote rank 1 - l: world 0 for world 3, 3 for 0, 1 for 2, 2 for 1.
            ic.Recv(new int[1], 0, 1, MPI.INT, 1 - ic.Rank(), 6);
            return null;
        });
        assertTrue(report.contains("rank 0: Recv(source=1, tag=6, comm=pairs (MPI.COMM_WORLD.Split(color=0)"
            + ".Create_intercomm(remote leader 1))"), report);
        assertTrue(report.contains("rank 1: Recv(source=1, tag=6, comm=pairs (MPI.COMM_WORLD.Split(color=1)"
            + ".Create_intercomm(remote leader 0))"), report);
        assertTrue(report.contains("cycle: rank 0 -> rank 3 -> rank 0"), report);
    }

    @Test
    void synchronousSendsNameDestinationsByTheirRankInTheCommunicator() {
        String report = deadlockReport(3, () -> {
            MPI.Init(new String[0]);
            int me = MPI.COMM_WORLD.Rank();
            Intracomm reversed = MPI.COMM_WORLD.Split(1, -me);
            // Every rank sends to the next split rank first: nobody receives.
            reversed.Ssend(new int[1], 0, 1, MPI.INT, (reversed.Rank() + 1) % 3, 4);
            return null;
        });
        // World 0 is split rank 2; its next is split rank 0, world rank 2.
        assertTrue(report.contains("rank 0: Ssend(dest=0, tag=4, comm=MPI.COMM_WORLD.Split(color=1)"), report);
        assertTrue(report.contains("rank 2: Ssend(dest=1, tag=4, comm=MPI.COMM_WORLD.Split(color=1)"), report);
    }

    @Test
    void sendsOnAnIntercommunicatorNameTheRemoteRank() {
        String report = deadlockReport(4, () -> {
            MPI.Init(new String[0]);
            int me = MPI.COMM_WORLD.Rank();
            Intracomm local = MPI.COMM_WORLD.Split(me % 2, me);
            Intercomm ic = MPI.COMM_WORLD.Create_intercomm(local, 0, 1 - me % 2, 9);
            ic.Ssend(new int[1], 0, 1, MPI.INT, 1 - ic.Rank(), 6);
            return null;
        });
        // World 0 (local rank 0 of the even group) sends to remote rank 1, world 3.
        assertTrue(report.contains("rank 0: Ssend(dest=1, tag=6,"), report);
        assertTrue(report.contains("rank 3: Ssend(dest=0, tag=6,"), report);
    }
}
