package mpijava;

import mpi.MPI;
import mpi.Status;

/**
 * Hello, world in the mpiJava 1.2 (MPJ Express) dialect: every rank sends a greeting to rank 0,
 * which prints them in rank order.
 *
 * <pre>./mpjrun -np 4 samples/src/main/java/mpijava/Hello.java</pre>
 */
public class Hello {
    private static final int TAG = 1;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        String greeting = "Hello from rank " + me + " of " + size + " on " + MPI.Get_processor_name();
        if (me == 0) {
            System.out.println(greeting);
            for (int src = 1; src < size; src++) {
                Status probed = MPI.COMM_WORLD.Probe(src, TAG);
                char[] chars = new char[probed.Get_count(MPI.CHAR)];
                MPI.COMM_WORLD.Recv(chars, 0, chars.length, MPI.CHAR, src, TAG);
                System.out.println(new String(chars));
            }
        } else {
            char[] chars = greeting.toCharArray();
            MPI.COMM_WORLD.Send(chars, 0, chars.length, MPI.CHAR, 0, TAG);
        }
        MPI.Finalize();
    }
}
