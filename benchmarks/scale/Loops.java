import mpi.MPI;

/**
 * What benchmarks/scale/loops times on many ranks: a loop of Barrier plus Allreduce of one double
 * (microseconds per iteration), and a ring passing one int from rank to rank (milliseconds for
 * the laps). Arguments: iterations of the loop (default 2000), laps of the ring (default 200).
 * Each part runs once untimed first, to warm up the JIT. Rank 0 prints
 * {@code barrier+allreduce <us> us/iter} and {@code ring <ms> ms}.
 */
public class Loops {
    public static void main(String[] args) {
        MPI.Init(args);
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int laps = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int me = MPI.COMM_WORLD.Rank();
        double loop = 0;
        double ring = 0;
        for (int round = 0; round < 2; round++) {
            loop = barrierAllreduce(iterations);
            ring = ring(laps);
        }
        if (me == 0) {
            System.out.printf("barrier+allreduce %.1f us/iter%nring %.1f ms%n", loop / 1e3 / iterations, ring / 1e6);
        }
        MPI.Finalize();
    }

    /** Nanoseconds of {@code iterations} rounds of Barrier and an Allreduce of one double (checked). */
    private static long barrierAllreduce(int iterations) {
        int n = MPI.COMM_WORLD.Size();
        double[] one = {1};
        double[] sum = new double[1];
        MPI.COMM_WORLD.Barrier();
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
            MPI.COMM_WORLD.Barrier();
            MPI.COMM_WORLD.Allreduce(one, 0, sum, 0, 1, MPI.DOUBLE, MPI.SUM);
        }
        long took = System.nanoTime() - start;
        if (sum[0] != n) {
            throw new AssertionError("Allreduce gave " + sum[0] + ", expected " + n);
        }
        return took;
    }

    /** Nanoseconds for one int to go round the ranks {@code laps} times, one hop after another. */
    private static long ring(int laps) {
        int me = MPI.COMM_WORLD.Rank();
        int n = MPI.COMM_WORLD.Size();
        int[] token = new int[1];
        MPI.COMM_WORLD.Barrier();
        long start = System.nanoTime();
        for (int lap = 0; lap < laps; lap++) {
            if (me == 0) {
                token[0] = lap;
                MPI.COMM_WORLD.Send(token, 0, 1, MPI.INT, 1 % n, 0);
                MPI.COMM_WORLD.Recv(token, 0, 1, MPI.INT, n - 1, 0);
                if (token[0] != lap + n - 1) {
                    throw new AssertionError("the token came back as " + token[0] + " in lap " + lap);
                }
            } else {
                MPI.COMM_WORLD.Recv(token, 0, 1, MPI.INT, me - 1, 0);
                token[0]++;
                MPI.COMM_WORLD.Send(token, 0, 1, MPI.INT, (me + 1) % n, 0);
            }
        }
        return System.nanoTime() - start;
    }
}
