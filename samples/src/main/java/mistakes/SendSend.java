package mistakes;

import mpi.MPI;

/**
 * Mistake: both ranks send before they receive. It works while the message is small enough to be
 * buffered (MPI allows that, it does not promise it) and deadlocks once it is not: with a large
 * message, or with --sync-sends, which buffers nothing.
 * Run: ./mpjrun -np 2 samples/src/main/java/mistakes/SendSend.java 1000000
 *      ./mpjrun -np 2 --sync-sends samples/src/main/java/mistakes/SendSend.java
 * Fix: Sendrecv, or Isend/Irecv then Waitall.
 */
public class SendSend {
    public static void main(String[] args) {
        args = MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int other = 1 - MPI.COMM_WORLD.Rank();
        double[] out = new double[n];
        double[] in = new double[n];
        MPI.COMM_WORLD.Send(out, 0, n, MPI.DOUBLE, other, 0);
        MPI.COMM_WORLD.Recv(in, 0, n, MPI.DOUBLE, other, 0);
        MPI.Finalize();
    }
}
