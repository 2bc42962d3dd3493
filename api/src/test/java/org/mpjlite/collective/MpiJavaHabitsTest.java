package org.mpjlite.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import mpi.Datatype;
import mpi.MPI;
import mpi.Op;
import mpi.Request;
import mpi.Status;
import mpi.User_function;
import org.mpjlite.p2p.Jobs.World;

/**
 * What mpiJava programs do and MPJ Express allows: Reduce_scatter of objects with a user operation,
 * MPI.LB and MPI.UB (extent 0, no space), empty Structs, and collectives given the same array as
 * send and receive buffer (Java Grande's MolDyn: {@code Allreduce(a, 0, a, 0, ...)}).
 */
class MpiJavaHabitsTest {
    /** Joins strings: not commutative, so the result shows the order the contributions were combined in. */
    private static Op concat() {
        return new Op(new User_function() {
            @Override
            public void Call(Object in, int inOffset, Object inout, int inoutOffset, int count, Datatype type) {
                Object[] a = (Object[]) in;
                Object[] b = (Object[]) inout;
                for (int i = 0; i < count; i++) {
                    b[inoutOffset + i] = a[inOffset + i] + "," + b[inoutOffset + i];
                }
            }
        }, false);
    }

    @Worlds.AllSizes
    void reduceScatterOfObjectsCombinesEachBlockInRankOrder(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int[] counts = new int[n];
            int total = 0;
            for (int j = 0; j < n; j++) {
                counts[j] = j % 3; // some ranks get nothing
                total += counts[j];
            }
            Object[] send = new Object[total + 1];
            for (int i = 0; i < total; i++) {
                send[1 + i] = me + ":" + i;
            }
            Object[] recv = new Object[counts[me] + 2];
            MPI.COMM_WORLD.Reduce_scatter(send, 1, recv, 2, counts, MPI.OBJECT, concat());
            int first = 0;
            for (int j = 0; j < me; j++) {
                first += counts[j];
            }
            for (int i = 0; i < counts[me]; i++) {
                StringBuilder want = new StringBuilder();
                for (int r = 0; r < n; r++) {
                    want.append(r == 0 ? "" : ",").append(r).append(':').append(first + i);
                }
                assertEquals(want.toString(), recv[2 + i], "item " + i + " on rank " + me);
            }
            assertEquals(null, recv[0]);
            return null;
        });
    }

    @Worlds.AllSizes
    void boundMarkersHaveNoExtentAndTakeNoSpace(World w) {
        w.run(() -> {
            assertEquals(0, MPI.LB.Extent());
            assertEquals(0, MPI.UB.Extent());
            assertEquals(0, MPI.LB.Size());
            assertEquals(0, MPI.UB.Size());
            // An int at 1 between bounds at 0 and 3: extent 3, one int of data.
            Datatype t = Datatype.Struct(new int[] {1, 1, 1}, new int[] {0, 1, 3},
                new Datatype[] {MPI.LB, MPI.INT, MPI.UB});
            t.Commit();
            assertEquals(3, t.Extent());
            assertEquals(1, t.Size());
            assertEquals(0, t.Lb());
            assertEquals(3, t.Ub());
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int[] out = {-1, 10 + me, -1, -1, 20 + me, -1};
            int[] in = new int[6];
            Status s = MPI.COMM_WORLD.Sendrecv(out, 0, 2, t, (me + 1) % n, 0, in, 0, 2, t, (me + n - 1) % n, 0);
            int left = (me + n - 1) % n;
            assertArrayEquals(new int[] {0, 10 + left, 0, 0, 20 + left, 0}, in);
            assertEquals(2, s.Get_count(t));
            assertEquals(2, s.Get_elements(MPI.INT));
            return null;
        });
    }

    @Worlds.AllSizes
    void anEmptyStructIsLegalAndSendsNothing(World w) {
        w.run(() -> {
            Datatype empty = Datatype.Struct(new int[0], new int[0], new Datatype[0]);
            empty.Commit();
            assertEquals(0, empty.Size());
            assertEquals(0, empty.Extent());
            Datatype zeros = Datatype.Struct(new int[] {0, 0}, new int[] {0, 4}, new Datatype[] {MPI.INT, MPI.INT});
            zeros.Commit();
            assertEquals(0, zeros.Size());
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int[] in = {7, 7};
            Request r = MPI.COMM_WORLD.Irecv(in, 0, 3, empty, (me + n - 1) % n, 1);
            MPI.COMM_WORLD.Send(new int[] {1, 2}, 0, 3, empty, (me + 1) % n, 1);
            Status s = r.Wait();
            assertArrayEquals(new int[] {7, 7}, in);
            assertEquals(0, s.Get_elements(MPI.INT));
            MPI.COMM_WORLD.Sendrecv(new int[] {1}, 0, 2, zeros, (me + 1) % n, 2, in, 0, 2, zeros, (me + n - 1) % n, 2);
            assertArrayEquals(new int[] {7, 7}, in);
            MPI.COMM_WORLD.Bcast(in, 0, 4, empty, 0);
            assertArrayEquals(new int[] {7, 7}, in);
            return null;
        });
    }

    @Worlds.AllSizes
    void theSameArrayAsSendAndReceiveBufferGivesTheRightResult(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int sumRanks = n * (n - 1) / 2;
            double[] a = {me, 2.0 * me, 1};
            MPI.COMM_WORLD.Allreduce(a, 0, a, 0, 3, MPI.DOUBLE, MPI.SUM);
            assertArrayEquals(new double[] {sumRanks, 2.0 * sumRanks, n}, a);
            // Overlapping, not identical: the result written over the data, shifted by one.
            int[] b = {me, me + 1, 0};
            MPI.COMM_WORLD.Allreduce(b, 0, b, 1, 2, MPI.INT, MPI.MAX);
            assertArrayEquals(new int[] {me, n - 1, n}, b);
            int[] c = {me + 1};
            MPI.COMM_WORLD.Reduce(c, 0, c, 0, 1, MPI.INT, MPI.PROD, 0);
            if (me == 0) {
                int f = 1;
                for (int i = 2; i <= n; i++) {
                    f *= i;
                }
                assertEquals(f, c[0]);
            }
            int[] d = {me};
            MPI.COMM_WORLD.Scan(d, 0, d, 0, 1, MPI.INT, MPI.SUM);
            assertEquals(me * (me + 1) / 2, d[0]);
            int[] e = new int[n];
            e[me] = me * 3;
            MPI.COMM_WORLD.Allgather(e, me, 1, MPI.INT, e, 0, 1, MPI.INT);
            for (int i = 0; i < n; i++) {
                assertEquals(i * 3, e[i]);
            }
            int[] f = new int[n];
            java.util.Arrays.fill(f, me);
            MPI.COMM_WORLD.Alltoall(f, 0, 1, MPI.INT, f, 0, 1, MPI.INT);
            for (int i = 0; i < n; i++) {
                assertEquals(i, f[i]);
            }
            int[] g = new int[n];
            java.util.Arrays.fill(g, 1);
            int[] counts = new int[n];
            java.util.Arrays.fill(counts, 1);
            MPI.COMM_WORLD.Reduce_scatter(g, 0, g, 0, counts, MPI.INT, MPI.SUM);
            assertEquals(n, g[0]);
            int[] h = new int[n];
            h[me] = me + 100;
            MPI.COMM_WORLD.Gather(h, me, 1, MPI.INT, h, 0, 1, MPI.INT, 0);
            if (me == 0) {
                for (int i = 0; i < n; i++) {
                    assertEquals(i + 100, h[i]);
                }
            }
            Object[] o = {"r" + me};
            MPI.COMM_WORLD.Allreduce(o, 0, o, 0, 1, MPI.OBJECT, concat());
            StringBuilder want = new StringBuilder();
            for (int r = 0; r < n; r++) {
                want.append(r == 0 ? "" : ",").append('r').append(r);
            }
            assertEquals(want.toString(), o[0]);
            return null;
        });
    }

    /**
     * The same array as send and receive buffer with contributions too large to be copied eagerly,
     * which the others read in place (MolDyn reduces 2048 doubles at size A): the result is as if the
     * send buffer had been read at the call, as in MPJ Express.
     */
    @Worlds.AllSizes
    void theSameArrayBeyondTheEagerLimitGivesTheRightResult(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int m = 3000; // 24 kB of doubles
            double[] a = new double[m];
            for (int i = 0; i < m; i++) {
                a[i] = me * 1000 + i;
            }
            MPI.COMM_WORLD.Allreduce(a, 0, a, 0, m, MPI.DOUBLE, MPI.SUM);
            for (int i = 0; i < m; i++) {
                assertEquals(1000.0 * n * (n - 1) / 2 + (double) n * i, a[i], "Allreduce element " + i);
            }
            // Overlapping, not identical: the result lands one element further on.
            int[] b = new int[m + 1];
            for (int i = 0; i < m; i++) {
                b[i] = me + i;
            }
            MPI.COMM_WORLD.Allreduce(b, 0, b, 1, m, MPI.INT, MPI.MAX);
            for (int i = 0; i < m; i++) {
                assertEquals(n - 1 + i, b[1 + i], "shifted Allreduce element " + i);
            }
            long[] c = new long[m];
            java.util.Arrays.fill(c, me + 1);
            MPI.COMM_WORLD.Reduce(c, 0, c, 0, m, MPI.LONG, MPI.SUM, n - 1);
            if (me == n - 1) {
                for (int i = 0; i < m; i++) {
                    assertEquals((long) n * (n + 1) / 2, c[i], "Reduce element " + i);
                }
            }
            int[] d = new int[m];
            java.util.Arrays.fill(d, me);
            MPI.COMM_WORLD.Scan(d, 0, d, 0, m, MPI.INT, MPI.SUM);
            for (int i = 0; i < m; i++) {
                assertEquals(me * (me + 1) / 2, d[i], "Scan element " + i);
            }
            int[] counts = new int[n];
            java.util.Arrays.fill(counts, m);
            int[] g = new int[n * m];
            for (int i = 0; i < n * m; i++) {
                g[i] = i + me;
            }
            MPI.COMM_WORLD.Reduce_scatter(g, 0, g, 0, counts, MPI.INT, MPI.SUM);
            for (int i = 0; i < m; i++) {
                assertEquals(n * (me * m + i) + n * (n - 1) / 2, g[i], "Reduce_scatter element " + i);
            }
            // Gathers: each rank's block starts where block 0 of the result goes.
            int[] e = new int[n * m];
            java.util.Arrays.fill(e, 0, m, me);
            MPI.COMM_WORLD.Allgather(e, 0, m, MPI.INT, e, 0, m, MPI.INT);
            assertBlocks(e, n, m, j -> j, "Allgather");
            int[] ev = new int[n * m];
            java.util.Arrays.fill(ev, 0, m, me);
            int[] displs = new int[n];
            for (int j = 0; j < n; j++) {
                displs[j] = j * m;
            }
            MPI.COMM_WORLD.Allgatherv(ev, 0, m, MPI.INT, ev, 0, counts, displs, MPI.INT);
            assertBlocks(ev, n, m, j -> j, "Allgatherv");
            int[] h = new int[n * m];
            java.util.Arrays.fill(h, 0, m, me + 7);
            MPI.COMM_WORLD.Gather(h, 0, m, MPI.INT, h, 0, m, MPI.INT, 0);
            if (me == 0) {
                assertBlocks(h, n, m, j -> j + 7, "Gather");
            }
            int[] hv = new int[n * m];
            java.util.Arrays.fill(hv, 0, m, me + 9);
            MPI.COMM_WORLD.Gatherv(hv, 0, m, MPI.INT, hv, 0, counts, displs, MPI.INT, 0);
            if (me == 0) {
                assertBlocks(hv, n, m, j -> j + 9, "Gatherv");
            }
            // Scatters and all-to-all: the root's (each rank's) block j goes to rank j, every block
            // received over block 0 of the data.
            int[] sc = new int[n * m];
            for (int j = 0; j < n; j++) {
                java.util.Arrays.fill(sc, j * m, (j + 1) * m, j * 10 + 1);
            }
            MPI.COMM_WORLD.Scatter(sc, 0, m, MPI.INT, sc, 0, m, MPI.INT, n - 1);
            assertBlocks(sc, 1, m, j -> me * 10 + 1, "Scatter");
            for (int j = 0; j < n; j++) {
                java.util.Arrays.fill(sc, j * m, (j + 1) * m, j * 10 + 2);
            }
            MPI.COMM_WORLD.Scatterv(sc, 0, counts, displs, MPI.INT, sc, 0, m, MPI.INT, n - 1);
            assertBlocks(sc, 1, m, j -> me * 10 + 2, "Scatterv");
            int[] f = new int[n * m];
            for (int j = 0; j < n; j++) {
                java.util.Arrays.fill(f, j * m, (j + 1) * m, me * 100 + j);
            }
            MPI.COMM_WORLD.Alltoall(f, 0, m, MPI.INT, f, 0, m, MPI.INT);
            assertBlocks(f, n, m, j -> j * 100 + me, "Alltoall");
            for (int j = 0; j < n; j++) {
                java.util.Arrays.fill(f, j * m, (j + 1) * m, me * 100 + j + 50);
            }
            MPI.COMM_WORLD.Alltoallv(f, 0, counts, displs, MPI.INT, f, 0, counts, displs, MPI.INT);
            assertBlocks(f, n, m, j -> j * 100 + me + 50, "Alltoallv");
            return null;
        });
    }

    /**
     * The same rule where blocks of different types share one ByteBuffer (Open MPI's allToAllw, INT
     * or DOUBLE by parity, displacements in bytes): each block arrives as sent.
     */
    @Worlds.AllSizes
    void theSameByteBufferInAlltoallwOfMixedTypesGivesTheRightResult(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.getSize();
            int me = MPI.COMM_WORLD.getRank();
            java.nio.ByteBuffer b = MPI.newByteBuffer(16 * n);
            int[] counts = new int[n];
            int[] displs = new int[n];
            Datatype[] types = new Datatype[n];
            for (int j = 0; j < n; j++) {
                boolean ints = (me + j) % 2 == 0;
                counts[j] = ints ? 2 : 1;
                displs[j] = 16 * j;
                types[j] = ints ? MPI.INT : MPI.DOUBLE;
                if (ints) {
                    b.putInt(16 * j, 100 * me + j).putInt(16 * j + 4, -me);
                } else {
                    b.putDouble(16 * j, 100 * me + j + 0.5);
                }
            }
            MPI.COMM_WORLD.allToAllw(b, counts, displs, types, b, counts, displs, types);
            for (int j = 0; j < n; j++) {
                if ((me + j) % 2 == 0) {
                    assertEquals(100 * j + me, b.getInt(16 * j), "block " + j);
                    assertEquals(-j, b.getInt(16 * j + 4), "block " + j);
                } else {
                    assertEquals(100 * j + me + 0.5, b.getDouble(16 * j), "block " + j);
                }
            }
            return null;
        });
    }

    /** Blocks 0..n-1 of m ints each hold {@code want(j)}. */
    private static void assertBlocks(int[] a, int n, int m, java.util.function.IntUnaryOperator want, String call) {
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < m; i++) {
                assertEquals(want.applyAsInt(j), a[j * m + i], call + ": block " + j + " element " + i);
            }
        }
    }
}
