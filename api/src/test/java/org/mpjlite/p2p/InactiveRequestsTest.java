package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import mpi.MPI;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import org.mpjlite.p2p.Jobs.World;

/**
 * Testany and Waitany over requests none of which is active (null, REQUEST_NULL, already completed,
 * persistent and not started): MPI's flag = true, index = MPI_UNDEFINED and an empty status, in
 * both dialects (mpiJava's Testany/Waitany, Open MPI's testAny/testAnyStatus/waitAny/waitAnyStatus).
 */
class InactiveRequestsTest {
    private static void assertEmptyWithUndefinedIndex(Status s, String call) {
        assertNotNull(s, call + " must report completion (flag true), not null");
        assertEquals(MPI.UNDEFINED, s.getIndex(), call);
        assertEquals(MPI.UNDEFINED, s.index, call);
        assertEquals(MPI.ANY_SOURCE, s.getSource(), call);
        assertEquals(MPI.ANY_TAG, s.getTag(), call);
        assertEquals(0, s.getCount(MPI.INT), call);
    }

    /** Each rank's inactive requests: completed ones (a ring exchange), an idle persistent one, nulls. */
    private static Request[] inactive() {
        int me = Jobs.rank();
        int n = Jobs.size();
        int[] in = new int[1];
        Request r = MPI.COMM_WORLD.Irecv(in, 0, 1, MPI.INT, Jobs.left(), 0);
        Request s = MPI.COMM_WORLD.Isend(new int[] {me}, 0, 1, MPI.INT, Jobs.right(), 0);
        Request.Waitall(new Request[] {r, s});
        assertEquals((me + n - 1) % n, in[0]);
        Prequest idle = MPI.COMM_WORLD.Send_init(new int[1], 0, 1, MPI.INT, Jobs.right(), 1);
        return new Request[] {r, null, MPI.REQUEST_NULL, s, idle};
    }

    @Jobs.AnyRanks
    void mpiJavaTestanyAndWaitanyReportUndefinedWithAnEmptyStatus(World w) {
        w.run(() -> {
            Request[] requests = inactive();
            assertEmptyWithUndefinedIndex(Request.Testany(requests), "Testany");
            assertEmptyWithUndefinedIndex(Request.Waitany(requests), "Waitany");
            assertEmptyWithUndefinedIndex(Request.Testany(new Request[0]), "Testany of none");
            assertEmptyWithUndefinedIndex(Request.Testany(new Request[] {null, null}), "Testany of nulls");
            return null;
        });
    }

    @Jobs.AnyRanks
    void openMpiTestAnyAndWaitAnyReportUndefinedWithAnEmptyStatus(World w) {
        w.run(() -> {
            Request[] requests = inactive();
            assertEquals(MPI.UNDEFINED, Request.testAny(requests));
            assertEmptyWithUndefinedIndex(Request.testAnyStatus(requests), "testAnyStatus");
            assertEquals(MPI.UNDEFINED, Request.waitAny(requests));
            assertEmptyWithUndefinedIndex(Request.waitAnyStatus(requests), "waitAnyStatus");
            Request[] nulls = {MPI.REQUEST_NULL, MPI.REQUEST_NULL};
            assertEmptyWithUndefinedIndex(Request.testAnyStatus(nulls), "testAnyStatus of REQUEST_NULL");
            return null;
        });
    }

    @Jobs.MultiRanks
    void anActiveIncompleteRequestIsNotComplete(World w) {
        w.run(() -> {
            int[] in = new int[1];
            // Nobody sends on tag 9 before every rank has tested (the barrier): the receive is pending.
            Request r = MPI.COMM_WORLD.Irecv(in, 0, 1, MPI.INT, Jobs.left(), 9);
            Request[] requests = {null, r};
            assertNull(Request.Testany(requests));
            assertEquals(MPI.UNDEFINED, Request.testAny(requests));
            assertNull(Request.testAnyStatus(requests));
            MPI.COMM_WORLD.Barrier();
            MPI.COMM_WORLD.Send(new int[] {7}, 0, 1, MPI.INT, Jobs.right(), 9);
            Status s = Request.Waitany(requests);
            assertEquals(1, s.getIndex());
            assertEquals(Jobs.left(), s.getSource());
            assertEquals(7, in[0]);
            return null;
        });
    }
}
