package org.mpjlite.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import mpi.MPI;
import mpi.Request;
import org.mpjlite.p2p.Jobs.World;

/**
 * The non-blocking collectives: results against the blocking ones, overlap with computation (a
 * rank that never calls MPI again until it tests still sees its request complete, because the last
 * rank to arrive does the work), many in flight at once (more than the engine's slots), and
 * interleaving with point-to-point traffic on the same communicator.
 */
class NonBlockingTest {
    @Worlds.AllSizes
    void everyOperationMatchesItsBlockingForm(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            int c = 5;
            int root = n - 1;
            IntBuffer mine = MPI.newIntBuffer(n * c);
            for (int i = 0; i < n * c; i++) {
                mine.put(i, me * 100 + i);
            }
            IntBuffer bc = MPI.newIntBuffer(c);
            if (me == root) {
                for (int i = 0; i < c; i++) {
                    bc.put(i, 7 * i);
                }
            }
            IntBuffer gathered = MPI.newIntBuffer(n * c);
            IntBuffer scattered = MPI.newIntBuffer(c);
            IntBuffer allGathered = MPI.newIntBuffer(n * c);
            IntBuffer toAll = MPI.newIntBuffer(n * c);
            IntBuffer sum = MPI.newIntBuffer(c);
            IntBuffer reduced = MPI.newIntBuffer(c);
            IntBuffer scan = MPI.newIntBuffer(c);
            IntBuffer exScan = MPI.newIntBuffer(c);
            IntBuffer block = MPI.newIntBuffer(c);
            int[] counts = new int[n];
            int[] displs = new int[n];
            for (int j = 0; j < n; j++) {
                counts[j] = c;
                displs[j] = j * c;
            }
            IntBuffer gatheredV = MPI.newIntBuffer(n * c);
            IntBuffer allGatheredV = MPI.newIntBuffer(n * c);
            IntBuffer scatteredV = MPI.newIntBuffer(c);
            IntBuffer toAllV = MPI.newIntBuffer(n * c);
            IntBuffer inPlace = MPI.newIntBuffer(c);
            for (int i = 0; i < c; i++) {
                inPlace.put(i, me + i);
            }
            Request[] reqs = {
                MPI.COMM_WORLD.iBarrier(),
                MPI.COMM_WORLD.iBcast(bc, c, MPI.INT, root),
                MPI.COMM_WORLD.iGather(MPI.slice(mine, me * c), c, MPI.INT, gathered, c, MPI.INT, root),
                MPI.COMM_WORLD.iScatter(mine, c, MPI.INT, scattered, c, MPI.INT, root),
                MPI.COMM_WORLD.iAllGather(MPI.slice(mine, me * c), c, MPI.INT, allGathered, c, MPI.INT),
                MPI.COMM_WORLD.iAllToAll(mine, c, MPI.INT, toAll, c, MPI.INT),
                MPI.COMM_WORLD.iAllReduce(MPI.slice(mine, 0), sum, c, MPI.INT, MPI.SUM),
                MPI.COMM_WORLD.iReduce(mine, reduced, c, MPI.INT, MPI.MAX, root),
                MPI.COMM_WORLD.iScan(mine, scan, c, MPI.INT, MPI.SUM),
                MPI.COMM_WORLD.iExScan(mine, exScan, c, MPI.INT, MPI.SUM),
                MPI.COMM_WORLD.iReduceScatterBlock(mine, block, c, MPI.INT, MPI.SUM),
                MPI.COMM_WORLD.iGatherv(MPI.slice(mine, me * c), c, MPI.INT, gatheredV, counts, displs, MPI.INT, root),
                MPI.COMM_WORLD.iAllGatherv(MPI.slice(mine, me * c), c, MPI.INT, allGatheredV, counts, displs, MPI.INT),
                MPI.COMM_WORLD.iScatterv(mine, counts, displs, MPI.INT, scatteredV, c, MPI.INT, root),
                MPI.COMM_WORLD.iAllToAllv(mine, counts, displs, MPI.INT, toAllV, counts, displs, MPI.INT),
                MPI.COMM_WORLD.iAllReduce(inPlace, c, MPI.INT, MPI.SUM),
            };
            Request.waitAll(reqs);
            for (int i = 0; i < c; i++) {
                assertEquals(7 * i, bc.get(i), "iBcast");
                assertEquals(root * 100 + me * c + i, scattered.get(i), "iScatter");
                assertEquals(root * 100 + me * c + i, scatteredV.get(i), "iScatterv");
                int s = 0;
                int x = 0;
                int bs = 0;
                for (int r = 0; r < n; r++) {
                    s += r * 100 + i;
                    if (r < me) {
                        x += r * 100 + i;
                    }
                    bs += r * 100 + me * c + i;
                }
                assertEquals(s, sum.get(i), "iAllReduce");
                assertEquals(n * (n - 1) / 2 + n * i, inPlace.get(i), "iAllReduce in place");
                assertEquals(bs, block.get(i), "iReduceScatterBlock");
                assertEquals(me * (me + 1) / 2 * 100 + (me + 1) * i, scan.get(i), "iScan");
                if (me > 0) {
                    assertEquals(x, exScan.get(i), "iExScan");
                }
                if (me == root) {
                    assertEquals((n - 1) * 100 + i, reduced.get(i), "iReduce");
                }
                for (int j = 0; j < n; j++) {
                    assertEquals(j * 100 + j * c + i, allGathered.get(j * c + i), "iAllGather");
                    assertEquals(j * 100 + j * c + i, allGatheredV.get(j * c + i), "iAllGatherv");
                    assertEquals(j * 100 + me * c + i, toAll.get(j * c + i), "iAllToAll");
                    assertEquals(j * 100 + me * c + i, toAllV.get(j * c + i), "iAllToAllv");
                    if (me == root) {
                        assertEquals(j * 100 + j * c + i, gathered.get(j * c + i), "iGather");
                        assertEquals(j * 100 + j * c + i, gatheredV.get(j * c + i), "iGatherv");
                    }
                }
            }
            return null;
        });
    }

    /**
     * Rank 0 starts the collective and then only computes, testing now and then; the others join
     * late. Its request completes without rank 0 ever blocking in MPI.
     */
    @Worlds.MultiSizes
    void completesWhileTheCallerComputes(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            DoubleBuffer x = MPI.newDoubleBuffer(1);
            x.put(0, me);
            if (me == 0) {
                Request r = MPI.COMM_WORLD.iAllReduce(x, 1, MPI.DOUBLE, MPI.SUM);
                while (!r.test()) {
                    Thread.onSpinWait();
                }
            } else {
                Thread.sleep(20);
                MPI.COMM_WORLD.iAllReduce(x, 1, MPI.DOUBLE, MPI.SUM).waitFor();
            }
            assertEquals(n * (n - 1) / 2.0, x.get(0));
            return null;
        });
    }

    /** Far more collectives in flight than the engine has slots, each waited for only at the end. */
    @Worlds.AllSizes
    void manyInFlight(World w) {
        int k = 100;
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            List<Request> reqs = new ArrayList<>();
            int[][] bufs = new int[k][];
            for (int i = 0; i < k; i++) {
                bufs[i] = new int[] {me + i};
                reqs.add(MPI.COMM_WORLD.iAllReduce(bufs[i], 1, MPI.INT, MPI.SUM));
                if (i % 10 == 0) {
                    reqs.add(MPI.COMM_WORLD.iBarrier());
                }
            }
            Request.waitAll(reqs.toArray(new Request[0]));
            for (int i = 0; i < k; i++) {
                assertEquals(n * (n - 1) / 2 + n * i, bufs[i][0], "collective " + i);
            }
            return null;
        });
    }

    /** Collectives never match point-to-point traffic, even with every tag and source a wildcard. */
    @Worlds.MultiSizes
    void doNotMatchPointToPoint(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int[] in = new int[1];
            Request recv = MPI.COMM_WORLD.Irecv(in, 0, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            int[] b = {me == 0 ? 42 : 0};
            Request bc = MPI.COMM_WORLD.iBcast(b, 1, MPI.INT, 0);
            bc.waitFor();
            assertEquals(42, b[0]);
            // No rank sends before the barrier below.
            assertTrue(recv.Test() == null, "a collective matched a point-to-point receive");
            MPI.COMM_WORLD.Barrier();
            MPI.COMM_WORLD.Send(new int[] {me}, 0, 1, MPI.INT, (me + 1) % n, 3);
            recv.Wait();
            assertEquals((me + n - 1) % n, in[0]);
            return null;
        });
    }

    @Worlds.MultiSizes
    void largeNonBlockingBcastAndAllreduce(World w) {
        int c = 100_000;
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            ByteBuffer b = MPI.newByteBuffer(c);
            float[] f = new float[c];
            java.util.Arrays.fill(f, me);
            float[] g = new float[c];
            if (me == 1) {
                for (int i = 0; i < c; i++) {
                    b.put(i, (byte) i);
                }
            }
            Request[] r = {MPI.COMM_WORLD.iBcast(b, c, MPI.BYTE, 1), MPI.COMM_WORLD.iAllReduce(f, g, c, MPI.FLOAT, MPI.SUM)};
            Request.waitAll(r);
            for (int i = 0; i < c; i += 997) {
                assertEquals((byte) i, b.get(i));
                assertEquals(n * (n - 1) / 2f, g[i]);
            }
            float[] expect = new float[c];
            java.util.Arrays.fill(expect, me);
            assertArrayEquals(expect, f, "send buffer unchanged");
            return null;
        });
    }
}
