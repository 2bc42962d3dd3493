package org.mpjlite.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntToLongFunction;
import mpi.MPI;
import mpi.Request;
import org.mpjlite.p2p.Jobs.World;

/**
 * Blocking Allreduce of at most 56 bytes per rank, which the engine carries in each rank's epoch
 * line instead of the slot: every kind of buffer and every predefined operation at the largest count
 * that fits and the first that does not (the general path), bitwise-identical floating-point results
 * on every rank and on both paths, and loops that alternate it with the general path, with
 * non-blocking collectives still in flight and with other collectives, ranks skewed by pauses.
 */
class SmallAllreduceTest {
    /** Largest count of {@code k}'s elements carried in a line. */
    private static int lineCount(Kind k) {
        return 56 / k.type.getSize();
    }

    @Worlds.AllSizes
    void everyKindAndOperationAtTheLineLimitAndPastIt(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            for (Kind k : Kind.values()) {
                for (ReductionTest.Case c : ReductionTest.cases()) {
                    if (!c.appliesTo(k)) {
                        continue;
                    }
                    for (int count : new int[] {2, lineCount(k), lineCount(k) + 1}) {
                        String what = c.name() + " of " + count;
                        IntToLongFunction all = ReductionTest.reference(k, c, 0, n);
                        Object s = k.filled(count, i -> c.input(me, i));
                        Object r = k.create(count);
                        MPI.COMM_WORLD.allReduce(s, r, count, k.type, c.op());
                        k.assertHolds(r, 0, count, all, "allReduce " + what);
                        k.assertHolds(s, 0, count, i -> c.input(me, i), "allReduce send buffer unchanged " + what);
                        Object p = k.filled(count, i -> c.input(me, i));
                        MPI.COMM_WORLD.allReduce(p, count, k.type, c.op());
                        k.assertHolds(p, 0, count, all, "allReduce in place " + what);
                        if (!k.isBuffer()) {
                            Object so = k.filled(3 + count, i -> c.input(me, i - 3));
                            Object ro = k.create(5 + count);
                            MPI.COMM_WORLD.Allreduce(so, 3, ro, 5, count, k.type, c.op());
                            k.assertHolds(ro, 5, count, all, "Allreduce with offsets " + what);
                            k.assertHolds(ro, 0, 5, i -> 0, "Allreduce leaves the elements before the offset");
                        }
                    }
                }
            }
            return null;
        });
    }

    /**
     * NIO buffers are addressed from index 0 over their whole capacity, whatever their position and
     * limit: a flipped or emptied buffer (limit 0) still sends and receives its first elements, on
     * the line path (2 ints) and on the general path (20 ints), and position and limit are untouched.
     */
    @Worlds.AllSizes
    void byteBuffersWhoseLimitIsBelowTheData(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            for (int count : new int[] {2, 20}) {
                java.nio.ByteBuffer in = MPI.newByteBuffer(4 * count);
                java.nio.ByteBuffer out = MPI.newByteBuffer(4 * count);
                for (int i = 0; i < count; i++) {
                    in.putInt(4 * i, me + i);
                }
                in.limit(0);
                out.position(1).limit(2);
                MPI.COMM_WORLD.allReduce(in, out, count, MPI.INT, MPI.SUM);
                java.nio.ByteBuffer all = out.duplicate().order(out.order()).clear();
                for (int i = 0; i < count; i++) {
                    assertEquals(n * (n - 1) / 2 + n * i, all.getInt(4 * i), "element " + i + " of " + count);
                }
                assertEquals(0, in.limit());
                assertEquals(1, out.position());
                assertEquals(2, out.limit());
            }
            return null;
        });
    }

    /**
     * Into NIO buffers of every kind a small Allreduce of ints, longs, floats and doubles gives the
     * bits it gives into arrays, for every operation the lines reduce straight from them: direct
     * and heap ByteBuffers in either byte order, typed heap buffers and typed views of direct
     * ones; at the line limit and at one element; nothing past the count written.
     */
    @Worlds.AllSizes
    void intoBuffersOfEveryKindTheBitsItGivesIntoArrays(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            for (mpi.Datatype type : new mpi.Datatype[] {MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE}) {
                boolean floating = type == MPI.FLOAT || type == MPI.DOUBLE;
                mpi.Op[] ops = floating ? new mpi.Op[] {MPI.SUM, MPI.PROD, MPI.MAX, MPI.MIN}
                    : new mpi.Op[] {MPI.SUM, MPI.PROD, MPI.MAX, MPI.MIN, MPI.LAND, MPI.BOR, MPI.BXOR};
                for (int count : new int[] {56 / type.getSize(), 1}) {
                    for (mpi.Op op : ops) {
                        Object inArray = NioKind.ARRAY.make(type, count);
                        for (int i = 0; i < count; i++) {
                            NioKind.ARRAY.set(inArray, type, i, wide(me, i));
                        }
                        Object outArray = NioKind.ARRAY.make(type, count);
                        MPI.COMM_WORLD.allReduce(inArray, outArray, count, type, op);
                        for (NioKind kind : NioKind.values()) {
                            Object in = kind.make(type, count + 2);
                            Object out = kind.make(type, count + 2);
                            for (int i = 0; i < count + 2; i++) {
                                kind.set(in, type, i, wide(me, i));
                                kind.set(out, type, i, 77);
                            }
                            MPI.COMM_WORLD.allReduce(in, out, count, type, op);
                            String what = op + " of " + count + " " + type + " into " + kind;
                            for (int i = 0; i < count; i++) {
                                assertEquals(NioKind.ARRAY.bits(outArray, type, i), kind.bits(out, type, i),
                                    what + ", element " + i);
                            }
                            for (int i = count; i < count + 2; i++) {
                                assertEquals(bitsOf77(type), kind.bits(out, type, i),
                                    what + ": element " + i + " past the count");
                            }
                        }
                    }
                }
            }
            return null;
        });
    }

    /**
     * A call of no elements may pass null buffers (MPI allows it) or empty ones, to Allreduce and
     * Reduce alike, whatever the type; it returns at once on every rank and changes nothing.
     */
    @Worlds.AllSizes
    void noElementsWithNullOrEmptyBuffers(World w) {
        w.run(() -> {
            for (mpi.Datatype type : new mpi.Datatype[] {MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE, MPI.BYTE}) {
                MPI.COMM_WORLD.allReduce(null, null, 0, type, MPI.SUM);
                MPI.COMM_WORLD.reduce(null, null, 0, type, MPI.MAX, 0);
                for (NioKind kind : NioKind.values()) {
                    if (type == MPI.BYTE) {
                        break;
                    }
                    Object in = kind.make(type, 1);
                    Object out = kind.make(type, 1);
                    kind.set(out, type, 0, 77);
                    MPI.COMM_WORLD.allReduce(in, out, 0, type, MPI.SUM);
                    assertEquals(bitsOf77(type), kind.bits(out, type, 0), "no element into " + kind);
                }
            }
            double[] d = {77};
            MPI.COMM_WORLD.Allreduce(new double[] {1}, 0, d, 0, 0, MPI.DOUBLE, MPI.MAX);
            assertEquals(77.0, d[0]);
            return null;
        });
    }

    /** The bits of 77 stored as an element of {@code type}. */
    private static long bitsOf77(mpi.Datatype type) {
        Object a = NioKind.ARRAY.make(type, 1);
        NioKind.ARRAY.set(a, type, 0, 77);
        return NioKind.ARRAY.bits(a, type, 0);
    }

    /** Where an Allreduce's elements of one of four types live: an array, or one kind of NIO buffer. */
    private enum NioKind {
        ARRAY, DIRECT_BYTES, HEAP_BYTES_BIG_ENDIAN, DIRECT_BYTES_LITTLE_ENDIAN, TYPED_HEAP, TYPED_VIEW_OF_DIRECT;

        Object make(mpi.Datatype type, int n) {
            int size = type.getSize();
            switch (this) {
                case ARRAY:
                    return type == MPI.INT ? new int[n] : type == MPI.LONG ? new long[n]
                        : type == MPI.FLOAT ? (Object) new float[n] : new double[n];
                case DIRECT_BYTES:
                    return MPI.newByteBuffer(n * size);
                case HEAP_BYTES_BIG_ENDIAN:
                    return java.nio.ByteBuffer.allocate(n * size).order(java.nio.ByteOrder.BIG_ENDIAN);
                case DIRECT_BYTES_LITTLE_ENDIAN:
                    return java.nio.ByteBuffer.allocateDirect(n * size).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                case TYPED_HEAP:
                    return type == MPI.INT ? java.nio.IntBuffer.allocate(n) : type == MPI.LONG
                        ? java.nio.LongBuffer.allocate(n) : type == MPI.FLOAT ? (Object) java.nio.FloatBuffer.allocate(n)
                        : java.nio.DoubleBuffer.allocate(n);
                default:
                    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocateDirect(n * size).order(java.nio.ByteOrder.nativeOrder());
                    return type == MPI.INT ? b.asIntBuffer() : type == MPI.LONG ? b.asLongBuffer()
                        : type == MPI.FLOAT ? (Object) b.asFloatBuffer() : b.asDoubleBuffer();
            }
        }

        /** Stores {@code v} as element {@code i}, converted as Java converts a long to the type. */
        void set(Object buf, mpi.Datatype type, int i, long v) {
            if (buf instanceof java.nio.ByteBuffer b) {
                int at = i * type.getSize();
                if (type == MPI.INT) {
                    b.putInt(at, (int) v);
                } else if (type == MPI.LONG) {
                    b.putLong(at, v);
                } else if (type == MPI.FLOAT) {
                    b.putFloat(at, (float) v);
                } else {
                    b.putDouble(at, (double) v);
                }
            } else if (buf instanceof int[] a) {
                a[i] = (int) v;
            } else if (buf instanceof long[] a) {
                a[i] = v;
            } else if (buf instanceof float[] a) {
                a[i] = (float) v;
            } else if (buf instanceof double[] a) {
                a[i] = (double) v;
            } else if (buf instanceof java.nio.IntBuffer b) {
                b.put(i, (int) v);
            } else if (buf instanceof java.nio.LongBuffer b) {
                b.put(i, v);
            } else if (buf instanceof java.nio.FloatBuffer b) {
                b.put(i, (float) v);
            } else {
                ((java.nio.DoubleBuffer) buf).put(i, (double) v);
            }
        }

        /** Element {@code i}'s bits: the int or long, or the raw bits of the float or double. */
        long bits(Object buf, mpi.Datatype type, int i) {
            if (buf instanceof java.nio.ByteBuffer b) {
                int at = i * type.getSize();
                return type == MPI.INT ? b.getInt(at) : type == MPI.LONG ? b.getLong(at)
                    : type == MPI.FLOAT ? Float.floatToRawIntBits(b.getFloat(at)) : Double.doubleToRawLongBits(b.getDouble(at));
            }
            if (buf instanceof int[] a) {
                return a[i];
            }
            if (buf instanceof long[] a) {
                return a[i];
            }
            if (buf instanceof float[] a) {
                return Float.floatToRawIntBits(a[i]);
            }
            if (buf instanceof double[] a) {
                return Double.doubleToRawLongBits(a[i]);
            }
            if (buf instanceof java.nio.IntBuffer b) {
                return b.get(i);
            }
            if (buf instanceof java.nio.LongBuffer b) {
                return b.get(i);
            }
            if (buf instanceof java.nio.FloatBuffer b) {
                return Float.floatToRawIntBits(b.get(i));
            }
            return Double.doubleToRawLongBits(((java.nio.DoubleBuffer) buf).get(i));
        }
    }

    /**
     * Sums whose rounding depends on the order of the additions: every rank gets the same bits, the
     * bits of {@code x0 + (x1 + (... + x[n-1]))} (rank order, as the general path combines), and
     * the same as the general path's for the same elements.
     */
    @Worlds.AllSizes
    void floatingPointResultsAreTheSameBitsOnEveryRankAndOnBothPaths(World w) {
        java.util.List<long[]> results = w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            double[] line = new double[7];
            double[] general = new double[100];
            for (int i = 0; i < general.length; i++) {
                general[i] = value(me, i % 7);
            }
            System.arraycopy(general, 0, line, 0, line.length);
            double[] lineSum = new double[7];
            double[] generalSum = new double[100];
            MPI.COMM_WORLD.allReduce(line, lineSum, 7, MPI.DOUBLE, MPI.SUM);
            MPI.COMM_WORLD.allReduce(general, generalSum, 100, MPI.DOUBLE, MPI.SUM);
            long[] bits = new long[7];
            for (int i = 0; i < 7; i++) {
                double expected = value(n - 1, i);
                for (int r = n - 2; r >= 0; r--) {
                    expected = value(r, i) + expected;
                }
                assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(lineSum[i]),
                    "element " + i + ": " + lineSum[i] + ", expected " + expected);
                assertEquals(Double.doubleToRawLongBits(generalSum[i]), Double.doubleToRawLongBits(lineSum[i]),
                    "element " + i + " on both paths");
                bits[i] = Double.doubleToRawLongBits(lineSum[i]);
            }
            return bits;
        });
        results.forEach(b -> assertArrayEquals(results.get(0), b));
    }

    /**
     * Floats in the lines reduce in float arithmetic, in rank order, as on the general path; a NaN
     * any rank gives wins MAX and MIN on both paths (the same bits), for floats and doubles.
     */
    @Worlds.AllSizes
    void floatSumsAndNaNsInMaxAndMinAreTheGeneralPathsBits(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            float[] line = new float[14];
            float[] general = new float[100];
            for (int i = 0; i < general.length; i++) {
                general[i] = (float) value(me, i % 14);
            }
            System.arraycopy(general, 0, line, 0, line.length);
            float[] lineSum = new float[14];
            float[] generalSum = new float[100];
            MPI.COMM_WORLD.allReduce(line, lineSum, 14, MPI.FLOAT, MPI.SUM);
            MPI.COMM_WORLD.allReduce(general, generalSum, 100, MPI.FLOAT, MPI.SUM);
            for (int i = 0; i < 14; i++) {
                float expected = (float) value(n - 1, i);
                for (int r = n - 2; r >= 0; r--) {
                    expected = (float) value(r, i) + expected;
                }
                assertEquals(Float.floatToRawIntBits(expected), Float.floatToRawIntBits(lineSum[i]), "float element " + i);
                assertEquals(Float.floatToRawIntBits(generalSum[i]), Float.floatToRawIntBits(lineSum[i]),
                    "float element " + i + " on both paths");
            }
            for (mpi.Op op : new mpi.Op[] {MPI.MAX, MPI.MIN}) {
                double[] d = new double[100];
                float[] f = new float[100];
                for (int i = 0; i < 100; i++) {
                    d[i] = i % 2 == 0 && me == n / 2 ? Double.NaN : me - i;
                    f[i] = (float) d[i];
                }
                double[] dLine = new double[7];
                double[] dGeneral = new double[100];
                float[] fLine = new float[14];
                float[] fGeneral = new float[100];
                MPI.COMM_WORLD.allReduce(d, dLine, 7, MPI.DOUBLE, op);
                MPI.COMM_WORLD.allReduce(d, dGeneral, 100, MPI.DOUBLE, op);
                MPI.COMM_WORLD.allReduce(f, fLine, 14, MPI.FLOAT, op);
                MPI.COMM_WORLD.allReduce(f, fGeneral, 100, MPI.FLOAT, op);
                for (int i = 0; i < 14; i++) {
                    if (i < 7) {
                        assertEquals(i % 2 == 0, Double.isNaN(dLine[i]), op + " double element " + i);
                        assertEquals(Double.doubleToRawLongBits(dGeneral[i]), Double.doubleToRawLongBits(dLine[i]),
                            op + " double element " + i + " on both paths");
                    }
                    assertEquals(i % 2 == 0, Float.isNaN(fLine[i]), op + " float element " + i);
                    assertEquals(Float.floatToRawIntBits(fGeneral[i]), Float.floatToRawIntBits(fLine[i]),
                        op + " float element " + i + " on both paths");
                    if (i % 2 == 1) {
                        assertEquals(op == MPI.MAX ? n - 1 - i : -i, fLine[i], op + " float element " + i);
                    }
                }
            }
            return null;
        });
    }

    /**
     * Ints and longs in the lines, past the small values of the operation tests: sums and products
     * that overflow wrap as Java's arithmetic (and as the general path) does, extremes win MAX and
     * MIN, and the logical operations take any nonzero value, negative or wide, as true; the same
     * values on the line path (the first elements) and on the general path.
     */
    @Worlds.AllSizes
    void intsAndLongsThatOverflowOrAreNotZeroOrOneAreTheGeneralPathsValues(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            int[] ints = new int[100];
            long[] longs = new long[100];
            for (int i = 0; i < 100; i++) {
                ints[i] = narrow(wide(me, i));
                longs[i] = wide(me, i);
            }
            for (ReductionTest.Case c : ReductionTest.cases()) {
                mpi.Op op = c.op();
                int[] iLine = new int[14];
                int[] iGeneral = new int[100];
                long[] lLine = new long[7];
                long[] lGeneral = new long[100];
                MPI.COMM_WORLD.allReduce(ints, iLine, 14, MPI.INT, op);
                MPI.COMM_WORLD.allReduce(ints, iGeneral, 100, MPI.INT, op);
                MPI.COMM_WORLD.allReduce(longs, lLine, 7, MPI.LONG, op);
                MPI.COMM_WORLD.allReduce(longs, lGeneral, 100, MPI.LONG, op);
                for (int i = 0; i < 14; i++) {
                    long li = wide(0, i);
                    int ii = narrow(li);
                    for (int r = 1; r < n; r++) {
                        long x = wide(r, i);
                        int xi = narrow(x);
                        li = c.ref().applyAsLong(li, x);
                        ii = (int) c.ref().applyAsLong(ii, xi); // the low 32 bits: int arithmetic's wrap
                    }
                    assertEquals(ii, iLine[i], c.name() + " int element " + i);
                    assertEquals(iGeneral[i], iLine[i], c.name() + " int element " + i + " on both paths");
                    if (i < 7) {
                        assertEquals(li, lLine[i], c.name() + " long element " + i);
                        assertEquals(lGeneral[i], lLine[i], c.name() + " long element " + i + " on both paths");
                    }
                }
            }
            return null;
        });
    }

    /** Values near the ends of the long range, some zero, some negative: sums and products overflow. */
    private static long wide(int rank, int i) {
        if ((rank + i) % 5 == 0) {
            return 0;
        }
        long big = Long.MAX_VALUE / (1 + (rank + 2 * i) % 3) - 977L * rank * (i + 1);
        return (rank + i) % 2 == 0 ? big : -big;
    }

    /** An int folded from both halves of {@code v}, so as wide and as often negative; zero for zero. */
    private static int narrow(long v) {
        return (int) (v >> 32 ^ v);
    }

    /** Magnitudes far apart, so that the order of the additions shows in the result. */
    static double value(int rank, int i) {
        return (rank % 3 == 0 ? 1e16 : rank % 3 == 1 ? -1e16 : 1.0 + rank) * (i + 1) + 0.1 * rank;
    }

    /**
     * Small Allreduce between the general path (large counts, user operations, non-blocking forms)
     * and other collectives, with non-blocking collectives still in flight when it starts (their
     * members arrive without waiting, so a rank may reach the small Allreduce well ahead of others)
     * and random pauses; every result checked.
     */
    @Worlds.AllSizes
    void alternatesWithTheGeneralPathAndOtherCollectives(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            ThreadLocalRandom rnd = ThreadLocalRandom.current();
            int sumOfRanks = n * (n - 1) / 2;
            for (int it = 0; it < 400; it++) {
                if (rnd.nextInt(40) == 0) {
                    Thread.sleep(1);
                }
                long[] small = {me, it, -me};
                MPI.COMM_WORLD.allReduce(small, 3, MPI.LONG, MPI.SUM);
                assertArrayEquals(new long[] {sumOfRanks, (long) n * it, -sumOfRanks}, small, "small " + it);
                switch (it % 5) {
                    case 0 -> {
                        long[] large = new long[20];
                        java.util.Arrays.fill(large, me + it);
                        MPI.COMM_WORLD.allReduce(large, 20, MPI.LONG, MPI.MAX);
                        assertEquals(n - 1 + it, large[19], "large " + it);
                    }
                    case 1 -> {
                        int[] a = {me};
                        int[] b = {it};
                        Request ra = MPI.COMM_WORLD.iAllReduce(a, 1, MPI.INT, MPI.SUM);
                        Request rb = MPI.COMM_WORLD.iBarrier();
                        Request rc = MPI.COMM_WORLD.iAllReduce(b, 1, MPI.INT, MPI.MIN);
                        int[] c = {1};
                        MPI.COMM_WORLD.allReduce(c, 1, MPI.INT, MPI.SUM);
                        assertEquals(n, c[0], "small after non-blocking " + it);
                        ra.waitFor();
                        rb.waitFor();
                        rc.waitFor();
                        assertEquals(sumOfRanks, a[0], "iAllReduce " + it);
                        assertEquals(it, b[0], "iAllReduce MIN " + it);
                    }
                    case 2 -> {
                        int[] b = new int[2];
                        if (me == it % n) {
                            b[0] = it;
                            b[1] = -it;
                        }
                        MPI.COMM_WORLD.bcast(b, 2, MPI.INT, it % n);
                        assertArrayEquals(new int[] {it, -it}, b, "bcast " + it);
                    }
                    case 3 -> MPI.COMM_WORLD.barrier();
                    default -> {
                        long[] digits = {1 + me % 3};
                        MPI.COMM_WORLD.allReduce(digits, 1, MPI.LONG, new mpi.Op(new Concatenate(), false));
                        long expected = 0;
                        for (int r = 0; r < n; r++) {
                            expected = expected * 4 + 1 + r % 3;
                        }
                        assertEquals(expected, digits[0], "non-commutative user operation " + it);
                    }
                }
                int[] self = {me};
                MPI.COMM_SELF.allReduce(self, 1, MPI.INT, MPI.SUM);
                assertEquals(me, self[0], "COMM_SELF " + it);
            }
            return null;
        });
    }

    /** Many small Allreduce calls in a row, ranks running ahead: every result right. */
    @Worlds.AllSizes
    void backToBack(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            float[] x = new float[2];
            float[] y = new float[2];
            for (int it = 0; it < 5000; it++) {
                x[0] = me;
                x[1] = it;
                MPI.COMM_WORLD.allReduce(x, y, 2, MPI.FLOAT, MPI.SUM);
                if (y[0] != n * (n - 1) / 2 || y[1] != (float) n * it) {
                    throw new AssertionError("iteration " + it + ": " + y[0] + ", " + y[1]);
                }
            }
            return null;
        });
    }

    /**
     * Concatenation of base-4 numerals without zero digits: associative, not commutative; in rank
     * order it spells the ranks' digits in order.
     */
    private static final class Concatenate extends mpi.UserFunction {
        @Override
        public void call(Object in, Object inOut, int count, mpi.Datatype type) {
            long[] a = (long[]) in;
            long[] b = (long[]) inOut;
            for (int i = 0; i < count; i++) {
                long shift = 1;
                while (shift <= b[i]) {
                    shift *= 4;
                }
                b[i] = a[i] * shift + b[i];
            }
        }
    }
}
