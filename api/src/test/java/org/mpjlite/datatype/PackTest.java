package org.mpjlite.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.datatype.RoundTripTest.committed;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import mpi.Datatype;
import mpi.MPI;
import mpi.Status;
import mpjbuf.BufferFactory;
import mpjbuf.PoolStrategy;
import mpjbuf.StorageKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;

/**
 * MPI.PACKED: Pack, Unpack and Pack_size in both dialects (byte arrays, and mpjbuf buffers for MPJ
 * Express), packed data sent and received as PACKED, and the standard's relaxed matching: any
 * message can be received as PACKED, and packed data can be received as the types they hold.
 */
class PackTest {
    private static World world(int size, int eager) {
        return new World(size, MatchingKind.LOCK_FREE, eager);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2})
    void packUnpackRoundTripInBothDialects(int size) {
        world(size, Tunables.DEFAULT_EAGER_THRESHOLD).run(() -> {
            // ints 4, then 0 1 of each item; a double vector after them
            Datatype idx = committed(Datatype.Indexed(new int[] {1, 2}, new int[] {4, 0}, MPI.INT));
            Datatype col = committed(Datatype.Vector(2, 1, 2, MPI.DOUBLE));
            int[] ints = {10, 11, 12, 13, 14, 15};
            double[] doubles = {0.5, -1, 1.5, -1};
            byte[] packed = new byte[MPI.COMM_WORLD.Pack_size(1, idx) + MPI.COMM_WORLD.Pack_size(1, col)];
            int pos = MPI.COMM_WORLD.Pack(ints, 1, 1, idx, packed, 0);
            assertEquals(12, pos);
            pos = MPI.COMM_WORLD.Pack(doubles, 0, 1, col, packed, pos);
            assertEquals(28, pos);
            ByteBuffer view = ByteBuffer.wrap(packed).order(ByteOrder.nativeOrder());
            assertEquals(15, view.getInt(0), "element 4 from offset 1 first");
            assertEquals(11, view.getInt(4));
            assertEquals(12, view.getInt(8));
            assertEquals(1.5, view.getDouble(20));
            int[] outInts = new int[3];
            double[] outDoubles = new double[2];
            int at = MPI.COMM_WORLD.Unpack(packed, 0, outInts, 0, 3, MPI.INT);
            at = MPI.COMM_WORLD.unpack(packed, at, outDoubles, 2, MPI.DOUBLE);
            assertEquals(28, at);
            assertArrayEquals(new int[] {15, 11, 12}, outInts);
            assertArrayEquals(new double[] {0.5, 1.5}, outDoubles);
            // Open MPI names, unpacking through the derived type again
            byte[] p2 = new byte[64];
            int end = MPI.COMM_WORLD.pack(ints, 1, idx, p2, 0);
            int[] back = new int[6];
            assertEquals(end, MPI.COMM_WORLD.unpack(p2, 0, back, 1, idx));
            assertArrayEquals(new int[] {10, 11, 0, 0, 14, 0}, back);
            return null;
        });
    }

    @ParameterizedTest(name = "eager threshold {0}")
    @ValueSource(ints = {Tunables.DEFAULT_EAGER_THRESHOLD, 0})
    void packedDataTravelAsPackedAndMatchTheStandardsRelaxedRules(int eager) {
        world(2, eager).run(() -> {
            Datatype col = committed(Datatype.Vector(3, 1, 2, MPI.INT));
            int[] data = {1, -1, 2, -1, 3, -1};
            if (MPI.COMM_WORLD.Rank() == 0) {
                byte[] packed = new byte[64];
                int pos = MPI.COMM_WORLD.Pack(data, 0, 1, col, packed, 0);
                pos = MPI.COMM_WORLD.Pack(new double[] {2.5}, 0, 1, MPI.DOUBLE, packed, pos);
                MPI.COMM_WORLD.Send(packed, 0, pos, MPI.PACKED, 1, 0);
                MPI.COMM_WORLD.Send(packed, 0, 12, MPI.PACKED, 1, 1); // received as ints
                MPI.COMM_WORLD.Send(data, 0, 1, col, 1, 2); // received as PACKED
            } else {
                byte[] in = new byte[64];
                Status s = MPI.COMM_WORLD.Recv(in, 0, 64, MPI.PACKED, 0, 0);
                assertEquals(20, s.Get_count(MPI.PACKED));
                int[] got = new int[6];
                double[] d = new double[1];
                int pos = MPI.COMM_WORLD.Unpack(in, 0, got, 0, 1, col);
                MPI.COMM_WORLD.Unpack(in, pos, d, 0, 1, MPI.DOUBLE);
                assertArrayEquals(new int[] {1, 0, 2, 0, 3, 0}, got);
                assertEquals(2.5, d[0]);
                int[] asInts = new int[4];
                Status t = MPI.COMM_WORLD.Recv(asInts, 0, 4, MPI.INT, 0, 1);
                assertEquals(3, t.Get_count(MPI.INT));
                assertArrayEquals(new int[] {1, 2, 3, 0}, asInts);
                byte[] raw = new byte[16];
                Status u = MPI.COMM_WORLD.Recv(raw, 0, 16, MPI.PACKED, 0, 2);
                assertEquals(12, u.Get_count(MPI.PACKED));
                int[] unpacked = new int[3];
                MPI.COMM_WORLD.Unpack(raw, 0, unpacked, 0, 3, MPI.INT);
                assertArrayEquals(new int[] {1, 2, 3}, unpacked);
            }
            return null;
        });
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1})
    void mpjExpressPacksIntoAnMpjbufBuffer(int size) {
        world(size, Tunables.DEFAULT_EAGER_THRESHOLD).run(() -> {
            BufferFactory factory = BufferFactory.create(PoolStrategy.UNPOOLED, StorageKind.HEAP);
            Datatype col = committed(Datatype.Vector(2, 1, 3, MPI.LONG));
            int need = MPI.COMM_WORLD.Pack_size(2, col);
            mpjbuf.Buffer b = factory.getBuffer(need + 64);
            long[] longs = {1, 2, 3, 4, 5, 6, 7, 8};
            int pos = MPI.COMM_WORLD.Pack(longs, 0, 2, col, b, 0);
            assertTrue(pos >= 32, "four longs and a header: " + pos);
            pos = MPI.COMM_WORLD.Pack(new Object[] {"x", 42}, 0, 2, MPI.OBJECT, b, pos);
            long[] out = new long[4];
            Object[] objects = new Object[2];
            int at = MPI.COMM_WORLD.Unpack(b, 0, out, 0, 4, MPI.LONG);
            MPI.COMM_WORLD.Unpack(b, at, objects, 0, 2, MPI.OBJECT);
            assertArrayEquals(new long[] {1, 4, 5, 8}, out, "the items of col start at index 0 and at its extent, 4");
            assertArrayEquals(new Object[] {"x", 42}, objects);
            assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Unpack(b, 3, out, 0, 1, MPI.LONG), "Unpack", "position");
            b.free();
            return null;
        });
    }

    /**
     * An Unpack out of an mpjbuf buffer that fails on the data (another type, more elements than the
     * sections hold) reads nothing: a retry at the same position with the right datatype and count
     * reads the data, section by section, as a first correct call would.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1})
    void anUnpackThatFailsOnTheDataReadsNothing(int size) {
        world(size, Tunables.DEFAULT_EAGER_THRESHOLD).run(() -> {
            BufferFactory factory = BufferFactory.create(PoolStrategy.UNPOOLED, StorageKind.HEAP);
            mpjbuf.Buffer b = factory.getBuffer(256);
            Datatype pair = committed(Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.DOUBLE}));
            ByteBuffer onePair = ByteBuffer.allocate(16).order(java.nio.ByteOrder.nativeOrder()).putInt(0, 7)
                .putDouble(8, 2.5);
            int pos = MPI.COMM_WORLD.Pack(new int[] {1, 2, 3}, 0, 3, MPI.INT, b, 0);
            pos = MPI.COMM_WORLD.Pack(onePair.array(), 0, 1, pair, b, pos);
            int end = MPI.COMM_WORLD.Pack(new double[] {4.5}, 0, 1, MPI.DOUBLE, b, pos);
            int[] ints = new int[4];
            // Sections are runs of one type: reading on past one reads the next (3 ints, then the pair's).
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Unpack(b, 0, new double[3], 0, 3, MPI.DOUBLE), "Unpack",
                "does not hold");
            assertEquals(0, b.position());
            int at = MPI.COMM_WORLD.Unpack(b, 0, ints, 0, 3, MPI.INT);
            assertArrayEquals(new int[] {1, 2, 3, 0}, ints);
            // The pair's sections: an int, then a double; read as two ints, the second fails.
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Unpack(b, at, new int[2], 0, 2, MPI.INT), "Unpack",
                "does not hold");
            assertEquals(at, b.position());
            byte[] got = new byte[16];
            int next = MPI.COMM_WORLD.Unpack(b, at, got, 0, 1, pair);
            ByteBuffer g = ByteBuffer.wrap(got).order(java.nio.ByteOrder.nativeOrder());
            assertEquals(7, g.getInt(0));
            assertEquals(2.5, g.getDouble(8));
            double[] d = new double[2];
            assertMpiError(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.Unpack(b, next, d, 0, 2, MPI.DOUBLE), "Unpack",
                "holds less");
            assertEquals(next, b.position());
            assertEquals(end, MPI.COMM_WORLD.Unpack(b, next, d, 0, 1, MPI.DOUBLE));
            assertArrayEquals(new double[] {4.5, 0}, d);
            b.free();
            return null;
        });
    }

    /**
     * A Pack into an mpjbuf buffer too small for it writes nothing: the next Pack goes on at the
     * position the last one returned. A pack that fills the buffer to its last byte fits.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1})
    void aPackThatDoesNotFitAnMpjbufBufferWritesNothing(int size) {
        world(size, Tunables.DEFAULT_EAGER_THRESHOLD).run(() -> {
            BufferFactory factory = BufferFactory.create(PoolStrategy.UNPOOLED, StorageKind.HEAP);
            // int[2]: header and 8 bytes, to byte 16; double[1]: header at 16 and 8 bytes, to byte 32;
            // a struct of an int and a double: int section to 44, double section aligned at 48, to 64.
            Datatype pair = committed(Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.DOUBLE}));
            for (int capacity : new int[] {31, 32, 63, 64}) {
                mpjbuf.Buffer b = factory.getBuffer(capacity);
                int pos = MPI.COMM_WORLD.Pack(new int[] {1, 2}, 0, 2, MPI.INT, b, 0);
                assertEquals(16, pos);
                if (capacity < 32) {
                    int at = pos;
                    assertMpiError(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.Pack(new double[] {3.5}, 0, 1, MPI.DOUBLE, b,
                        at), "Pack", "too small", "nothing was packed");
                    assertEquals(16, b.position());
                    b.free();
                    continue;
                }
                pos = MPI.COMM_WORLD.Pack(new double[] {3.5}, 0, 1, MPI.DOUBLE, b, pos);
                assertEquals(32, pos);
                if (capacity < 64) {
                    int at = pos;
                    assertMpiError(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.Pack(new byte[16], 0, 1, pair, b, at),
                        "Pack", "too small");
                    assertEquals(32, b.position());
                } else {
                    pos = MPI.COMM_WORLD.Pack(new byte[16], 0, 1, pair, b, pos);
                    assertEquals(64, pos);
                }
                int[] ints = new int[2];
                double[] d = new double[1];
                int at = MPI.COMM_WORLD.Unpack(b, 0, ints, 0, 2, MPI.INT);
                MPI.COMM_WORLD.Unpack(b, at, d, 0, 1, MPI.DOUBLE);
                assertArrayEquals(new int[] {1, 2}, ints);
                assertEquals(3.5, d[0]);
                b.free();
            }
            return null;
        });
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1})
    void objectsPackAndPackingErrors(int size) {
        world(size, Tunables.DEFAULT_EAGER_THRESHOLD).run(() -> {
            byte[] packed = new byte[256];
            int pos = MPI.COMM_WORLD.Pack(new Object[] {"a", new int[] {1, 2}, null}, 0, 3, MPI.OBJECT, packed, 0);
            Object[] back = new Object[3];
            assertEquals(pos, MPI.COMM_WORLD.Unpack(packed, 0, back, 0, 3, MPI.OBJECT));
            assertEquals("a", back[0]);
            assertArrayEquals(new int[] {1, 2}, (int[]) back[1]);
            assertEquals(null, back[2]);
            assertMpiError(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.Pack(new int[4], 0, 4, MPI.INT, new byte[15], 0),
                "Pack", "16 packed bytes");
            assertMpiError(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.Pack(new Object[] {"long string"}, 0, 1,
                MPI.OBJECT, new byte[8], 0), "Pack", "too small");
            assertMpiError(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.unpack(new byte[7], 0, new int[2], 2, MPI.INT),
                "unpack", "8 packed bytes");
            assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Pack(new int[4], 0, 1, MPI.INT, new byte[4], 5),
                "Pack", "position 5");
            assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Pack(new Object[] {new Object()}, 0, 1, MPI.OBJECT,
                packed, 0), "Pack", "element 0", "not Serializable");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Pack_size(1, MPI.OBJECT), "Pack_size", "OBJECT");
            assertTrue(MPI.COMM_WORLD.packSize(3, MPI.DOUBLE) >= 24);
            return null;
        });
    }
}
