package ompi;

import java.nio.file.Path;
import mpi.Datatype;
import mpi.File;
import mpi.MPI;
import mpi.MPIException;

/**
 * MPI-IO with a file view, Open MPI Java dialect: every rank writes BLOCKS blocks of 4 ints into
 * one file, block b of the file belonging to rank b % size (a resized contiguous filetype, tiled
 * from the rank's first block), with one collective writeAll. Then every rank reads the whole file
 * back through the default view and checks every block's owner. Rank 0 prints the outcome and the
 * program's name from MPI.INFO_ENV; a wrong block ends the job with an exception. The file is
 * deleted on close.
 *
 * <pre>./mpjrun -np 4 samples/src/main/java/ompi/BlockIo.java [BLOCKS] [FILE]</pre>
 */
public class BlockIo {
    private static final int BLOCK = 4;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        String name = args.length > 1 ? args[1]
            : Path.of(System.getProperty("java.io.tmpdir"), "blockio-" + ProcessHandle.current().pid()).toString();
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        File f = new File(MPI.COMM_WORLD, name, MPI.MODE_CREATE | MPI.MODE_RDWR | MPI.MODE_DELETE_ON_CLOSE);
        Datatype mine = Datatype.createResized(Datatype.createContiguous(BLOCK, MPI.INT), 0, size * BLOCK * 4);
        mine.commit();
        f.setView((long) me * BLOCK * 4, MPI.INT, mine, "native");
        int[] data = new int[blocks * BLOCK];
        for (int i = 0; i < data.length; i++) {
            data[i] = me * 1_000_000 + i;
        }
        f.writeAll(data, data.length, MPI.INT);
        f.setView(0, MPI.INT, MPI.INT, "native");
        int[] all = new int[size * blocks * BLOCK];
        int read = f.readAtAll(0, all, all.length, MPI.INT).getCount(MPI.INT);
        for (int i = 0; i < all.length; i++) {
            int block = i / BLOCK;
            int expected = (block % size) * 1_000_000 + (block / size) * BLOCK + i % BLOCK;
            if (all[i] != expected) {
                throw new IllegalStateException("int " + i + " of the file is " + all[i] + ", expected " + expected);
            }
        }
        long bytes = f.getSize();
        f.close();
        if (me == 0) {
            System.out.println("BlockIo (" + MPI.INFO_ENV.get("command") + "): " + size + " ranks wrote "
                + blocks + " blocks of " + BLOCK + " ints each, interleaved; read back " + read + " ints ("
                + bytes + " bytes): every block in place");
        }
        MPI.Finalize();
    }
}
