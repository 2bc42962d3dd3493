package org.mpjlite.rma;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.mpjlite.rma.Sizes.rank;
import static org.mpjlite.rma.Sizes.size;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Win;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/** Put and get in fence epochs, over every kind of window memory and with derived datatypes. */
class FenceTest {
    @Sizes.AllSizes
    void sizeAndDisplacementUnitCountElementsOfTheBufferAsInOpenMpi(World w) {
        w.run(() -> {
            int me = rank();
            int n = size();
            // 3 ints, displacement unit 1 int: 12 bytes in steps of 4; as many doubles in steps of 16.
            IntBuffer ints = MPI.newIntBuffer(4);
            Win iw = new Win(ints, 3, 1, null, MPI.COMM_WORLD);
            DoubleBuffer doubles = MPI.newDoubleBuffer(4);
            Win dw = new Win(doubles, 4, 2, null, MPI.COMM_WORLD);
            assertEquals(12, iw.getAttr(MPI.WIN_SIZE)); // an Integer, as Open MPI
            assertEquals(4, iw.getAttr(MPI.WIN_DISP_UNIT));
            assertEquals(32, dw.getAttr(MPI.WIN_SIZE));
            assertEquals(16, dw.getAttr(MPI.WIN_DISP_UNIT));
            int right = (me + 1) % n;
            iw.fence(0);
            dw.fence(0);
            iw.put(MPI.newIntBuffer(1).put(0, me + 1), 1, MPI.INT, right, 2, 1, MPI.INT); // the last int
            dw.put(MPI.newDoubleBuffer(1).put(0, me + 0.5), 1, MPI.DOUBLE, right, 1, 1, MPI.DOUBLE); // double 2
            Jobs.assertMpiError(MPI.ERR_RMA_RANGE,
                () -> iw.put(MPI.newIntBuffer(1), 1, MPI.INT, right, 3, 1, MPI.INT), "put", "outside");
            iw.fence(0);
            dw.fence(0);
            int left = (me + n - 1) % n;
            assertEquals(left + 1, ints.get(2));
            assertEquals(left + 0.5, doubles.get(2));
            Jobs.assertMpiError(MPI.ERR_SIZE, () -> new Win(ints, 5, 1, null, MPI.COMM_WORLD), "Win", "20 bytes");
            // Allocated with an empty CharBuffer (Open MPI's win_allocate test): 5 chars of new memory.
            Win aw = new Win(5, 1, null, MPI.COMM_WORLD, MPI.newCharBuffer(0), Win.FLAVOR_PRIVATE);
            assertEquals(10, aw.getAttr(MPI.WIN_SIZE));
            assertEquals(2, aw.getAttr(MPI.WIN_DISP_UNIT));
            aw.fence(0);
            aw.put(MPI.newCharBuffer(1).put(0, (char) ('a' + me)), 1, MPI.CHAR, right, 4, 1, MPI.CHAR);
            aw.fence(0);
            CharBuffer got = ((ByteBuffer) aw.getAttr(MPI.WIN_BASE)).asCharBuffer();
            assertEquals((char) ('a' + left), got.get(4));
            aw.free();
            iw.free();
            dw.free();
            return null;
        });
    }

    @Sizes.AllSizes
    void putIntoTheRightNeighbourOfARing(World w) {
        w.run(() -> {
            int me = rank();
            int n = size();
            IntBuffer mem = MPI.newIntBuffer(4);
            Win win = new Win(mem, 4, 1, null, MPI.COMM_WORLD);
            IntBuffer out = MPI.newIntBuffer(2);
            out.put(0, 100 * me).put(1, 100 * me + 1);
            win.fence(MPI.MODE_NOPRECEDE);
            win.put(out, 2, MPI.INT, (me + 1) % n, 1, 2, MPI.INT);
            win.fence(MPI.MODE_NOSUCCEED);
            int left = (me + n - 1) % n;
            assertEquals(0, mem.get(0));
            assertEquals(100 * left, mem.get(1));
            assertEquals(100 * left + 1, mem.get(2));
            assertEquals(0, mem.get(3));
            win.free();
            return null;
        });
    }

    @Sizes.AllSizes
    void getFromEveryRankOfAnAllocatedWindow(World w) {
        w.run(() -> {
            int me = rank();
            int n = size();
            Win win = new Win(8, 8, null, MPI.COMM_WORLD, null, Win.FLAVOR_PRIVATE);
            ByteBuffer mine = (ByteBuffer) win.getAttr(MPI.WIN_BASE);
            assertNotNull(mine);
            assertEquals(8, win.getAttr(MPI.WIN_SIZE));
            assertEquals(8, win.getAttr(MPI.WIN_DISP_UNIT));
            mine.putDouble(0, me + 0.5);
            win.fence(0);
            DoubleBuffer all = MPI.newDoubleBuffer(n);
            for (int t = 0; t < n; t++) {
                win.get(MPI.slice(all, t), 1, MPI.DOUBLE, t, 0, 1, MPI.DOUBLE);
            }
            win.fence(0);
            for (int t = 0; t < n; t++) {
                assertEquals(t + 0.5, all.get(t));
            }
            win.free();
            return null;
        });
    }

