package mistakes;

import mpi.MPI;

/**
 * Mistake: the receive buffer holds 4 ints, the message has 10. MPI calls that an error
 * (MPI_ERR_TRUNCATE); the exception names both sizes and ends the job.
 * Run: ./mpjrun -np 2 samples/src/main/java/mistakes/Truncation.java
 */
public class Truncation {
    public static void main(String[] args) {
        MPI.Init(args);
        if (MPI.COMM_WORLD.Rank() == 0) {
            MPI.COMM_WORLD.Send(new int[10], 0, 10, MPI.INT, 1, 0);
        } else {
            MPI.COMM_WORLD.Recv(new int[4], 0, 4, MPI.INT, 0, 0);
        }
        MPI.Finalize();
    }
}
