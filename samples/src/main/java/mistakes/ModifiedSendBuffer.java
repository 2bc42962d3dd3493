package mistakes;

import mpi.MPI;
import mpi.Request;

/**
 * Mistake: the send buffer is reused for the next step before the non-blocking send is complete.
 * Here a small message is copied at Isend, so the program seems to work; with a larger message,
 * or under another MPI, the receiver may get the new values. Run it with --check: the buffer is
 * checksummed at Isend and again at Wait, and the change is an MPI_ERR_BUFFER error.
 * Run: ./mpjrun -np 2 --check samples/src/main/java/mistakes/ModifiedSendBuffer.java
 * Fix: Wait before writing the buffer, or send from a copy.
 */
public class ModifiedSendBuffer {
    public static void main(String[] args) {
        MPI.Init(args);
        double[] field = {1.0, 2.0, 3.0};
        if (MPI.COMM_WORLD.Rank() == 0) {
            Request sent = MPI.COMM_WORLD.Isend(field, 0, 3, MPI.DOUBLE, 1, 0);
            field[0] = 10.0; // the next time step, too early
            sent.Wait();
        } else if (MPI.COMM_WORLD.Rank() == 1) {
            MPI.COMM_WORLD.Recv(field, 0, 3, MPI.DOUBLE, 0, 0);
        }
        MPI.Finalize();
    }
}
