package mistakes;

import mpi.MPI;

/**
 * Mistake: rank 0 posts a receive for a message nobody sends and a synchronous send nobody
 * receives, and calls Finalize without waiting for either. MPI forbids Finalize with operations
 * pending. By default each rank's Finalize warns about what it leaves behind; with --check every
 * request never completed is listed with its line, and pending ones make Finalize fail.
 * Run: ./mpjrun -np 2 [--check] samples/src/main/java/mistakes/PendingAtFinalize.java
 * Fix: Wait for every request (Waitall), and match every send with a receive.
 */
public class PendingAtFinalize {
    public static void main(String[] args) {
        MPI.Init(args);
        if (MPI.COMM_WORLD.Rank() == 0) {
            MPI.COMM_WORLD.Irecv(new int[1], 0, 1, MPI.INT, 1, 1);
            MPI.COMM_WORLD.Issend(new int[] {42}, 0, 1, MPI.INT, 1, 2);
        }
        MPI.Finalize();
    }
}
