import mpi.MPI;

/** What benchmarks/scale times: Init, a Barrier, one Allreduce (checked), Finalize. */
public class Startup {
    public static void main(String[] args) {
        MPI.Init(args);
        int n = MPI.COMM_WORLD.Size();
        MPI.COMM_WORLD.Barrier();
        long[] sum = new long[1];
        MPI.COMM_WORLD.Allreduce(new long[] {MPI.COMM_WORLD.Rank()}, 0, sum, 0, 1, MPI.LONG, MPI.SUM);
        if (sum[0] != (long) n * (n - 1) / 2) {
            throw new AssertionError("Allreduce gave " + sum[0]);
        }
        MPI.Finalize();
    }
}
