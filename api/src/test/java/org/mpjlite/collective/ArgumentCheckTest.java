package org.mpjlite.collective;

import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.nio.ByteBuffer;
import mpi.MPI;
import org.junit.jupiter.api.Test;

/**
 * Collectives check their arguments before they start: every rank makes the same mistake here, so
 * none waits for the others. Each error names the call and the argument.
 */
class ArgumentCheckTest {
    @Test
    void argumentsAreChecked() {
        Worlds.of(3).run(() -> {
            int[] b = new int[4];
            assertMpiError(MPI.ERR_ROOT, () -> MPI.COMM_WORLD.Bcast(b, 0, 1, MPI.INT, 3), "Bcast", "root 3");
            assertMpiError(MPI.ERR_ROOT, () -> MPI.COMM_WORLD.reduce(b, b, 1, MPI.INT, MPI.SUM, -1), "reduce", "root");
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.bcast(b, -1, MPI.INT, 0), "bcast", "count");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Bcast(b, 2, 3, MPI.INT, 0), "Bcast", "buffer");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.allGather(b, 2, MPI.INT, b, 2, MPI.INT),
                "allGather", "receive buffer");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Allreduce(null, 0, b, 0, 1, MPI.INT, MPI.SUM),
                "Allreduce", "send buffer");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.allReduce(b, 1, MPI.DOUBLE, MPI.SUM), "allReduce",
                "MPI.DOUBLE");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.allReduce(b, b, 1, null, MPI.SUM), "allReduce",
                "datatype");
            assertMpiError(MPI.ERR_OP, () -> MPI.COMM_WORLD.allReduce(b, 1, MPI.INT, MPI.MAXLOC), "allReduce",
                "MAXLOC", "MPI.INT");
            assertMpiError(MPI.ERR_OP, () -> MPI.COMM_WORLD.allReduce(new boolean[1], 1, MPI.BOOLEAN, MPI.SUM),
                "SUM", "BOOLEAN");
            assertMpiError(MPI.ERR_OP, () -> MPI.COMM_WORLD.allReduce(new double[1], 1, MPI.DOUBLE, MPI.BXOR),
                "BXOR");
            assertMpiError(MPI.ERR_OP, () -> MPI.COMM_WORLD.allReduce(b, 1, MPI.INT2, MPI.SUM), "SUM", "INT2");
            assertMpiError(MPI.ERR_OP, () -> MPI.COMM_WORLD.allReduce(b, 1, MPI.INT, null), "allReduce",
                "operation");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.allReduce(b, 3, MPI.INT2, MPI.MAXLOC), "INT2");
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.allGatherv(b, 1, MPI.INT, b, new int[] {1, 1},
                new int[] {0, 1, 2}, MPI.INT), "allGatherv", "recvcounts");
            assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.allGatherv(b, 1, MPI.INT, b, new int[] {1, 1, 1},
                new int[] {0, -1, 2}, MPI.INT), "allGatherv", "displs[1]");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.allGatherv(b, 1, MPI.INT, b, new int[] {1, 1, 1},
                new int[] {0, 1, 4}, MPI.INT), "allGatherv", "block 2");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.allToAll(b, 1, MPI.INT, new long[3], 1, MPI.LONG),
                "allToAll", "datatype");
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.allToAll(b, 1, MPI.INT, new int[6], 2, MPI.INT),
                "allToAll", "count");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.iAllReduce(ByteBuffer.allocate(4).asReadOnlyBuffer(),
                1, MPI.INT, MPI.SUM), "iAllReduce", "read-only");
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.reduceScatterBlock(b, b, -2, MPI.INT, MPI.SUM),
                "reduceScatterBlock", "count");
            // The communicator still works after all those errors.
            int[] x = {1};
            MPI.COMM_WORLD.allReduce(x, 1, MPI.INT, MPI.SUM);
            org.junit.jupiter.api.Assertions.assertEquals(3, x[0]);
            return null;
        });
    }

    /** Arguments significant only at the root are checked there (one rank, so nobody else waits). */
    @Test
    void rootArgumentsAreCheckedAtTheRoot() {
        Worlds.of(1).run(() -> {
            int[] b = new int[4];
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.Gatherv(b, 0, 1, MPI.INT, b, 0,
                new int[] {-1}, new int[] {0}, MPI.INT, 0), "Gatherv", "recvcounts[0]");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Scatterv(b, 0, new int[] {2}, new int[] {3}, MPI.INT,
                b, 0, 2, MPI.INT, 0), "Scatterv", "send buffer");
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.Gather(b, 0, 1, MPI.INT, b, 0, 2, MPI.INT, 0),
                "Gather", "count");
            return null;
        });
    }
}
