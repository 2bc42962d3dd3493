package org.mpjlite.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import mpi.MPI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.JobFailedException;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.smpdev.DeadlockException;

/**
 * A deadlock report names, for a rank blocked in a collective, the call's arguments and the ranks of
 * the communicator it waits for: those that have not called it.
 */
class CollectiveDeadlockReportTest {
    /** Ranks 0 and 1 reduce; the others wait for a message nobody sends. */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {3, 4, 5, 8})
    void anAllreduceNamesTheRanksThatHaveNotCalledIt(int ranks) {
        JobFailedException e = assertThrows(JobFailedException.class, () -> Worlds.of(ranks).run(() -> {
            int[] in = {1};
            int[] out = new int[1];
            if (MPI.COMM_WORLD.Rank() < 2) {
                MPI.COMM_WORLD.Allreduce(in, 0, out, 0, 1, MPI.INT, MPI.SUM);
            } else {
                MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, 0, 9);
            }
            return 0;
        }));
        assertEquals(DeadlockException.EXIT_CODE, e.exitCode(), e.getMessage());
        String late = ranks == 3 ? "rank 2" : ranks == 4 ? "ranks 2, 3" : "ranks 2-" + (ranks - 1);
        String waits = "Allreduce(count=1, MPI.INT, MPI.SUM; waiting for " + late + " of the communicator)";
        Jobs.assertMentions(e.getMessage(), "rank 0: " + waits, "rank 1: " + waits,
            "rank 2: Recv(source=0, tag=9, comm=MPI.COMM_WORLD", "cycle: rank 0 -> rank 2 -> rank 0");
    }

    /** Every even rank receives instead: the report lists the first eight it waits for and counts them all. */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {20, 21})
    void aLongListOfLateRanksIsCut(int ranks) {
        JobFailedException e = assertThrows(JobFailedException.class, () -> Worlds.of(ranks).run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            if (me % 2 == 1) {
                MPI.COMM_WORLD.Barrier();
            } else {
                MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, (me + 1) % ranks, 4);
            }
            return 0;
        }));
        assertEquals(DeadlockException.EXIT_CODE, e.exitCode(), e.getMessage());
        Jobs.assertMentions(e.getMessage(), "rank 1: Barrier(waiting for ranks 0, 2, 4, 6, 8, 10, 12, 14 of the"
            + " communicator and more, " + (ranks + 1) / 2 + " in all)", "rank 0: Recv(source=1, tag=4");
    }

    /** After a first Bcast, the root receives instead of calling the second: the others wait for the root alone. */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 7})
    void aBcastThatLeavesEarlyWaitsForTheRootAlone(int ranks) {
        JobFailedException e = assertThrows(JobFailedException.class, () -> Worlds.of(ranks).run(() -> {
            int[] b = new int[2];
            MPI.COMM_WORLD.Bcast(b, 0, 2, MPI.INT, 0);
            if (MPI.COMM_WORLD.Rank() == 0) {
                MPI.COMM_WORLD.Recv(b, 0, 1, MPI.INT, 1, 3);
            } else {
                MPI.COMM_WORLD.Bcast(b, 0, 2, MPI.INT, 0);
            }
            return 0;
        }));
        assertEquals(DeadlockException.EXIT_CODE, e.exitCode(), e.getMessage());
        Jobs.assertMentions(e.getMessage(), "rank 0: Recv(source=1, tag=3",
            "rank 1: Bcast(root=0, count=2, MPI.INT; waiting for rank 0 of the communicator)",
            "rank " + (ranks - 1) + ": Bcast(root=0, count=2, MPI.INT; waiting for rank 0 of the communicator)",
            "cycle: rank 0 -> rank 1 -> rank 0");
    }

    /**
     * Collectives of MPI.OBJECT move serialized bytes through byte collectives: the report shows the
     * call as the program made it (its count of objects, MPI.OBJECT), not the lengths and bytes.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 5})
    void anObjectCollectiveShowsTheProgramsCountAndDatatype(int ranks) {
        JobFailedException e = assertThrows(JobFailedException.class, () -> Worlds.of(ranks).run(() -> {
            Object[] mine = {"x", "y"};
            Object[] all = new Object[2 * ranks];
            if (MPI.COMM_WORLD.Rank() == 0) {
                MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 1, 5);
            } else {
                MPI.COMM_WORLD.Gather(mine, 0, 2, MPI.OBJECT, all, 0, 2, MPI.OBJECT, 0);
            }
            return 0;
        }));
        assertEquals(DeadlockException.EXIT_CODE, e.exitCode(), e.getMessage());
        Jobs.assertMentions(e.getMessage(), "rank 0: Recv(source=1, tag=5",
            "rank 1: Gather(root=0, count=2, MPI.OBJECT; waiting for rank 0 of the communicator)");
        assertFalse(e.getMessage().contains("Gather(root=0, count=1, MPI.INT"), e.getMessage()); // the lengths' gather
    }
}
