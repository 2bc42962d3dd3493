package mistakes;

import mpi.MPI;

/**
 * Mistake: rank 1 skips the broadcast and goes on to the barrier; the others broadcast. Collectives
 * must be called by every rank of the communicator, in the same order. Every rank gets an
 * MPI_ERR_NOT_SAME error naming both calls, before any data moves.
 * Run: ./mpjrun -np 3 samples/src/main/java/mistakes/MismatchedCollectives.java
 */
public class MismatchedCollectives {
    public static void main(String[] args) {
        MPI.Init(args);
        int[] params = new int[4];
        if (MPI.COMM_WORLD.Rank() != 1) {
            MPI.COMM_WORLD.Bcast(params, 0, 4, MPI.INT, 0);
        }
        MPI.COMM_WORLD.Barrier();
        MPI.Finalize();
    }
}
