package org.mpjlite.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.io.IoJobs.intsOf;
import static org.mpjlite.io.IoJobs.value;
import static org.mpjlite.io.IoJobs.values;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import mpi.Datatype;
import mpi.File;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.io.TempDir;
import org.mpjlite.io.IoJobs.IoRanks;
import org.mpjlite.p2p.Jobs.World;

/** Explicit offsets, individual file pointers, sizes, non-blocking calls: contents checked byte for byte. */
class FileAccessTest {
    @TempDir
    Path dir;

    private static final int N = 5;

    @IoRanks
    void eachRankWritesItsBlockAtAnOffsetAndReadsItsNeighbours(World world) {
        Path file = dir.resolve("blocks");
        world.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
            Status w = f.writeAt((long) me * N * 4, values(me, N), N, MPI.INT);
            assertEquals(N, w.getCount(MPI.INT));
            MPI.COMM_WORLD.barrier();
            int next = (me + 1) % size;
            int[] got = new int[N];
            Status r = f.readAt((long) next * N * 4, got, N, MPI.INT);
            assertEquals(N, r.getCount(MPI.INT));
            assertArrayEquals(values(next, N), got);
            assertEquals((long) size * N * 4, f.getSize());
            f.close();
            return null;
        });
        int[] all = intsOf(file);
        assertEquals(world.size() * N, all.length);
        for (int r = 0; r < world.size(); r++) {
            assertArrayEquals(values(r, N), Arrays.copyOfRange(all, r * N, (r + 1) * N));
        }
    }

    @IoRanks
    void collectiveAccessesAtOffsetsAndPointersMoveTheData(World world) {
        Path file = dir.resolve("collective");
        world.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
            f.writeAtAll((long) me * N * 4, values(me, N), N, MPI.INT);
            int[] got = new int[N];
            int other = size - 1 - me;
            assertEquals(N, f.readAtAll((long) other * N * 4, got, N, MPI.INT).getCount(MPI.INT));
            assertArrayEquals(values(other, N), got);
            // Individual pointers, collective: each rank after the others' blocks.
            f.seek((long) (size + me) * N * 4, MPI.SEEK_SET);
            f.writeAll(values(size + me, N), N, MPI.INT);
            assertEquals((long) (size + me + 1) * N * 4, f.getPosition());
            f.seek(-N * 4, MPI.SEEK_CUR);
            Arrays.fill(got, 0);
            f.readAll(got, N, MPI.INT);
            assertArrayEquals(values(size + me, N), got);
            f.close();
            return null;
        });
        int[] all = intsOf(file);
        assertEquals(2 * world.size() * N, all.length);
        for (int r = 0; r < 2 * world.size(); r++) {
            assertArrayEquals(values(r, N), Arrays.copyOfRange(all, r * N, (r + 1) * N));
        }
    }

    @IoRanks
    void theIndividualPointerAdvancesAndSeeksFromEveryOrigin(World world) {
        Path file = dir.resolve("pointer");
        world.run(() -> {
            File f = new File(MPI.COMM_SELF, file.toString() + MPI.COMM_WORLD.getRank(),
                MPI.MODE_CREATE | MPI.MODE_RDWR);
            byte[] data = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
            assertEquals(0, f.getPosition());
            f.write(data, 4, MPI.BYTE);
            assertEquals(4, f.getPosition());
            f.write(Arrays.copyOfRange(data, 4, 10), 6, MPI.BYTE);
            assertEquals(10, f.getPosition());
            f.seek(-3, MPI.SEEK_END);
            byte[] got = new byte[3];
            f.read(got, 3, MPI.BYTE);
            assertArrayEquals(new byte[] {8, 9, 10}, got);
            f.seek(2, MPI.SEEK_SET);
            f.seek(1, MPI.SEEK_CUR);
            assertEquals(3, f.getPosition());
            assertEquals(3, f.getByteOffset(3));
            f.read(got, 3, MPI.BYTE);
            assertArrayEquals(new byte[] {4, 5, 6}, got);
            org.mpjlite.p2p.Jobs.assertMpiError(MPI.ERR_ARG, () -> f.seek(-1, MPI.SEEK_SET), "seek", "before");
            org.mpjlite.p2p.Jobs.assertMpiError(MPI.ERR_ARG, () -> f.seek(0, 12345), "seek", "whence");
            org.mpjlite.p2p.Jobs.assertMpiError(MPI.ERR_ARG, () -> f.readAt(-1, got, 1, MPI.BYTE), "readAt",
                "offset");
            f.close();
            assertArrayEquals(data, IoJobs.bytesOf(Path.of(file.toString() + MPI.COMM_WORLD.getRank())));
            return null;
        });
    }

    @IoRanks
    void readsAtTheEndOfTheFileReturnShortCounts(World world) {
        Path file = dir.resolve("short");
        IoJobs.writeInts(file, new int[] {11, 22, 33});
        try {
            Files.write(file, new byte[] {1, 2}, java.nio.file.StandardOpenOption.APPEND);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        world.run(() -> {
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_RDONLY);
            int[] got = new int[5];
            Status s = f.readAt(4, got, 5, MPI.INT);
            assertEquals(2, s.getCount(MPI.INT));
            assertEquals(2, s.getElements(MPI.INT));
            assertArrayEquals(new int[] {22, 33, 0, 0, 0}, got);
            assertEquals(0, f.readAt(100, got, 5, MPI.INT).getCount(MPI.INT));
            // A pair type cut after its first element: one element, no whole item.
            Datatype pair = Datatype.createContiguous(2, MPI.INT);
            pair.commit();
            int[] pairs = new int[4];
            Status p = f.readAt(0, pairs, 2, pair);
            assertEquals(MPI.UNDEFINED, p.getCount(pair));
            assertEquals(3, p.getElements(pair));
            assertArrayEquals(new int[] {11, 22, 33, 0}, pairs);
            // The pointer advances over what was read.
            f.seek(8, MPI.SEEK_SET);
            assertEquals(1, f.read(got, 5, MPI.INT).getCount(MPI.INT));
            assertEquals(12, f.getPosition());
            byte[] tail = new byte[8];
            assertEquals(2, f.read(tail, 8, MPI.BYTE).getCount(MPI.BYTE));
            assertEquals(14, f.getPosition());
            f.close();
            return null;
        });
    }

    @IoRanks
    void nioBuffersAndDerivedMemoryTypesAreStoredAsTheirElements(World world) {
        Path file = dir.resolve("buffers");
        world.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
            // A strided memory type: every other int of the array goes to the file, one after the other.
            Datatype everyOther = Datatype.createVector(N, 1, 2, MPI.INT);
            everyOther.commit();
            int[] spread = new int[2 * N];
            for (int i = 0; i < N; i++) {
                spread[2 * i] = value(me, i);
                spread[2 * i + 1] = -1;
            }
            long base = (long) me * 3 * N * 4;
            f.writeAt(base, spread, 1, everyOther);
            IntBuffer ints = MPI.newIntBuffer(N);
            for (int i = 0; i < N; i++) {
                ints.put(i, value(me, N + i));
            }
            f.writeAt(base + N * 4, ints, N, MPI.INT);
            ByteBuffer bytes = ByteBuffer.allocate(N * 4).order(ByteOrder.nativeOrder());
            for (int i = 0; i < N; i++) {
                bytes.putInt(i * 4, value(me, 2 * N + i));
            }
            f.writeAt(base + 2 * N * 4, bytes, N * 4, MPI.BYTE);
            int[] back = new int[2 * N];
            f.readAt(base + N * 4, back, 1, everyOther);
            for (int i = 0; i < N; i++) {
                assertEquals(value(me, N + i), back[2 * i]);
                assertEquals(0, back[2 * i + 1]);
            }
            f.close();
            return null;
        });
        int[] all = intsOf(file);
        for (int r = 0; r < world.size(); r++) {
            assertArrayEquals(values(r, 3 * N), Arrays.copyOfRange(all, r * 3 * N, (r + 1) * 3 * N));
        }
    }

    @IoRanks
    void nonBlockingCallsReturnCompletedRequestsWithTheirStatus(World world) {
        Path file = dir.resolve("nonblocking");
        world.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
            IntBuffer mine = MPI.newIntBuffer(N).put(values(me, N));
            Request w = f.iWriteAt((long) me * N * 4, mine, N, MPI.INT);
            assertEquals(N, w.waitStatus().getCount(MPI.INT));
            Request wa = f.iWriteAtAll((long) (size + me) * N * 4, mine, N, MPI.INT);
            assertTrue(wa.test());
            IntBuffer got = MPI.newIntBuffer(N);
            Request r = f.iReadAt((long) ((me + 1) % size) * N * 4, got, N, MPI.INT);
            assertEquals(N, r.waitStatus().getCount(MPI.INT));
            assertEquals(value((me + 1) % size, 0), got.get(0));
            IntBuffer got2 = MPI.newIntBuffer(N);
            assertEquals(N, f.iReadAtAll((long) (size + me) * N * 4, got2, N, MPI.INT).waitStatus().getCount(MPI.INT));
            assertEquals(value(me, N - 1), got2.get(N - 1));
            f.seek((long) (2 * size + me) * N * 4, MPI.SEEK_SET);
            f.iWrite(mine, N, MPI.INT).waitFor();
            f.seek((long) (3 * size + me) * N * 4, MPI.SEEK_SET);
            f.iWriteAll(mine, N, MPI.INT).waitFor();
            f.seek((long) (2 * size + me) * N * 4, MPI.SEEK_SET);
            IntBuffer got3 = MPI.newIntBuffer(2 * N);
            Status s = f.iRead(got3, N, MPI.INT).waitStatus();
            assertEquals(N, s.getCount(MPI.INT));
            f.seek((long) (3 * size + me) * N * 4, MPI.SEEK_SET);
            assertEquals(N, f.iReadAll(MPI.slice(got3, N), N, MPI.INT).waitStatus().getCount(MPI.INT));
            for (int i = 0; i < N; i++) {
                assertEquals(value(me, i), got3.get(i));
                assertEquals(value(me, i), got3.get(N + i));
            }
            IntBuffer a = MPI.newIntBuffer(1);
            IntBuffer b = MPI.newIntBuffer(1);
            Status[] both = Request.waitAllStatus(new Request[] {f.iReadAt((long) me * N * 4, a, 1, MPI.INT),
                f.iReadShared(b, 1, MPI.INT)});
            assertEquals(1, both[0].getCount(MPI.INT));
            assertEquals(1, both[1].getCount(MPI.INT));
            assertEquals(value(me, 0), a.get(0));
            f.close();
            return null;
        });
        int[] all = intsOf(file);
        assertEquals(4 * world.size() * N, all.length);
        for (int k = 0; k < 4; k++) {
            for (int r = 0; r < world.size(); r++) {
                int from = (k * world.size() + r) * N;
                assertArrayEquals(values(r, N), Arrays.copyOfRange(all, from, from + N));
            }
        }
    }

    @IoRanks
    void setSizePreallocateAndSyncChangeTheFileForEveryRank(World world) {
        Path file = dir.resolve("sized");
        world.run(() -> {
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
            f.setSize(100);
            assertEquals(100, f.getSize());
            f.preallocate(50);
            assertEquals(100, f.getSize());
            f.preallocate(120);
            assertEquals(120, f.getSize());
            if (MPI.COMM_WORLD.getRank() == 0) {
                f.writeAt(0, new byte[] {9, 9, 9}, 3, MPI.BYTE);
            }
            f.sync();
            byte[] got = new byte[4];
            f.readAt(0, got, 4, MPI.BYTE);
            assertArrayEquals(new byte[] {9, 9, 9, 0}, got);
            f.setSize(2);
            assertEquals(2, f.getSize());
            f.close();
            return null;
        });
        assertArrayEquals(new byte[] {9, 9}, IoJobs.bytesOf(file));
        assertFalse(Files.isDirectory(file));
    }
}
