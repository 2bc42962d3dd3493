package mistakes;

import mpi.MPI;

/**
 * Mistake: every rank broadcasts from "its own" root, as if the root were the sender's rank. The
 * root must be the same on every rank: MPI_ERR_ROOT on each, naming two ranks' roots.
 * Run: ./mpjrun -np 3 samples/src/main/java/mistakes/WrongRoot.java
 * Fix: decide on one root (usually 0) and pass it everywhere.
 */
public class WrongRoot {
    public static void main(String[] args) {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.Rank();
        int[] value = {me};
        MPI.COMM_WORLD.Bcast(value, 0, 1, MPI.INT, me);
        MPI.Finalize();
    }
}
