package org.mpjlite.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.User_function;
import org.mpjlite.JobFailedException;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/**
 * Releasing handles and raising errors as Open MPI does: a freed operation is MPI_ERR_OP wherever it
 * is used and a predefined one cannot be freed; a predefined keyval cannot be freed;
 * callErrhandler under ERRORS_RETURN returns (the handler returns) and under ERRORS_ARE_FATAL ends
 * the job; a buffered send without an attached buffer is MPI_ERR_BUFFER naming the call.
 */
class FreeAndRaiseTest {
    private static Op userSum() {
        return new Op(new User_function() {
            @Override
            public void Call(Object in, int inOffset, Object inout, int inoutOffset, int count, mpi.Datatype type) {
                int[] a = (int[]) in;
                int[] b = (int[]) inout;
                for (int i = 0; i < count; i++) {
                    b[inoutOffset + i] += a[inOffset + i];
                }
            }
        }, true);
    }

    @Jobs.AnyRanks
    void aFreedOperationIsAnErrorWhereverItIsUsed(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            Op sum = userSum();
            int[] out = new int[1];
            MPI.COMM_WORLD.Allreduce(new int[] {1}, 0, out, 0, 1, MPI.INT, sum);
            assertEquals(n, out[0]);
            assertFalse(sum.isNull());
            sum.free();
            assertTrue(sum.isNull());
            assertMpiError(MPI.ERR_OP, () -> MPI.COMM_WORLD.Allreduce(new int[] {1}, 0, out, 0, 1, MPI.INT, sum),
                "Allreduce", "freed");
            assertMpiError(MPI.ERR_OP, () -> MPI.COMM_WORLD.reduce(new int[] {1}, out, 1, MPI.INT, sum, 0),
                "reduce", "freed");
            assertMpiError(MPI.ERR_OP, sum::free, "free", "freed");
            Op other = userSum();
            other.Free();
            assertMpiError(MPI.ERR_OP, () -> MPI.COMM_WORLD.Reduce(new int[] {1}, 0, out, 0, 1, MPI.INT, other, 0),
                "Reduce", "freed");
            // Open MPI: MPI_Op_free of a predefined operation is MPI_ERR_OP, and the operation stays usable.
            assertMpiError(MPI.ERR_OP, MPI.SUM::free, "free", "predefined");
            MPI.COMM_WORLD.allReduce(new int[] {2}, out, 1, MPI.INT, MPI.SUM);
            assertEquals(2 * n, out[0]);
            return null;
        });
    }

    @Jobs.AnyRanks
    void predefinedKeyvalsCannotBeFreedAndCallErrhandlerThrowsTheCodeGiven(World w) {
        w.run(() -> {
            assertMpiError(MPI.ERR_KEYVAL, () -> Comm.freeKeyval(MPI.TAG_UB), "freeKeyval", "predefined");
            int key = Comm.createKeyval();
            Comm.freeKeyval(key);
            assertMpiError(MPI.ERR_KEYVAL, () -> Comm.freeKeyval(key), "freeKeyval");
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            MPI.COMM_WORLD.callErrhandler(MPI.ERR_TRUNCATE); // the handler returns, and so does the call
            assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.callErrhandler(-1), "callErrhandler");
            return null;
        });
    }

    @Jobs.AnyRanks
    void callErrhandlerUnderErrorsAreFatalEndsTheJobWithThatError(World w) {
        JobFailedException e = assertThrows(JobFailedException.class, () -> w.run(() -> {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_ARE_FATAL);
            if (MPI.COMM_WORLD.Rank() == w.size() - 1) {
                try {
                    MPI.COMM_WORLD.callErrhandler(MPI.ERR_TAG);
                } catch (MPIException ended) {
                    // The job has ended already; the other ranks are released from the barrier.
                }
            }
            MPI.COMM_WORLD.Barrier();
            return null;
        }));
        assertEquals(w.size() - 1, e.rank());
        assertEquals(MPI.ERR_TAG, assertInstanceOf(MPIException.class, e.getCause()).getErrorClass());
    }

    @Jobs.AnyRanks
    void aBufferedSendWithoutABufferIsAnErrorNamingTheCall(World w) {
        w.run(() -> {
            int[] data = {1, 2, 3};
            int right = (MPI.COMM_WORLD.Rank() + 1) % MPI.COMM_WORLD.Size();
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Ibsend(data, 0, 3, MPI.INT, right, 0).Wait(),
                "Ibsend", "buffer");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Bsend_init(data, 0, 3, MPI.INT, right, 0)
                .Start(), "Bsend_init|Start", "buffer");
            return null;
        });
    }
}
