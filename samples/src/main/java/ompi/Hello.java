package ompi;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Hello, world in the Open MPI Java dialect: every rank sends a UTF-8 greeting in a direct
 * ByteBuffer to rank 0, which prints them in rank order.
 *
 * <pre>./mpjrun -np 4 samples/src/main/java/ompi/Hello.java</pre>
 */
public class Hello {
    private static final int TAG = 1;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        String greeting = "Hello from rank " + me + " of " + size + " on " + MPI.getProcessorName();
        if (me == 0) {
            System.out.println(greeting);
            for (int src = 1; src < size; src++) {
                Status probed = MPI.COMM_WORLD.probe(src, TAG);
                int n = probed.getCount(MPI.BYTE);
                ByteBuffer in = MPI.newByteBuffer(n);
                MPI.COMM_WORLD.recv(in, n, MPI.BYTE, src, TAG);
                byte[] bytes = new byte[n];
                in.get(bytes);
                System.out.println(new String(bytes, StandardCharsets.UTF_8));
            }
        } else {
            byte[] bytes = greeting.getBytes(StandardCharsets.UTF_8);
            ByteBuffer out = MPI.newByteBuffer(bytes.length);
            out.put(bytes);
            MPI.COMM_WORLD.send(out, bytes.length, MPI.BYTE, 0, TAG);
        }
        MPI.Finalize();
    }
}
