package org.mpjlite.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.MPI;
import mpi.Op;
import mpi.UserFunction;
import mpi.User_function;
import org.mpjlite.p2p.Jobs.World;

/**
 * MAXLOC and MINLOC on the pair types of both dialects, user-defined operations (mpiJava's
 * {@link User_function}, Open MPI's {@link UserFunction} in both forms), commutative or not, and
 * {@code reduceLocal}, {@code REPLACE}, {@code NO_OP}.
 */
class PairsAndUserOpsTest {
    /** Rank r's value at item i: small, so that ties happen. */
    static int value(int r, int i) {
        return (r * 7 + i * 3) % 5;
    }

    /** The winning (value, index) of MAXLOC or MINLOC over ranks 0..n-1 at item i (ties: lowest rank). */
    static int[] loc(boolean max, int n, int i) {
        int best = value(0, i);
        int at = 0;
        for (int r = 1; r < n; r++) {
            int v = value(r, i);
            if (max ? v > best : v < best) {
                best = v;
                at = r;
            }
        }
        return new int[] {best, at};
    }

    @Worlds.AllSizes
    void maxlocAndMinlocOnPairs(World w) {
        int items = 9;
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            for (boolean max : new boolean[] {true, false}) {
                Op op = max ? MPI.MAXLOC : MPI.MINLOC;
                int[] ints = new int[1 + 2 * items];
                long[] longs = new long[2 * items];
                double[] doubles = new double[2 * items];
                float[] floats = new float[2 * items];
                short[] shorts = new short[2 * items];
                ByteBuffer doubleInt = MPI.newByteBuffer(16 * items);
                ByteBuffer shortInt = MPI.newByteBuffer(8 * items);
                for (int i = 0; i < items; i++) {
                    ints[1 + 2 * i] = value(me, i);
                    ints[2 + 2 * i] = me;
                    longs[2 * i] = value(me, i) + (1L << 40);
                    longs[2 * i + 1] = me;
                    doubles[2 * i] = value(me, i) / 4.0;
                    doubles[2 * i + 1] = me;
                    floats[2 * i] = value(me, i);
                    floats[2 * i + 1] = me;
                    shorts[2 * i] = (short) value(me, i);
                    shorts[2 * i + 1] = (short) me;
                    doubleInt.putDouble(16 * i, value(me, i)).putInt(16 * i + 8, me);
                    shortInt.putShort(8 * i, (short) value(me, i)).putInt(8 * i + 4, me);
                }
                int[] ri = new int[1 + 2 * items];
                MPI.COMM_WORLD.Allreduce(ints, 1, ri, 1, items, MPI.INT2, op);
                long[] rl = new long[2 * items];
                MPI.COMM_WORLD.Allreduce(longs, 0, rl, 0, items, MPI.LONG2, op);
                double[] rd = new double[2 * items];
                MPI.COMM_WORLD.Reduce(doubles, 0, rd, 0, items, MPI.DOUBLE2, op, n - 1);
                MPI.COMM_WORLD.allReduce(floats, items, MPI.FLOAT2, op);
                MPI.COMM_WORLD.allReduce(shorts, items, MPI.SHORT2, op);
                ByteBuffer rdi = MPI.newByteBuffer(16 * items);
                MPI.COMM_WORLD.allReduce(doubleInt, rdi, items, MPI.DOUBLE_INT, op);
                MPI.COMM_WORLD.allReduce(shortInt, items, MPI.SHORT_INT, op);
                for (int i = 0; i < items; i++) {
                    int[] want = loc(max, n, i);
                    String what = (max ? "MAXLOC" : "MINLOC") + " item " + i;
                    assertArrayEquals(want, new int[] {ri[1 + 2 * i], ri[2 + 2 * i]}, "INT2 " + what);
                    assertArrayEquals(new long[] {want[0] + (1L << 40), want[1]}, new long[] {rl[2 * i], rl[2 * i + 1]},
                        "LONG2 " + what);
                    if (me == n - 1) {
                        assertArrayEquals(new double[] {want[0] / 4.0, want[1]}, new double[] {rd[2 * i], rd[2 * i + 1]},
                            "DOUBLE2 " + what);
                    }
                    assertArrayEquals(new float[] {want[0], want[1]}, new float[] {floats[2 * i], floats[2 * i + 1]},
                        "FLOAT2 " + what);
                    assertArrayEquals(new short[] {(short) want[0], (short) want[1]},
                        new short[] {shorts[2 * i], shorts[2 * i + 1]}, "SHORT2 " + what);
                    assertEquals(want[0], rdi.getDouble(16 * i), "DOUBLE_INT value " + what);
                    assertEquals(want[1], rdi.getInt(16 * i + 8), "DOUBLE_INT index " + what);
                    assertEquals(want[0], shortInt.getShort(8 * i), "SHORT_INT value " + what);
                    assertEquals(want[1], shortInt.getInt(8 * i + 4), "SHORT_INT index " + what);
                }
            }
            return null;
        });
    }

    /** Affine maps x -> a*x + b as INT2 pairs (a, b); composition is associative, not commutative. */
    static final class Compose extends User_function {
        @Override
        public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype) {
            int[] in = (int[]) invec;
            int[] io = (int[]) inoutvec;
            for (int k = 0; k < count; k++) {
                int a = in[inoffset + 2 * k];
                int b = in[inoffset + 2 * k + 1];
                int c = io[inoutoffset + 2 * k];
                int d = io[inoutoffset + 2 * k + 1];
                // in o inout: x -> a * (c * x + d) + b
                io[inoutoffset + 2 * k] = a * c;
                io[inoutoffset + 2 * k + 1] = a * d + b;
            }
        }
    }

    /** The same in Open MPI's buffer form. */
    static final class ComposeBuffers extends UserFunction {
        @Override
        public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) {
            IntBuffer a = in.order(ByteOrder.nativeOrder()).asIntBuffer();
            IntBuffer b = inOut.order(ByteOrder.nativeOrder()).asIntBuffer();
            for (int k = 0; k < count; k++) {
                int x = a.get(2 * k);
                int y = a.get(2 * k + 1);
                int c = b.get(2 * k);
                int d = b.get(2 * k + 1);
                b.put(2 * k, x * c);
                b.put(2 * k + 1, x * d + y);
            }
        }
    }

    /** A commutative sum in Open MPI's array form only. */
    static final class SumArrays extends UserFunction {
        @Override
        public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
            long[] in = (long[]) inVec;
            long[] io = (long[]) inOutVec;
            for (int k = 0; k < count; k++) {
                io[k] += in[k];
            }
        }
    }

    /** Rank r's map at item i. */
    static int[] affine(int r, int i) {
        return new int[] {r + 2 + i, 3 * r - i + 1};
    }

    /** f_from o ... o f_(to-1) at item i. */
    static int[] composed(int from, int to, int i) {
        int a = 1;
        int b = 0;
        for (int r = to - 1; r >= from; r--) {
            int[] f = affine(r, i);
            // f o (a, b): x -> f.a * (a x + b) + f.b
            b = f[0] * b + f[1];
            a = f[0] * a;
        }
        return new int[] {a, b};
    }

    @Worlds.AllSizes
    void userOperationsCombineInRankOrder(World w) {
        int items = 1500;
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            int[] mine = new int[2 * items];
            for (int i = 0; i < items; i++) {
                System.arraycopy(affine(me, i), 0, mine, 2 * i, 2);
            }
            Op compose = new Op(new Compose(), false);
            Op composeBuffers = new Op(new ComposeBuffers(), false);
            int[] all = new int[2 * items];
            MPI.COMM_WORLD.Allreduce(mine, 0, all, 0, items, MPI.INT2, compose);
            int[] scan = new int[2 * items];
            MPI.COMM_WORLD.Scan(mine, 0, scan, 0, items, MPI.INT2, compose);
            ByteBuffer buf = MPI.newByteBuffer(8 * items);
            buf.asIntBuffer().put(mine);
            MPI.COMM_WORLD.allReduce(buf, items, MPI.INT2, composeBuffers);
            int[] red = new int[2 * items];
            MPI.COMM_WORLD.reduce(mine, red, items, MPI.INT2, compose, 0);
            for (int i = 0; i < items; i++) {
                int[] want = composed(0, n, i);
                assertArrayEquals(want, new int[] {all[2 * i], all[2 * i + 1]}, "Allreduce item " + i);
                assertArrayEquals(composed(0, me + 1, i), new int[] {scan[2 * i], scan[2 * i + 1]}, "Scan item " + i);
                assertArrayEquals(want, new int[] {buf.getInt(8 * i), buf.getInt(8 * i + 4)}, "allReduce buffers " + i);
                if (me == 0) {
                    assertArrayEquals(want, new int[] {red[2 * i], red[2 * i + 1]}, "reduce item " + i);
                }
            }
            long[] sum = {me, 10L * me, 1};
            MPI.COMM_WORLD.allReduce(sum, 3, MPI.LONG, new Op(new SumArrays(), true));
            long total = (long) n * (n - 1) / 2;
            assertArrayEquals(new long[] {total, 10 * total, n}, sum, "commutative array-form user op");
            return null;
        });
    }

    @Worlds.AllSizes
    void replaceNoOpAndReduceLocal(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            int[] r = new int[1];
            MPI.COMM_WORLD.allReduce(new int[] {me + 10}, r, 1, MPI.INT, MPI.REPLACE);
            assertEquals(10, r[0], "REPLACE keeps the lowest rank's value");
            MPI.COMM_WORLD.allReduce(new int[] {me + 10}, r, 1, MPI.INT, MPI.NO_OP);
            assertEquals(n + 9, r[0], "NO_OP keeps the highest rank's value");
            double[] inout = {1, 2, 3};
            mpi.Comm.reduceLocal(new double[] {4, 5, 6}, inout, 3, MPI.DOUBLE, MPI.SUM);
            assertArrayEquals(new double[] {5, 7, 9}, inout);
            int[] f = affine(1, 0);
            int[] g = affine(2, 0);
            mpi.Comm.reduceLocal(f, g, 1, MPI.INT2, new Op(new Compose(), false));
            assertArrayEquals(composed(1, 3, 0), g, "reduceLocal computes in op inout");
            return null;
        });
    }
}
