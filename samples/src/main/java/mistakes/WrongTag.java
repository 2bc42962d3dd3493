package mistakes;

import mpi.MPI;

/**
 * Mistake: the receive asks for tag 1, the message was sent with tag 2. The report lists the
 * message that is waiting and matches no receive.
 * Run: ./mpjrun -np 2 samples/src/main/java/mistakes/WrongTag.java
 */
public class WrongTag {
    public static void main(String[] args) {
        MPI.Init(args);
        int[] value = {7};
        if (MPI.COMM_WORLD.Rank() == 1) {
            MPI.COMM_WORLD.Send(value, 0, 1, MPI.INT, 0, 2);
        } else {
            MPI.COMM_WORLD.Recv(value, 0, 1, MPI.INT, 1, 1);
        }
        MPI.Finalize();
    }
}
