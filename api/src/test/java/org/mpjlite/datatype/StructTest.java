package org.mpjlite.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.stream.Stream;
import mpi.Datatype;
import mpi.DoubleInt;
import mpi.FloatInt;
import mpi.Int2;
import mpi.LongInt;
import mpi.MPI;
import mpi.Op;
import mpi.ShortInt;
import mpi.Status;
import mpi.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;

/**
 * Open MPI's {@link Struct} helpers: a user struct with mixed, nested and array fields laid out by
 * C's alignment rules and moved by send/recv in ByteBuffers and byte[]; the predefined pair structs
 * ({@code MPI.int2}...) filled through their views and reduced with MAXLOC and MINLOC against a
 * sequential reference; the errors.
 */
class StructTest {
    /** {@code short kind; double x, y;}: offsets 0, 8, 16, alignment 8, extent 24. */
    static final class Point extends Struct {
        final int kind = addShort();
        final int x = addDouble();
        final int y = addDouble();

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            short kind() {
                return getShort(kind);
            }

            double x() {
                return getDouble(x);
            }

            double y() {
                return getDouble(y);
            }

            void put(short k, double px, double py) {
                putShort(kind, k);
                putDouble(x, px);
                putDouble(y, py);
            }
        }
    }

    /**
     * {@code int id; double weight; char tag; Point point; int counts[3]; byte flag;}: C puts them at
     * 0, 8 (aligned to 8), 16, 24 (Point's alignment is 8), 48, 60, and rounds the end, 61, up to
     * the struct's alignment 8: extent 64. The holes (4..8, 18..24, 61..64) are not part of the type.
     */
    static final class Mixed extends Struct {
        final Point pointType;
        final int id = addInt();
        final int weight = addDouble();
        final int tag = addChar();
        final int point;
        final int counts;
        final int flag;

        Mixed(Point pointType) {
            this.pointType = pointType;
            point = addStruct(pointType);
            counts = addInt(3);
            flag = addByte();
        }

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            void fill(int seed) {
                putInt(id, seed);
                putDouble(weight, seed * 0.5 - 3);
                putChar(tag, (char) ('A' + seed % 26));
                Point.Data p = getData(pointType, point);
                p.put((short) -seed, seed * 1.25, -seed / 8.0);
                for (int i = 0; i < 3; i++) {
                    putInt(counts, i, seed * 10 + i);
                }
                putByte(flag, (byte) (seed * 3));
            }

            void assertFilled(int seed) {
                assertEquals(seed, getInt(id));
                assertEquals(seed * 0.5 - 3, getDouble(weight));
                assertEquals((char) ('A' + seed % 26), getChar(tag));
                Point.Data p = getData(pointType, point);
                assertEquals((short) -seed, p.kind());
                assertEquals(seed * 1.25, p.x());
                assertEquals(-seed / 8.0, p.y());
                for (int i = 0; i < 3; i++) {
                    assertEquals(seed * 10 + i, getInt(counts, i));
                }
                assertEquals((byte) (seed * 3), getByte(flag));
            }

            int id() {
                return getInt(id);
            }

            int count(int i) {
                return getInt(counts, i);
            }

            long wrongLong() {
                return getLong(id);
            }
        }
    }

    /** A struct laid out by hand with setOffset, Open MPI's way: {@code byte b; int i} packed, extent 6. */
    static final class Packed extends Struct {
        final int b = addByte();
        final int i = setOffset(1).addInt();

        Packed() {
            setOffset(6);
        }

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            int i() {
                return getInt(i);
            }

            void putI(int v) {
                putInt(i, v);
            }
        }
    }

    static Stream<World> pairsAndTriples() {
        return Stream.of(2, 3).map(StructTest::world);
    }

    static Stream<World> reductionWorlds() {
        return Stream.of(1, 2, 3, 4, 7).map(StructTest::world);
    }

    private static World world(int n) {
        return new World(n, MatchingKind.LOCK_FREE, Tunables.DEFAULT_EAGER_THRESHOLD);
    }

    // ---- layout ----------------------------------------------------------------------------

    @Test
    void offsetsAndExtentsFollowCAlignment() {
        Point point = new Point();
        assertEquals(0, point.kind);
        assertEquals(8, point.x);
        assertEquals(16, point.y);
        assertEquals(24, point.getExtent());
        Mixed mixed = new Mixed(point);
        assertArrayEquals(new int[] {0, 8, 16, 24, 48, 60},
            new int[] {mixed.id, mixed.weight, mixed.tag, mixed.point, mixed.counts, mixed.flag});
        assertEquals(64, mixed.getExtent());
        Datatype t = mixed.getType();
        assertSame(t, mixed.getType());
        assertEquals(64, t.getExtent());
        assertEquals(4 + 8 + 2 + (2 + 8 + 8) + 12 + 1, t.getSize());
        assertEquals(0, t.getTrueLb());
        assertEquals(61, t.getTrueExtent());

        Packed packed = new Packed();
        assertEquals(1, packed.i);
        assertEquals(6, packed.getExtent());
    }

    @Test
    void pairStructsAreThePredefinedPairTypes() {
        assertSame(MPI.INT2, MPI.int2.getType());
        assertSame(MPI.SHORT_INT, MPI.shortInt.getType());
        assertSame(MPI.LONG_INT, MPI.longInt.getType());
        assertSame(MPI.FLOAT_INT, MPI.floatInt.getType());
        assertSame(MPI.DOUBLE_INT, MPI.doubleInt.getType());
        assertArrayEquals(new int[] {8, 8, 16, 8, 16}, new int[] {MPI.int2.getExtent(), MPI.shortInt.getExtent(),
            MPI.longInt.getExtent(), MPI.floatInt.getExtent(), MPI.doubleInt.getExtent()});
    }

    // ---- round trips -----------------------------------------------------------------------

    private static final int STRUCTS = 5;
    private static final byte HOLE = 0x55;

    /** Rank 0 sends STRUCTS structs to every other rank; the data arrive, the holes keep HOLE. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("pairsAndTriples")
    void mixedStructRoundTripsInDirectByteBuffers(World w) {
        w.run(() -> {
            Mixed mixed = new Mixed(new Point());
            int extent = mixed.getExtent();
            ByteBuffer buf = MPI.newByteBuffer(STRUCTS * extent);
            if (MPI.COMM_WORLD.getRank() == 0) {
                for (int i = 0; i < STRUCTS; i++) {
                    mixed.<Mixed.Data>getData(buf, i).fill(i + 1);
                }
                for (int r = 1; r < MPI.COMM_WORLD.getSize(); r++) {
                    MPI.COMM_WORLD.send(buf, STRUCTS, mixed.getType(), r, 4);
                    // one struct from the middle, through its view's buffer
                    MPI.COMM_WORLD.send(mixed.<Mixed.Data>getData(buf, 3).getBuffer(), 1, mixed.getType(), r, 5);
                }
            } else {
                for (int i = 0; i < buf.capacity(); i++) {
                    buf.put(i, HOLE);
                }
                Status s = MPI.COMM_WORLD.recv(buf, STRUCTS, mixed.getType(), 0, 4);
                assertEquals(STRUCTS, s.getCount(mixed.getType()));
                for (int i = 0; i < STRUCTS; i++) {
                    mixed.<Mixed.Data>getData(buf, i).assertFilled(i + 1);
                    assertHoles(buf, i * extent);
                }
                ByteBuffer one = MPI.newByteBuffer(extent);
                MPI.COMM_WORLD.recv(one, 1, mixed.getType(), 0, 5);
                mixed.<Mixed.Data>getData(one).assertFilled(4);
            }
            return null;
        });
    }

    /** The same in byte[] (native order), around a ring so that every rank sends and receives. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("pairsAndTriples")
    void mixedStructRoundTripsInByteArrays(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            Mixed mixed = new Mixed(new Point());
            int extent = mixed.getExtent();
            byte[] out = new byte[STRUCTS * extent];
            byte[] in = new byte[STRUCTS * extent];
            Arrays.fill(in, HOLE);
            for (int i = 0; i < STRUCTS; i++) {
                mixed.<Mixed.Data>getData(out, i).fill(me * 100 + i);
            }
            MPI.COMM_WORLD.Sendrecv(out, 0, STRUCTS, mixed.getType(), (me + 1) % size, 6,
                in, 0, STRUCTS, mixed.getType(), (me + size - 1) % size, 6);
            int left = (me + size - 1) % size;
            ByteBuffer view = ByteBuffer.wrap(in).order(ByteOrder.nativeOrder());
            for (int i = 0; i < STRUCTS; i++) {
                mixed.<Mixed.Data>getData(in, i).assertFilled(left * 100 + i);
                assertHoles(view, i * extent);
            }
            return null;
        });
    }

    /** Heap ByteBuffers in big-endian order (not native): the fields are written and moved in that order. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("pairsAndTriples")
    void bigEndianHeapBuffersRoundTrip(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            Mixed mixed = new Mixed(new Point());
            ByteBuffer out = ByteBuffer.allocate(STRUCTS * mixed.getExtent());
            ByteBuffer in = ByteBuffer.allocate(STRUCTS * mixed.getExtent());
            for (int i = 0; i < STRUCTS; i++) {
                mixed.<Mixed.Data>getData(out, i).fill(me * 100 + i);
            }
            assertEquals(me * 100 + 1, out.getInt(mixed.getExtent()), "big-endian in the buffer");
            MPI.COMM_WORLD.sendRecv(out, STRUCTS, mixed.getType(), (me + 1) % size, 7,
                in, STRUCTS, mixed.getType(), (me + size - 1) % size, 7);
            for (int i = 0; i < STRUCTS; i++) {
                mixed.<Mixed.Data>getData(in, i).assertFilled((me + size - 1) % size * 100 + i);
            }
            return null;
        });
    }

    private static void assertHoles(ByteBuffer buf, int base) {
        for (int hole : new int[] {4, 5, 6, 7, 18, 19, 20, 21, 22, 23, 26, 27, 28, 29, 30, 31, 61, 62, 63}) {
            assertEquals(HOLE, buf.get(base + hole), "padding byte " + hole + " of the struct at " + base);
        }
    }

    // ---- MAXLOC and MINLOC through the pair structs ------------------------------------------

    /** One of the pair structs, driven through its typed view; values are small longs, exact in every kind. */
    enum Pair {
        INT2 {
            @Override
            Struct struct() {
                return MPI.int2;
            }

            @Override
            void put(ByteBuffer b, int i, long value, int index) {
                Int2.Data d = MPI.int2.getData(b, i);
                d.putValue((int) value);
                d.putIndex(index);
            }

            @Override
            long value(ByteBuffer b, int i) {
                return MPI.int2.<Int2.Data>getData(b, i).getValue();
            }

            @Override
            int index(ByteBuffer b, int i) {
                return MPI.int2.<Int2.Data>getData(b, i).getIndex();
            }
        },
        SHORT_INT {
            @Override
            Struct struct() {
                return MPI.shortInt;
            }

            @Override
            void put(ByteBuffer b, int i, long value, int index) {
                ShortInt.Data d = MPI.shortInt.getData(b, i);
                d.putValue((short) value);
                d.putIndex(index);
            }

            @Override
            long value(ByteBuffer b, int i) {
                return MPI.shortInt.<ShortInt.Data>getData(b, i).getValue();
            }

            @Override
            int index(ByteBuffer b, int i) {
                return MPI.shortInt.<ShortInt.Data>getData(b, i).getIndex();
            }
        },
        LONG_INT {
            /** Values beyond the int range, so that a long compare is needed. */
            static final long SCALE = 1L << 40;

            @Override
            Struct struct() {
                return MPI.longInt;
            }

            @Override
            void put(ByteBuffer b, int i, long value, int index) {
                LongInt.Data d = MPI.longInt.getData(b, i);
                d.putValue(value * SCALE);
                d.putIndex(index);
            }

            @Override
            long value(ByteBuffer b, int i) {
                return MPI.longInt.<LongInt.Data>getData(b, i).getValue() / SCALE;
            }

            @Override
            int index(ByteBuffer b, int i) {
                return MPI.longInt.<LongInt.Data>getData(b, i).getIndex();
            }
        },
        FLOAT_INT {
            @Override
            Struct struct() {
                return MPI.floatInt;
            }

            @Override
            void put(ByteBuffer b, int i, long value, int index) {
                FloatInt.Data d = MPI.floatInt.getData(b, i);
                d.putValue(value / 4f);
                d.putIndex(index);
            }

            @Override
            long value(ByteBuffer b, int i) {
                return (long) (MPI.floatInt.<FloatInt.Data>getData(b, i).getValue() * 4);
            }

            @Override
            int index(ByteBuffer b, int i) {
                return MPI.floatInt.<FloatInt.Data>getData(b, i).getIndex();
            }
        },
        DOUBLE_INT {
            @Override
            Struct struct() {
                return MPI.doubleInt;
            }

            @Override
            void put(ByteBuffer b, int i, long value, int index) {
                DoubleInt.Data d = MPI.doubleInt.getData(b, i);
                d.putValue(value / 4.0);
                d.putIndex(index);
            }

            @Override
            long value(ByteBuffer b, int i) {
                return (long) (MPI.doubleInt.<DoubleInt.Data>getData(b, i).getValue() * 4);
            }

            @Override
            int index(ByteBuffer b, int i) {
                return MPI.doubleInt.<DoubleInt.Data>getData(b, i).getIndex();
            }
        };

        abstract Struct struct();

        abstract void put(ByteBuffer b, int i, long value, int index);

        abstract long value(ByteBuffer b, int i);

        abstract int index(ByteBuffer b, int i);
    }

    private static final int PAIRS = 9;

    /** Few distinct values, many ties across ranks; negative ones too. */
    private static long valueOf(int rank, int i) {
        return (rank * 5L + i * 3L) % 4 - 2 + (i % 3 == 0 ? rank : 0);
    }

    /** Indexes not in rank order, so that ties test the lowest-index rule rather than rank order. */
    private static int indexOf(int rank, int size, int i) {
        return (size - rank) * 7 + i;
    }

    /** Sequential MAXLOC/MINLOC of pair {@code i} over all ranks: {value, index}. */
    private static long[] reference(boolean max, int size, int i) {
        long best = valueOf(0, i);
        int index = indexOf(0, size, i);
        for (int r = 1; r < size; r++) {
            long v = valueOf(r, i);
            int x = indexOf(r, size, i);
            if ((max ? v > best : v < best) || (v == best && x < index)) {
                best = v;
                index = x;
            }
        }
        return new long[] {best, index};
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reductionWorlds")
    void maxlocAndMinlocThroughEveryPairStruct(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            for (Pair pair : Pair.values()) {
                Struct struct = pair.struct();
                ByteBuffer in = MPI.newByteBuffer(PAIRS * struct.getExtent());
                for (int i = 0; i < PAIRS; i++) {
                    pair.put(in, i, valueOf(me, i), indexOf(me, size, i));
                }
                for (Op op : new Op[] {MPI.MAXLOC, MPI.MINLOC}) {
                    boolean max = op == MPI.MAXLOC;
                    ByteBuffer out = MPI.newByteBuffer(PAIRS * struct.getExtent());
                    MPI.COMM_WORLD.allReduce(in, out, PAIRS, struct.getType(), op);
                    for (int i = 0; i < PAIRS; i++) {
                        long[] expected = reference(max, size, i);
                        String what = pair + (max ? " MAXLOC" : " MINLOC") + " pair " + i;
                        assertEquals(expected[0], pair.value(out, i), what + " value");
                        assertEquals(expected[1], pair.index(out, i), what + " index");
                    }
                }
            }
            return null;
        });
    }

    /**
     * Buffers in big-endian order: MPI.int2's pairs are ints read in the buffer's order, so they
     * reduce right; the C-struct pairs are read in native order, so a non-native buffer is refused
     * rather than reduced on misread values.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("pairsAndTriples")
    void byteOrderOfPairBuffers(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            ByteBuffer in = ByteBuffer.allocate(PAIRS * 8).order(ByteOrder.BIG_ENDIAN);
            ByteBuffer out = ByteBuffer.allocate(PAIRS * 8).order(ByteOrder.BIG_ENDIAN);
            for (int i = 0; i < PAIRS; i++) {
                Pair.INT2.put(in, i, valueOf(me, i), indexOf(me, size, i));
            }
            MPI.COMM_WORLD.allReduce(in, out, PAIRS, MPI.int2.getType(), MPI.MAXLOC);
            for (int i = 0; i < PAIRS; i++) {
                assertArrayEquals(reference(true, size, i), new long[] {Pair.INT2.value(out, i), Pair.INT2.index(out, i)});
            }
            ByteOrder foreignOrder = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN
                : ByteOrder.BIG_ENDIAN;
            ByteBuffer foreign = ByteBuffer.allocate(16).order(foreignOrder);
            ByteBuffer nativeOut = MPI.newByteBuffer(16);
            // every rank checks its send buffer before the collective starts: all of them refuse
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.allReduce(foreign, nativeOut, 1,
                MPI.doubleInt.getType(), MPI.MAXLOC), "allReduce", "send buffer", "native byte order");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.reduce(foreign, nativeOut, 1,
                MPI.shortInt.getType(), MPI.MINLOC, 0), "reduce", "send buffer", "native byte order");
            return null;
        });
    }

    // ---- errors ----------------------------------------------------------------------------

    @Test
    void indexOutsideTheBufferIsAnError() {
        Mixed mixed = new Mixed(new Point());
        ByteBuffer buf = MPI.newByteBuffer(2 * mixed.getExtent() + 10);
        mixed.getData(buf, 1);
        assertMpiError(MPI.ERR_BUFFER, () -> mixed.getData(buf, 2), "getData", "index 2", "room for 2");
        assertMpiError(MPI.ERR_BUFFER, () -> mixed.getData(buf, -1), "getData", "index -1");
        assertMpiError(MPI.ERR_BUFFER, () -> mixed.getData(new byte[10]), "getData", "index 0");
        assertMpiError(MPI.ERR_BUFFER, () -> MPI.doubleInt.getData((ByteBuffer) null, 0), "getData", "null");
    }

    @Test
    void addingFieldsAfterTheTypeIsBuiltIsAnError() {
        Point point = new Point();
        point.getExtent();
        assertMpiError(MPI.ERR_TYPE, point::addInt, "addInt", "already built");
        assertMpiError(MPI.ERR_TYPE, () -> point.setOffset(100), "setOffset", "already built");
        assertMpiError(MPI.ERR_TYPE, () -> MPI.int2.addDouble(2), "addDouble", "already built");
        // a nested struct is built by the enclosing addStruct
        Point inner = new Point();
        new Mixed(inner);
        assertMpiError(MPI.ERR_TYPE, () -> inner.addStruct(new Point()), "addStruct", "already built");
    }

    @Test
    void badDeclarationsAreErrors() {
        Point point = new Point();
        assertMpiError(MPI.ERR_ARG, () -> point.addInt(0), "addInt", "length 0");
        assertMpiError(MPI.ERR_ARG, () -> point.setOffset(3), "setOffset", "offset 3", "24");
        assertMpiError(MPI.ERR_ARG, () -> point.addStruct(point), "addStruct", "itself");
        assertMpiError(MPI.ERR_TYPE, () -> point.addData(MPI.OBJECT), "addData", "objects");
        assertMpiError(MPI.ERR_TYPE, () -> point.addData(Datatype.createResized(MPI.INT, -4, 8)), "addData",
            "outside");
    }

    @Test
    void accessorsCheckTheField() {
        Mixed mixed = new Mixed(new Point());
        Mixed.Data d = mixed.getData(new byte[mixed.getExtent()]);
        d.fill(3);
        assertEquals(32, d.count(2));
        assertMpiError(MPI.ERR_ARG, () -> d.count(3), "getInt", "index 3", "int[3] at offset 48");
        assertMpiError(MPI.ERR_TYPE, d::wrongLong, "getLong", "int at offset 0");
        ByteBuffer readOnly = MPI.newByteBuffer(mixed.getExtent()).asReadOnlyBuffer();
        assertMpiError(MPI.ERR_BUFFER, () -> mixed.<Mixed.Data>getData(readOnly).fill(1), "putInt", "read-only");
    }

    @Test
    void datatypeFieldsReadAsTheirElements() {
        /** Two INT2 pairs read as four raw ints, then an MPI.INT field, the same as addInt(). */
        final class WithData extends Struct {
            final int pairs = addData(MPI.INT2, 2);
            final int single = addData(MPI.INT);

            @Override
            protected Data newData() {
                return new Data();
            }

            final class Data extends Struct.Data {
                int raw(int i) {
                    return getInt(pairs, i);
                }

                void putRaw(int i, int v) {
                    putInt(pairs, i, v);
                }

                double singleAsDouble() {
                    return getDouble(single);
                }
            }
        }
        WithData s = new WithData();
        assertEquals(0, s.pairs);
        assertEquals(16, s.single);
        assertEquals(20, s.getExtent());
        assertEquals(5 * 4, s.getType().getSize());
        WithData.Data d = s.getData(new byte[s.getExtent()]);
        for (int i = 0; i < 4; i++) {
            d.putRaw(i, i * 11);
        }
        assertEquals(33, d.raw(3));
        assertMpiError(MPI.ERR_ARG, () -> d.raw(4), "getInt", "index 4");
        assertMpiError(MPI.ERR_TYPE, d::singleAsDouble, "getDouble", "int at offset 16");
    }
}
