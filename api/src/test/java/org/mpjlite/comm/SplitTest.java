package org.mpjlite.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import mpi.Intracomm;
import mpi.MPI;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/** Split, Dup and clone: membership, rank order, and traffic on the new communicators. */
class SplitTest {
    @Jobs.AnyRanks
    void splitByParityOrdersByKeyAndCarriesTraffic(World w) {
        List<int[]> out = w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            // Reverse order within each color: key = -rank.
            Intracomm half = MPI.COMM_WORLD.Split(me % 2, -me);
            int size = half.Size();
            int rank = half.Rank();
            // A ring on the sub-communicator with the same tag as a ring on the world: no cross-talk.
            int[] got = new int[1];
            int[] gotWorld = new int[1];
            int right = (rank + 1) % size;
            int left = (rank + size - 1) % size;
            half.Sendrecv(new int[] {me}, 0, 1, MPI.INT, right, 5, got, 0, 1, MPI.INT, left, 5);
            MPI.COMM_WORLD.Sendrecv(new int[] {100 + me}, 0, 1, MPI.INT, (me + 1) % n, 5, gotWorld, 0, 1, MPI.INT,
                (me + n - 1) % n, 5);
            int[] sum = new int[1];
            half.Allreduce(new int[] {me}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
            return new int[] {size, rank, got[0], gotWorld[0], sum[0]};
        });
        int n = w.size();
        for (int me = 0; me < n; me++) {
            int color = me % 2;
            int size = 0;
            int sum = 0;
            for (int j = color; j < n; j += 2) {
                size++;
                sum += j;
            }
            // Members of a color in decreasing world rank: rank 0 is the highest.
            int highest = color + 2 * (size - 1);
            int rank = (highest - me) / 2;
            int leftRank = (rank + size - 1) % size;
            int leftWorld = highest - 2 * leftRank;
            int[] r = out.get(me);
            assertArrayEquals(new int[] {size, rank, leftWorld, 100 + (me + n - 1) % n, sum}, r, "rank " + me);
        }
    }

    @Jobs.AnyRanks
    void dupIsolatesTrafficWithTheSameTag(World w) {
        List<int[]> out = w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            Intracomm dup = MPI.COMM_WORLD.Dup();
            Intracomm clone = MPI.COMM_WORLD.clone();
            int to = (me + 1) % n;
            int from = (me + n - 1) % n;
            // Sent first on the world, received first on the duplicates: contexts keep them apart.
            mpi.Request a = MPI.COMM_WORLD.Isend(new int[] {1}, 0, 1, MPI.INT, to, 0);
            mpi.Request b = dup.Isend(new int[] {2}, 0, 1, MPI.INT, to, 0);
            mpi.Request c = clone.Isend(new int[] {3}, 0, 1, MPI.INT, to, 0);
            int[] x = new int[3];
            clone.Recv(x, 2, 1, MPI.INT, from, MPI.ANY_TAG);
            dup.Recv(x, 1, 1, MPI.INT, MPI.ANY_SOURCE, 0);
            MPI.COMM_WORLD.Recv(x, 0, 1, MPI.INT, from, 0);
            a.Wait();
            b.Wait();
            c.Wait();
            assertEquals(me, dup.Rank());
            assertEquals(n, clone.Size());
            return x;
        });
        for (int[] x : out) {
            assertArrayEquals(new int[] {1, 2, 3}, x);
        }
    }

    @Jobs.AnyRanks
    void undefinedColorGivesNullInMpiJavaAndANullCommunicatorInOpenMpi(World w) {
        List<Boolean> out = w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            Intracomm a = MPI.COMM_WORLD.Split(me == 0 ? 0 : MPI.UNDEFINED, 0);
            Intracomm b = MPI.COMM_WORLD.split(me == 0 ? 0 : MPI.UNDEFINED, 0);
            if (me == 0) {
                assertEquals(1, a.Size());
                assertEquals(1, b.getSize());
                assertTrue(!b.isNull());
                a.Barrier();
                return true;
            }
            assertNull(a);
            assertTrue(b.isNull());
            Jobs.assertMpiError(MPI.ERR_COMM, b::getRank, "getRank", "null communicator");
            return true;
        });
        assertEquals(w.size(), out.size());
    }

    @Jobs.MultiRanks
    void nestedSplitsAndManyCommunicatorsAtOnce(World w) {
        List<Integer> out = w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            Intracomm[] comms = new Intracomm[20];
            for (int i = 0; i < comms.length; i++) {
                Intracomm parent = i == 0 ? MPI.COMM_WORLD : comms[i - 1];
                comms[i] = parent.Split(0, (i % 2 == 0 ? 1 : -1) * parent.Rank());
            }
            // Every communicator carries a message round its ring at the same time, same tag.
            mpi.Request[] sends = new mpi.Request[comms.length];
            int[][] got = new int[comms.length][1];
            for (int i = 0; i < comms.length; i++) {
                Intracomm c = comms[i];
                int s = c.Size();
                sends[i] = c.Isend(new int[] {i * 1000 + c.Rank()}, 0, 1, MPI.INT, (c.Rank() + 1) % s, 9);
            }
            int ok = 0;
            for (int i = comms.length - 1; i >= 0; i--) {
                Intracomm c = comms[i];
                int s = c.Size();
                c.Recv(got[i], 0, 1, MPI.INT, MPI.ANY_SOURCE, 9);
                if (got[i][0] == i * 1000 + (c.Rank() + s - 1) % s) {
                    ok++;
                }
            }
            mpi.Request.Waitall(sends);
            int[] total = new int[1];
            comms[comms.length - 1].Allreduce(new int[] {me}, 0, total, 0, 1, MPI.INT, MPI.SUM);
            return ok * 1000 + total[0];
        });
        int n = w.size();
        for (int r : out) {
            assertEquals(20 * 1000 + n * (n - 1) / 2, r);
        }
    }

    @Jobs.MultiRanks
    void negativeColorIsAnError(World w) {
        w.run(() -> {
            Jobs.assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Split(-5, 0), "Split", "color", "-5");
            return null;
        });
    }
}
