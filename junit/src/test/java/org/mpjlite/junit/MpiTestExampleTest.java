package org.mpjlite.junit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Collections;
import java.util.List;
import mpi.MPI;

/** {@link MpiTest} used as a user would: the examples of the module's README, run for real. */
class MpiTestExampleTest {

    @MpiTest(ranks = {1, 2, 3, 4, 7})
    void broadcastReachesEveryRank(MpiContext mpi) {
        int[] value = {mpi.rank() == 0 ? 42 : -1};
        MPI.COMM_WORLD.Bcast(value, 0, 1, MPI.INT, 0);
        List<Integer> seen = mpi.gather(value[0]);
        if (mpi.rank() == 0) {
            assertEquals(Collections.nCopies(mpi.size(), 42), seen);
        }
    }

    @MpiTest(ranks = {2, 3, 4})
    void ringShiftInTheOpenMpiDialect(int rank) throws Exception {
        int size = MPI.COMM_WORLD.getSize();
        int[] in = new int[1];
        MPI.COMM_WORLD.sendRecv(new int[] {rank}, 1, MPI.INT, (rank + 1) % size, 0,
            in, 1, MPI.INT, (rank + size - 1) % size, 0);
        assertArrayEquals(new int[] {(rank + size - 1) % size}, in);
    }
}