    @Sizes.AllSizes
    void sharedFlavorOverAGivenBufferAndAHeapByteBufferOfTheOtherByteOrder(World w) {
        w.run(() -> {
            int me = rank();
            int n = size();
            ByteOrder other = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN
                : ByteOrder.BIG_ENDIAN;
            ByteBuffer mem = ByteBuffer.allocate(4 * n).order(other);
            Win win = new Win(4 * n, 4, null, MPI.COMM_WORLD, mem, Win.FLAVOR_SHARED);
            assertSame(mem, win.getAttr(MPI.WIN_BASE));
            win.fence(0);
            IntBuffer v = MPI.newIntBuffer(1).put(0, 7 * me + 1);
            for (int t = 0; t < n; t++) {
                win.put(v, 1, MPI.INT, t, me, 1, MPI.INT);
            }
            win.fence(0);
            for (int s = 0; s < n; s++) {
                assertEquals(7 * s + 1, mem.getInt(4 * s), "slot " + s);
            }
            win.free();
            return null;
        });
    }

    @Sizes.AllSizes
    void vectorsOnOriginAndTarget(World w) {
        w.run(() -> {
            int me = rank();
            int n = size();
            // Target: every third int of 12; origin: every other int of 8 (4 ints each side).
            Datatype every3 = Datatype.createVector(4, 1, 3, MPI.INT);
            every3.commit();
            Datatype every2 = Datatype.createVector(4, 1, 2, MPI.INT);
            every2.commit();
            IntBuffer mem = MPI.newIntBuffer(12);
            Win win = new Win(mem, 12, 1, null, MPI.COMM_WORLD);
            IntBuffer out = MPI.newIntBuffer(8);
            for (int i = 0; i < 8; i++) {
                out.put(i, me * 1000 + i);
            }
            win.fence(0);
            win.put(out, 1, every2, (me + 1) % n, 0, 1, every3);
            win.fence(0);
            int left = (me + n - 1) % n;
            int[] expected = new int[12];
            for (int k = 0; k < 4; k++) {
                expected[3 * k] = left * 1000 + 2 * k;
            }
            int[] got = new int[12];
            mem.get(0, got);
            assertArrayEquals(expected, got);
            // And back: read the right neighbour's every third int into every other int.
            IntBuffer in = MPI.newIntBuffer(8);
            win.get(in, 1, every2, (me + 1) % n, 0, 1, every3);
            win.fence(0);
            for (int k = 0; k < 4; k++) {
                assertEquals(me * 1000 + 2 * k, in.get(2 * k));
                assertEquals(0, in.get(2 * k + 1));
            }
            win.free();
            every2.free();
            every3.free();
            return null;
        });
    }

    @Sizes.AllSizes
    void windowsOnASplitCommunicatorUseItsRanksAndOnCommSelfTheRankAlone(World w) {
        w.run(() -> {
            int me = rank();
            // Odd and even world ranks, each in reverse order: window rank r is not world rank r.
            Intracomm half = MPI.COMM_WORLD.split(me % 2, -me);
            int hr = half.getRank();
            int hn = half.getSize();
            IntBuffer mem = MPI.newIntBuffer(1);
            Win win = new Win(mem, 1, 1, null, half);
            assertEquals(MPI.IDENT, Group.compare(win.getGroup(), half.getGroup()));
            IntBuffer v = MPI.newIntBuffer(1).put(0, me);
            win.fence(0);
            win.put(v, 1, MPI.INT, (hr + 1) % hn, 0, 1, MPI.INT);
            win.fence(0);
            int[] world = Group.translateRanks(half.getGroup(), new int[] {(hr + hn - 1) % hn}, MPI.COMM_WORLD.getGroup());
            assertEquals(world[0], mem.get(0));
            win.free();
            IntBuffer own = MPI.newIntBuffer(1);
            Win self = new Win(own, 1, 1, null, MPI.COMM_SELF);
            self.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
            self.put(v, 1, MPI.INT, 0, 0, 1, MPI.INT);
            self.unlock(0);
            assertEquals(me, own.get(0));
            self.free();
            half.free();
            return null;
        });
    }

    @Sizes.AllSizes
    void intsAtUnalignedBytesOfAByteBufferWindow(World w) {
        w.run(() -> {
            int me = rank();
            int n = size();
            ByteBuffer mem = ByteBuffer.allocate(16).order(ByteOrder.BIG_ENDIAN);
            Win win = new Win(mem, 16, 1, null, MPI.COMM_WORLD);
            IntBuffer v = MPI.newIntBuffer(2).put(0, 0x01020304 + me).put(1, -me);
            win.fence(0);
            win.put(v, 2, MPI.INT, (me + 1) % n, 3, 2, MPI.INT);
            win.fence(0);
            int left = (me + n - 1) % n;
            assertEquals(0x01020304 + left, mem.getInt(3));
            assertEquals(-left, mem.getInt(7));
            IntBuffer back = MPI.newIntBuffer(2);
            win.get(back, 2, MPI.INT, (me + 1) % n, 3, 2, MPI.INT);
            win.fence(MPI.MODE_NOSUCCEED);
            assertEquals(0x01020304 + me, back.get(0));
            assertEquals(-me, back.get(1));
            win.free();
            return null;
        });
    }
}
