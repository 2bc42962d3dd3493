package mistakes;

import mpi.MPI;

/**
 * Mistake: every rank receives before it sends, so nobody ever sends.
 * Run: ./mpjrun -np 2 samples/src/main/java/mistakes/HeadToHead.java
 * Fix: let one side send first, or use Sendrecv.
 */
public class HeadToHead {
    public static void main(String[] args) {
        MPI.Init(args);
        int other = 1 - MPI.COMM_WORLD.Rank();
        int[] buf = new int[1];
        MPI.COMM_WORLD.Recv(buf, 0, 1, MPI.INT, other, 0);
        MPI.COMM_WORLD.Send(buf, 0, 1, MPI.INT, other, 0);
        MPI.Finalize();
    }
}
