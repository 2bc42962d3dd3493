package org.mpjlite.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mpjlite.io.IoJobs.intsOf;
import static org.mpjlite.io.IoJobs.value;
import static org.mpjlite.io.IoJobs.values;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.nio.file.Path;
import java.util.Arrays;
import mpi.Datatype;
import mpi.File;
import mpi.MPI;
import org.junit.jupiter.api.io.TempDir;
import org.mpjlite.io.IoJobs.IoMultiRanks;
import org.mpjlite.io.IoJobs.IoRanks;
import org.mpjlite.p2p.Jobs.World;

/** Split collectives (one active per handle) and atomic mode (overlapping accesses do not tear). */
class SplitAndAtomicityTest {
    @TempDir
    Path dir;

    private static final int N = 6;

    @IoRanks
    void splitCollectivesMoveTheDataAndEndWithTheirStatus(World world) {
        Path file = dir.resolve("split");
        world.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
            f.setView(0, MPI.INT, MPI.INT, "native");
            int[] mine = values(me, N);
            f.writeAtAllBegin((long) me * N, mine, N, MPI.INT);
            assertEquals(N, f.writeAtAllEnd(mine).getCount(MPI.INT));
            int[] got = new int[N];
            int other = (me + 1) % size;
            f.readAtAllBegin((long) other * N, got, N, MPI.INT);
            assertEquals(N, f.readAtAllEnd(got).getCount(MPI.INT));
            assertArrayEquals(values(other, N), got);
            f.seek((long) (size + me) * N, MPI.SEEK_SET);
            f.writeAllBegin(mine, N, MPI.INT);
            assertEquals(N, f.writeAllEnd(mine).getCount(MPI.INT));
            f.seek((long) (size + other) * N, MPI.SEEK_SET);
            int[] got2 = new int[N];
            f.readAllBegin(got2, N, MPI.INT);
            assertEquals(N, f.readAllEnd(got2).getCount(MPI.INT));
            assertArrayEquals(values(other, N), got2);
            f.seekShared(2L * size * N, MPI.SEEK_SET);
            int[] one = {value(me, 0)};
            f.writeOrderedBegin(one, 1, MPI.INT);
            assertEquals(1, f.writeOrderedEnd(one).getCount(MPI.INT));
            f.seekShared(2L * size * N, MPI.SEEK_SET);
            int[] back = new int[1];
            f.readOrderedBegin(back, 1, MPI.INT);
            assertEquals(1, f.readOrderedEnd(back).getCount(MPI.INT));
            assertEquals(value(me, 0), back[0]);
            f.close();
            return null;
        });
        int[] all = intsOf(file);
        int size = world.size();
        assertEquals(2 * size * N + size, all.length);
        for (int r = 0; r < size; r++) {
            assertArrayEquals(values(r, N), Arrays.copyOfRange(all, r * N, r * N + N));
            assertArrayEquals(values(r, N), Arrays.copyOfRange(all, (size + r) * N, (size + r) * N + N));
            assertEquals(value(r, 0), all[2 * size * N + r]);
        }
    }

    @IoRanks
    void onlyOneSplitCollectiveMayBeActive(World world) {
        Path file = dir.resolve("onesplit");
        world.run(() -> {
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
            byte[] a = {1};
            byte[] b = {2};
            assertMpiError(MPI.ERR_REQUEST, () -> f.writeAllEnd(a), "writeAllEnd", "no split");
            f.writeAtAllBegin(MPI.COMM_WORLD.getRank(), a, 1, MPI.BYTE);
            assertMpiError(MPI.ERR_REQUEST, () -> f.readAtAllBegin(0, b, 1, MPI.BYTE), "readAtAllBegin",
                "writeAtAllEnd");
            assertMpiError(MPI.ERR_REQUEST, () -> f.writeAll(b, 1, MPI.BYTE), "writeAll", "split");
            assertMpiError(MPI.ERR_REQUEST, () -> f.readAtAllEnd(a), "readAtAllEnd", "writeAtAllEnd");
            assertMpiError(MPI.ERR_BUFFER, () -> f.writeAtAllEnd(b), "writeAtAllEnd", "buffer");
            assertMpiError(MPI.ERR_REQUEST, f::close, "close");
            assertEquals(1, f.writeAtAllEnd(a).getCount(MPI.BYTE));
            f.close();
            return null;
        });
        byte[] expected = new byte[world.size()];
        Arrays.fill(expected, (byte) 1);
        assertArrayEquals(expected, IoJobs.bytesOf(file));
    }

    private static final int COUNT = 64;
    private static final int ROUNDS = 200;

    /**
     * In atomic mode a read through a non-contiguous view (one piece per int) sees one whole write,
     * never parts of two; concurrent overlapping writes leave one rank's data whole.
     */
    @IoMultiRanks
    void atomicModeMakesOverlappingAccessesSequentiallyConsistent(World world) {
        Path file = dir.resolve("atomic");
        world.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
            f.setAtomicity(true);
            Datatype spaced = Datatype.createResized(MPI.INT, 0, 8);
            spaced.commit();
            f.setView(0, MPI.INT, spaced, "native");
            int[] data = new int[COUNT];
            int[] got = new int[COUNT];
            for (int k = 0; k < ROUNDS; k++) {
                if (me == 0) {
                    Arrays.fill(data, k + 1);
                    f.writeAt(0, data, COUNT, MPI.INT);
                } else {
                    f.readAt(0, got, COUNT, MPI.INT);
                    for (int i = 1; i < COUNT; i++) {
                        assertEquals(got[0], got[i], "read " + k + " saw two writes");
                    }
                }
            }
            MPI.COMM_WORLD.barrier();
            Arrays.fill(data, value(me, 0));
            for (int k = 0; k < ROUNDS / 4; k++) {
                f.writeAt(0, data, COUNT, MPI.INT);
            }
            MPI.COMM_WORLD.barrier();
            f.readAt(0, got, COUNT, MPI.INT);
            for (int i = 1; i < COUNT; i++) {
                assertEquals(got[0], got[i], "the last writes interleaved");
            }
            f.close();
            return null;
        });
        int[] all = intsOf(file);
        assertEquals(2 * COUNT - 1, all.length);
        for (int i = 0; i < COUNT; i++) {
            if (2 * i + 1 < all.length) {
                assertEquals(0, all[2 * i + 1], "the holes stay empty");
            }
            assertEquals(all[0], all[2 * i]);
        }
    }
}
