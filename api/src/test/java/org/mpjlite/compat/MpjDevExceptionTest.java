package org.mpjlite.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.MPI;
import mpi.MPIException;
import mpjdev.*;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/**
 * MPJ Express programs that {@code import mpjdev.*} (as several of its own tests do) compile, and
 * those that catch {@code mpjdev.MPJDevException} catch MPI errors, as in MPJ Express, where
 * {@code MPIException} extends it.
 */
class MpjDevExceptionTest {
    @Jobs.AnyRanks
    void anMpiErrorIsAnMpjDevException(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            String message = null;
            try {
                MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.INT, n, 0);
            } catch (MPJDevException e) {
                assertTrue(e instanceof MPIException, e.getClass().getName());
                assertEquals(MPI.ERR_RANK, ((MPIException) e).getErrorClass());
                message = e.getMessage();
            }
            assertTrue(message != null && message.contains("Send"), String.valueOf(message));
            return null;
        });
    }
}
