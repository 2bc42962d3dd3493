package org.mpjlite.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import mpi.File;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Win;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Rank;

/**
 * Freeing communicators, windows and files gives back what their ranks shared: a program that
 * creates and frees them in a loop (split, dup, intercommunicators, windows, files, each used by a
 * collective) holds as many shared objects after a hundred rounds as after one, and every round
 * computes the right results.
 */
class FreeReleasesTest {
    private static final int ROUNDS = 100;

    @Jobs.MultiRanks
    void aLoopOfCreateUseFreeDoesNotGrowTheJob(World w) throws Exception {
        Path file = Files.createTempFile("free-releases", ".bin");
        try {
            List<int[]> counts = w.run(() -> {
                Job job = Rank.current().job();
                round(file);
                int first = settledSharedCount(job);
                for (int i = 1; i < ROUNDS; i++) {
                    round(file);
                }
                return new int[] {first, settledSharedCount(job)};
            });
            for (int[] c : counts) {
                assertEquals(c[0], c[1], "shared objects after 1 round and after " + ROUNDS);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** The job's shared objects while every rank stands between two barriers (nobody creates or frees). */
    private static int settledSharedCount(Job job) {
        MPI.COMM_WORLD.barrier();
        int n = job.sharedCount();
        MPI.COMM_WORLD.barrier();
        return n;
    }

    private static void round(Path file) throws Exception {
        int n = MPI.COMM_WORLD.getSize();
        int me = MPI.COMM_WORLD.getRank();
        int[] sum = new int[1];

        Intracomm half = MPI.COMM_WORLD.split(me % 2, me);
        half.allReduce(new int[] {me}, sum, 1, MPI.INT, MPI.SUM);
        int expected = 0;
        for (int r = me % 2; r < n; r += 2) {
            expected += r;
        }
        assertEquals(expected, sum[0], "allReduce on the split communicator");

        Intracomm dup = MPI.COMM_WORLD.dup();
        dup.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        assertEquals(n, sum[0], "allReduce on the duplicate");
        dup.free();

        Intercomm inter = MPI.COMM_WORLD.createIntercomm(half, 0, me % 2 == 0 ? 1 : 0, 7);
        inter.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        assertEquals(inter.getRemoteSize(), sum[0], "allReduce on the intercommunicator (the remote group's sum)");
        inter.free();
        half.free();

        ByteBuffer memory = MPI.newByteBuffer(8);
        Win win = new Win(memory, 8, 1, MPI.INFO_NULL, MPI.COMM_WORLD);
        win.fence(0);
        ByteBuffer mine = MPI.newByteBuffer(1).put(0, (byte) me);
        win.put(mine, 1, MPI.BYTE, (me + 1) % n, 0, 1, MPI.BYTE);
        win.fence(0);
        assertEquals((byte) ((me + n - 1) % n), memory.get(0), "the byte the left neighbour put");
        win.free();

        File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_RDWR | MPI.MODE_CREATE);
        f.writeAt(me * 4L, new int[] {me}, 1, MPI.INT);
        f.close();
    }
}
