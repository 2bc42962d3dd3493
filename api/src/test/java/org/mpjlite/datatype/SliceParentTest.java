package org.mpjlite.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.Datatype;
import mpi.MPI;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/**
 * A slice made by {@code MPI.slice} remembers its parent: a datatype with a negative stride reaches
 * the parent's elements before the slice, as Open MPI's address arithmetic does; only leaving the
 * parent is ERR_BUFFER.
 */
class SliceParentTest {
    private static final int N = 96;

    /** Bytes 1..96 in a direct buffer. */
    private static ByteBuffer direct() {
        ByteBuffer b = MPI.newByteBuffer(N);
        for (int i = 0; i < N; i++) {
            b.put(i, (byte) (i + 1));
        }
        return b;
    }

    /** 2 items of vector(12, 1, -2, SHORT) from byte 48: pairs 49,50 45,46 ... 5,6 then 95,96 ... 51,52. */
    private static byte[] expectedPack() {
        byte[] p = new byte[48];
        for (int item = 0; item < 2; item++) {
            for (int block = 0; block < 12; block++) {
                int at = 48 + item * 46 - 4 * block; // extent 46: lb -44, ub 2
                p[item * 24 + 2 * block] = (byte) (at + 1);
                p[item * 24 + 2 * block + 1] = (byte) (at + 2);
            }
        }
        return p;
    }

    @Jobs.AnyRanks
    void packAndUnpackReachBeforeADirectOrHeapSlice(World w) {
        w.run(() -> {
            Datatype back = Datatype.createVector(12, 1, -2, MPI.SHORT);
            back.commit();
            assertEquals(-44, back.getLb());
            assertEquals(46, back.getExtent());
            byte[] packed = new byte[48];
            // Direct: the program's case (Open MPI's datatype/bakstr).
            ByteBuffer src = direct();
            assertEquals(48, MPI.COMM_WORLD.pack(MPI.slice(src, 48), 2, back, packed, 0));
            assertArrayEquals(expectedPack(), packed);
            ByteBuffer dst = MPI.newByteBuffer(N);
            MPI.COMM_WORLD.unpack(packed, 0, MPI.slice(dst, 48), 2, back);
            byte[] expected = new byte[N];
            for (int item = 0; item < 2; item++) {
                for (int block = 0; block < 12; block++) {
                    int at = 48 + item * 46 - 4 * block;
                    expected[at] = src.get(at);
                    expected[at + 1] = src.get(at + 1);
                }
            }
            byte[] unpacked = new byte[N];
            dst.get(0, unpacked);
            assertArrayEquals(expected, unpacked);
            // Heap, sliced from an array, and a slice of a slice.
            byte[] array = new byte[N];
            src.get(0, array);
            byte[] again = new byte[48];
            MPI.COMM_WORLD.pack(MPI.slice(array, 48), 2, back, again, 0);
            assertArrayEquals(expectedPack(), again);
            MPI.COMM_WORLD.pack(MPI.slice(MPI.slice(src, 8), 40), 2, back, again, 0);
            assertArrayEquals(expectedPack(), again);
            // mpiJava's Pack with a slice.
            byte[] mpiJava = new byte[48];
            MPI.COMM_WORLD.Pack(MPI.slice(src, 48), 0, 2, back, mpiJava, 0);
            assertArrayEquals(expectedPack(), mpiJava);
            // Leaving the parent is an error; so is a slice whose parent is unknown.
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.pack(MPI.slice(src, 40), 2, back, packed, 0),
                "pack", "before the start");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.pack(src.slice(48, 48), 2, back, packed, 0),
                "pack", "before the start");
            back.free();
            return null;
        });
    }

    @Jobs.AnyRanks
    void sendAndReceiveReachBeforeASlice(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            int right = (me + 1) % size;
            int left = (me + size - 1) % size;
            Datatype back = Datatype.createVector(4, 1, -3, MPI.INT); // ints 0, -3, -6, -9 of the slice
            back.commit();
            IntBuffer out = MPI.newIntBuffer(20);
            for (int i = 0; i < 20; i++) {
                out.put(i, me * 100 + i);
            }
            int[] in = new int[4];
            MPI.COMM_WORLD.sendRecv(MPI.slice(out, 10), 1, back, right, 0, in, 4, MPI.INT, left, 0);
            assertArrayEquals(new int[] {left * 100 + 10, left * 100 + 7, left * 100 + 4, left * 100 + 1}, in);
            // Receive through the type into a slice of an array (Open MPI), and mpiJava's Sendrecv.
            int[] got = new int[20];
            MPI.COMM_WORLD.sendRecv(new int[] {me, me + 1, me + 2, me + 3}, 4, MPI.INT, right, 1,
                MPI.slice(got, 9), 1, back, left, 1);
            assertArrayEquals(new int[] {left + 3, 0, 0, left + 2, 0, 0, left + 1, 0, 0, left},
                Arrays.copyOf(got, 10));
            int[] typed = new int[4];
            MPI.COMM_WORLD.Sendrecv(MPI.slice(out, 10), 0, 1, back, right, 2, typed, 0, 4, MPI.INT, left, 2);
            assertArrayEquals(in, typed);
            back.free();
            return null;
        });
    }
}
