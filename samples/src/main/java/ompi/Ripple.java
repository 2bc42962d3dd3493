package ompi;

import mpi.CartComm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Request;
import mpi.Status;

/**
 * A ripple along a ring of cells (default 60 cells, 40 steps), cut into blocks over a periodic 1-D
 * Cartesian grid of ranks: each step every cell becomes the sum of its two neighbours (modulo a
 * prime, so the numbers stay small and exact). Each step a rank trades its edge cells with the ranks
 * before and after it in one neighbourhood collective (neighborAllToAll: block 0 goes back, block 1
 * forward, and what comes back lands in the same order). At the end every rank sends its block to
 * rank 0, which takes them in whatever order they come with a matched probe (mProbe sizes the
 * buffer from the status, mRecv receives exactly that message) and checks the ring against the
 * same steps computed alone: a mismatch ends the job with an exception (non-zero exit). Open MPI
 * Java dialect.
 *
 * <pre>./mpjrun -np 4 samples/src/main/java/ompi/Ripple.java [CELLS [STEPS]]</pre>
 */
public class Ripple {
    private static final int PRIME = 1_000_003;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        int size = MPI.COMM_WORLD.getSize();
        if (n < size) {
            throw new IllegalArgumentException("the ring (" + n + " cells) has fewer cells than ranks (" + size + ")");
        }
        CartComm ring = MPI.COMM_WORLD.createCart(new int[] {size}, new boolean[] {true}, false);
        int rank = ring.getRank();
        int first = rank * n / size;
        int count = (rank + 1) * n / size - first;

        // The block with one halo cell at each end: cell i of the block at i + 1.
        int[] cells = new int[count + 2];
        int[] next = new int[count + 2];
        for (int i = 0; i < count; i++) {
            cells[i + 1] = seed(first + i);
        }
        int[] edges = new int[2];
        int[] halo = new int[2];
        for (int s = 0; s < steps; s++) {
            edges[0] = cells[1];
            edges[1] = cells[count];
            ring.neighborAllToAll(edges, 1, MPI.INT, halo, 1, MPI.INT);
            cells[0] = halo[0];
            cells[count + 1] = halo[1];
            for (int i = 1; i <= count; i++) {
                next[i] = (cells[i - 1] + cells[i + 1]) % PRIME;
            }
            int[] t = cells;
            cells = next;
            next = t;
        }

        int[] block = new int[count + 1];
        block[0] = first;
        System.arraycopy(cells, 1, block, 1, count);
        Request sent = MPI.COMM_WORLD.iSend(block, block.length, MPI.INT, 0, 0);
        if (rank == 0) {
            int[] all = new int[n];
            for (int r = 0; r < size; r++) {
                Message m = new Message();
                Status st = m.mProbe(MPI.ANY_SOURCE, 0, MPI.COMM_WORLD);
                int[] got = new int[st.getCount(MPI.INT)];
                m.mRecv(got, got.length, MPI.INT);
                System.arraycopy(got, 1, all, got[0], got.length - 1);
            }
            int[] expected = alone(n, steps);
            long sum = 0;
            long want = 0;
            for (int i = 0; i < n; i++) {
                if (all[i] != expected[i]) {
                    throw new IllegalStateException("cell " + i + " is " + all[i] + ", computed alone " + expected[i]);
                }
                sum += all[i];
                want += expected[i];
            }
            System.out.println("Ripple: " + n + " cells on " + size + (size == 1 ? " rank, " : " ranks, ") + steps
                + " steps: sum " + sum + " (expected " + want + ")");
        }
        sent.waitFor();
        MPI.Finalize();
    }

    private static int seed(int i) {
        return i % 7 == 0 ? 1 : 0;
    }

    /** The whole ring after {@code steps} steps, computed by one rank. */
    private static int[] alone(int n, int steps) {
        int[] c = new int[n];
        for (int i = 0; i < n; i++) {
            c[i] = seed(i);
        }
        for (int s = 0; s < steps; s++) {
            int[] d = new int[n];
            for (int i = 0; i < n; i++) {
                d[i] = (c[(i + n - 1) % n] + c[(i + 1) % n]) % PRIME;
            }
            c = d;
        }
        return c;
    }
}
