package mistakes;

import mpi.MPI;

/**
 * Mistake: an int[] buffer described as MPI.DOUBLE. Caught at the call (MPI_ERR_TYPE).
 * Run: ./mpjrun -np 2 samples/src/main/java/mistakes/WrongDatatype.java
 */
public class WrongDatatype {
    public static void main(String[] args) {
        MPI.Init(args);
        int[] data = new int[8];
        if (MPI.COMM_WORLD.Rank() == 0) {
            MPI.COMM_WORLD.Send(data, 0, 8, MPI.DOUBLE, 1, 0);
        } else {
            MPI.COMM_WORLD.Recv(data, 0, 8, MPI.INT, 0, 0);
        }
        MPI.Finalize();
    }
}
