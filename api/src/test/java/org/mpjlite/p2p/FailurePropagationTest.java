package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMentions;
import static org.mpjlite.p2p.Jobs.rank;
import static org.mpjlite.p2p.Jobs.size;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.mpjlite.JobFailedException;
import org.mpjlite.p2p.Jobs.World;

/**
 * An exception in one rank ends the job: ranks blocked in MPI calls are released with an
 * MPIException naming the failed rank, and the caller gets a JobFailedException whose cause is the
 * original exception.
 */
@Timeout(30)
class FailurePropagationTest {
    @Jobs.MultiRanksBothProtocols
    @DisplayName("the last rank throws while the others are blocked in Recv, Wait and Ssend: all are released")
    void blockedRanksAreReleased(World w) {
        IllegalStateException boom = new IllegalStateException("boom from the last rank");
        Map<Integer, Throwable> released = new ConcurrentHashMap<>();
        int failing = w.size() - 1;
        JobFailedException e = assertThrows(JobFailedException.class, () -> w.run(() -> {
            int me = rank();
            if (me == failing) {
                Thread.sleep(100);
                throw boom;
            }
            try {
                switch (me % 3) {
                    case 0 -> MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, MPI.ANY_SOURCE, 1);
                    case 1 -> {
                        Request r = MPI.COMM_WORLD.Irecv(new int[1], 0, 1, MPI.INT, failing, 1);
                        r.Wait();
                    }
                    default -> MPI.COMM_WORLD.Ssend(new int[1], 0, 1, MPI.INT, failing, 1);
                }
            } catch (RuntimeException | Error ex) {
                released.put(me, ex);
                throw ex;
            }
            return null;
        }));
        assertSame(boom, e.getCause(), "the cause is what the failing rank threw");
        assertEquals(failing, e.rank());
        assertNotEquals(0, e.exitCode());
        assertMentions(e.getMessage(), "rank " + failing);
        assertEquals(w.size() - 1, released.size(), () -> "ranks released from their blocked call: " + released.keySet());
        released.forEach((r, ex) -> {
            assertInstanceOf(MPIException.class, ex, () -> "rank " + r + " was released with " + ex);
            assertMentions(ex.getMessage(), "rank " + failing);
        });
    }

    @Jobs.Pairs
    @DisplayName("a checked exception and an MPIException are reported as the cause, with the rank")
    void causeIsTheOriginalException(World w) {
        Exception checked = new java.io.IOException("disk on fire");
        JobFailedException e = assertThrows(JobFailedException.class, () -> w.run(() -> {
            if (rank() == 0) {
                throw checked;
            }
            MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 0, 0);
            return null;
        }));
        assertSame(checked, e.getCause());
        assertEquals(0, e.rank());

        JobFailedException mpiFailure = assertThrows(JobFailedException.class, () -> w.run(() -> {
            if (rank() == 1) {
                MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.INT, size() + 1, 0);
            }
            MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 1, 0);
            return null;
        }));
        assertEquals(1, mpiFailure.rank());
        MPIException cause = (MPIException) mpiFailure.getCause();
        assertEquals(MPI.ERR_RANK, cause.getErrorClass());
        assertTrue(mpiFailure.getMessage().contains("rank 1"), mpiFailure::getMessage);
    }
}
