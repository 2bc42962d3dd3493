package org.mpjlite.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.io.IoJobs.intsOf;
import static org.mpjlite.io.IoJobs.value;
import static org.mpjlite.io.IoJobs.values;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.nio.IntBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import mpi.File;
import mpi.MPI;
import mpi.Status;
import org.junit.jupiter.api.io.TempDir;
import org.mpjlite.io.IoJobs.IoMultiRanks;
import org.mpjlite.io.IoJobs.IoRanks;
import org.mpjlite.p2p.Jobs.World;

/** The shared file pointer: one counter for all ranks; ordered calls in rank order. */
class SharedPointerTest {
    @TempDir
    Path dir;

    private static final int N = 4;
    private static final int ROUNDS = 5;

    /** Racing writeShared calls never overlap: every block lands exactly once, whole. */
    @IoRanks
    void writeSharedGivesEveryBlockItsOwnPlace(World world) {
        Path file = dir.resolve("shared");
        world.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_CREATE | MPI.MODE_WRONLY);
            f.setView(0, MPI.INT, MPI.INT, "native");
            for (int k = 0; k < ROUNDS; k++) {
                int[] block = values(me, N);
                block[0] = value(me, 100 + k);
                assertEquals(N, f.writeShared(block, N, MPI.INT).getCount(MPI.INT));
            }
            MPI.COMM_WORLD.barrier();
            assertEquals((long) ROUNDS * N * MPI.COMM_WORLD.getSize(), f.getPositionShared());
            f.close();
            return null;
        });
        int[] all = intsOf(file);
        assertEquals(world.size() * ROUNDS * N, all.length);
        BitSet seen = new BitSet();
        for (int b = 0; b < world.size() * ROUNDS; b++) {
            int owner = (all[b * N + 1] - 2) / 1_000;
            int round = all[b * N] - owner * 1_000 - 101;
            assertTrue(round >= 0 && round < ROUNDS, "block " + b + " is whole");
            assertArrayEquals(Arrays.copyOfRange(values(owner, N), 1, N), Arrays.copyOfRange(all, b * N + 1, b * N + N));
            assertTrue(!seen.get(owner * ROUNDS + round), "block written twice");
            seen.set(owner * ROUNDS + round);
        }
        assertEquals(world.size() * ROUNDS, seen.cardinality());
    }

    @IoRanks
    void orderedCallsGoInRankOrderAndAdvanceThePointerPastAll(World world) {
        Path file = dir.resolve("ordered");
        world.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
            f.setView(0, MPI.INT, MPI.INT, "native");
            // Rank r writes r + 1 ints: uneven counts.
            assertEquals(me + 1, f.writeOrdered(values(me, me + 1), me + 1, MPI.INT).getCount(MPI.INT));
            long total = (long) size * (size + 1) / 2;
            assertEquals(total, f.getPositionShared());
            f.writeOrdered(values(size + me, 1), 1, MPI.INT);
            assertEquals(total + size, f.getPositionShared());
            f.seekShared(0, MPI.SEEK_SET);
            assertEquals(0, f.getPositionShared());
            int[] got = new int[me + 1];
            Status s = f.readOrdered(got, me + 1, MPI.INT);
            assertEquals(me + 1, s.getCount(MPI.INT));
            assertArrayEquals(values(me, me + 1), got);
            IntBuffer one = MPI.newIntBuffer(1);
            f.readShared(one, 1, MPI.INT);
            MPI.COMM_WORLD.barrier();
            assertEquals(total + size, f.getPositionShared());
            int[] all = new int[size];
            MPI.COMM_WORLD.allGather(new int[] {one.get(0)}, 1, MPI.INT, all, 1, MPI.INT);
            int[] sorted = all.clone();
            Arrays.sort(sorted);
            for (int r = 0; r < size; r++) {
                assertEquals(value(size + r, 0), sorted[r]);
            }
            // Past the end: a short read, and the pointer still takes what was asked.
            f.seekShared(-1, MPI.SEEK_END);
            int[] tail = new int[3];
            int[] counts = new int[size];
            MPI.COMM_WORLD.allGather(new int[] {f.readOrdered(tail, 3, MPI.INT).getCount(MPI.INT)}, 1, MPI.INT,
                counts, 1, MPI.INT);
            assertEquals(1, counts[0]);
            for (int r = 1; r < size; r++) {
                assertEquals(0, counts[r]);
            }
            assertEquals(total + size - 1 + 3L * size, f.getPositionShared());
            f.close();
            return null;
        });
        int[] all = intsOf(file);
        int size = world.size();
        int at = 0;
        for (int r = 0; r < size; r++) {
            assertArrayEquals(values(r, r + 1), Arrays.copyOfRange(all, at, at + r + 1));
            at += r + 1;
        }
        for (int r = 0; r < size; r++) {
            assertEquals(value(size + r, 0), all[at + r]);
        }
        assertEquals(at + size, all.length);
    }

    @IoRanks
    void appendStartsBothPointersAtTheEndAndSequentialFilesUseTheSharedOne(World world) {
        Path file = dir.resolve("append");
        IoJobs.writeInts(file, new int[] {7, 7});
        world.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_WRONLY | MPI.MODE_APPEND
                | MPI.MODE_SEQUENTIAL);
            assertEquals(8, f.getPositionShared());
            f.writeOrdered(values(me, 1), 1, MPI.INT);
            assertMpiError(MPI.ERR_UNSUPPORTED_OPERATION, () -> f.writeAt(0, new int[1], 1, MPI.INT), "writeAt",
                "SEQUENTIAL");
            assertMpiError(MPI.ERR_UNSUPPORTED_OPERATION, () -> f.write(new int[1], 1, MPI.INT), "write");
            assertMpiError(MPI.ERR_UNSUPPORTED_OPERATION, () -> f.seek(0, MPI.SEEK_SET), "seek");
            assertMpiError(MPI.ERR_UNSUPPORTED_OPERATION, f::getPosition, "getPosition");
            // DISPLACEMENT_CURRENT: the view starts at the shared pointer.
            f.setView(MPI.DISPLACEMENT_CURRENT, MPI.INT, MPI.INT, "native");
            assertEquals(8 + 4L * MPI.COMM_WORLD.getSize(), f.getView().getDisp());
            assertEquals(0, f.getPositionShared());
            f.writeOrdered(values(me, 2), 2, MPI.INT);
            f.close();
            File g = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_RDONLY | MPI.MODE_APPEND);
            assertEquals(g.getSize() , g.getPosition());
            g.close();
            return null;
        });
        int[] all = intsOf(file);
        int size = world.size();
        assertEquals(2 + 3 * size, all.length);
        assertEquals(7, all[0]);
        assertEquals(7, all[1]);
        for (int r = 0; r < size; r++) {
            assertEquals(value(r, 0), all[2 + r]);
            assertArrayEquals(values(r, 2), Arrays.copyOfRange(all, 2 + size + 2 * r, 4 + size + 2 * r));
        }
    }

    @IoMultiRanks
    void seekSharedMustBeTheSameOnEveryRank(World world) {
        Path file = dir.resolve("seek");
        world.run(() -> {
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
            assertMpiError(MPI.ERR_NOT_SAME, () -> f.seekShared(MPI.COMM_WORLD.getRank(), MPI.SEEK_SET),
                "seekShared", "different");
            f.close();
            return null;
        });
    }
}
