package mistakes;

import mpi.MPI;

/**
 * Mistake: rank 0 waits for a message that rank 1 never sends; rank 1 finishes.
 * Run: ./mpjrun -np 2 samples/src/main/java/mistakes/ForgottenSend.java
 */
public class ForgottenSend {
    public static void main(String[] args) {
        MPI.Init(args);
        if (MPI.COMM_WORLD.Rank() == 0) {
            int[] result = new int[1];
            MPI.COMM_WORLD.Recv(result, 0, 1, MPI.INT, 1, 42);
            System.out.println("result " + result[0]);
        }
        MPI.Finalize();
    }
}
