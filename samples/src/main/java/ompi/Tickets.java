package ompi;

import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * One-sided communication: a ticket counter in rank 0's window. Every rank takes TICKETS tickets
 * (default 100) with {@code fetchAndOp(MPI.SUM)} under {@code lockAll}, never involving rank 0's
 * program, then puts how many it took into its slot of rank 0's second window in a fence epoch.
 * Rank 0 prints the counter and checks that every ticket was handed out exactly once: a lost or
 * doubled ticket ends the job with an exception (non-zero exit).
 *
 * <pre>./mpjrun -np 4 samples/src/main/java/ompi/Tickets.java [TICKETS]</pre>
 */
public class Tickets {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int tickets = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        IntBuffer counter = MPI.newIntBuffer(1);
        Win counterWin = new Win(counter, me == 0 ? 1 : 0, 1, null, MPI.COMM_WORLD);
        IntBuffer one = MPI.newIntBuffer(1).put(0, 1);
        IntBuffer ticket = MPI.newIntBuffer(1);
        long sum = 0;
        counterWin.lockAll(0);
        for (int i = 0; i < tickets; i++) {
            counterWin.fetchAndOp(one, ticket, MPI.INT, 0, 0, MPI.SUM);
            sum += ticket.get(0);
        }
        counterWin.unlockAll();
        // Rank 0 collects each rank's sum of ticket numbers in its slots.
        IntBuffer sums = MPI.newIntBuffer(size);
        Win sumsWin = new Win(sums, me == 0 ? size : 0, 1, null, MPI.COMM_WORLD);
        sumsWin.fence(MPI.MODE_NOPRECEDE);
        sumsWin.put(MPI.newIntBuffer(1).put(0, (int) sum), 1, MPI.INT, 0, me, 1, MPI.INT);
        sumsWin.fence(MPI.MODE_NOSUCCEED);
        if (me == 0) {
            long total = 0;
            for (int r = 0; r < size; r++) {
                total += sums.get(r);
            }
            long n = (long) tickets * size;
            System.out.println("Tickets of " + size + " ranks: counter = " + counter.get(0) + " (expected " + n
                + "), sum of tickets = " + total + " (expected " + n * (n - 1) / 2 + ")");
            if (counter.get(0) != n || total != n * (n - 1) / 2) {
                throw new IllegalStateException("a ticket was lost or handed out twice");
            }
        }
        sumsWin.free();
        counterWin.free();
        MPI.Finalize();
    }
}
