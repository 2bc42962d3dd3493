package org.mpjlite.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import mpi.CartComm;
import mpi.Comm;
import mpi.Datatype;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/**
 * Open MPI's iDup (non-blocking: a rank may duplicate, then wait for a message from a rank that
 * duplicates only later), getRequest, disconnect, splitType, createGroup (only the group's ranks
 * call it), and datatype attributes (per rank, copied by dup).
 */
class CommCreationExtrasTest {
    @Jobs.AnyRanks
    void iDupIsNonBlockingAndKeepsTopologyAndAttributes(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int n = MPI.COMM_WORLD.getSize();
            int key = Comm.createKeyval();
            MPI.COMM_WORLD.setAttr(key, "v");
            // Rank 0 duplicates, then waits for rank n-1, which duplicates only after sending: a
            // blocking duplication would deadlock here.
            Intracomm d;
            if (me == 0 && n > 1) {
                d = MPI.COMM_WORLD.iDup();
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, n - 1, 3);
            } else {
                if (me == n - 1) {
                    MPI.COMM_WORLD.send(new int[] {1}, 1, MPI.INT, 0, 3);
                }
                d = MPI.COMM_WORLD.iDup();
            }
            if (n == 1) {
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 3);
            }
            Request r = d.getRequest();
            r.waitFor();
            assertTrue(r.isNull());
            assertEquals(me, d.getRank());
            assertEquals("v", d.getAttr(key));
            // Its own context: traffic on it does not meet traffic on the parent.
            int[] v = {me};
            d.allReduce(v, 1, MPI.INT, MPI.SUM);
            assertEquals(n * (n - 1) / 2, v[0]);
            MPI.COMM_WORLD.send(new int[] {7}, 1, MPI.INT, (me + 1) % n, 0);
            d.send(new int[] {8}, 1, MPI.INT, (me + 1) % n, 0);
            int[] got = new int[1];
            d.recv(got, 1, MPI.INT, (me + n - 1) % n, 0);
            assertEquals(8, got[0]);
            MPI.COMM_WORLD.recv(got, 1, MPI.INT, (me + n - 1) % n, 0);
            assertEquals(7, got[0]);
            // Two in a row, and a duplicate of the duplicate: distinct, all usable.
            Intracomm e = d.iDup();
            Intracomm f = d.iDup();
            int[] x = {1};
            e.allReduce(x, 1, MPI.INT, MPI.SUM);
            f.barrier();
            assertEquals(n, x[0]);
            CartComm cart = MPI.COMM_WORLD.createCart(new int[] {n}, new boolean[] {true}, false);
            CartComm cd = cart.iDup();
            assertEquals(MPI.CART, cd.getTopology());
            assertEquals((me + 1) % n, cd.shift(0, 1).getRankDest());
            for (Comm c : new Comm[] {cd, f, e}) {
                c.disconnect();
            }
            d.free();
            cart.free();
            return null;
        });
    }

    @Jobs.MultiRanks
    void intercommIDup(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int n = MPI.COMM_WORLD.getSize();
            Intracomm half = MPI.COMM_WORLD.split(me % 2, me);
            Intercomm ic = MPI.COMM_WORLD.createIntercomm(half, 0, me % 2 == 0 ? 1 : 0, 9);
            Intercomm d = ic.iDup();
            assertEquals(ic.getRemoteSize(), d.getRemoteSize());
            int[] got = {-1};
            Request r = d.iRecv(got, 1, MPI.INT, 0, 4);
            if (d.getRank() == 0) {
                for (int i = 0; i < d.getRemoteSize(); i++) {
                    d.send(new int[] {100 + me}, 1, MPI.INT, i, 4);
                }
            }
            r.waitFor();
            assertEquals(100 + (me % 2 == 0 ? 1 : 0), got[0]);
            d.free();
            return n;
        });
    }

    @Jobs.AnyRanks
    void splitTypeAndCreateGroup(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int n = MPI.COMM_WORLD.getSize();
            Intracomm shared = MPI.COMM_WORLD.splitType(Comm.TYPE_SHARED, n - me, null);
            assertEquals(n, shared.getSize());
            assertEquals(n - 1 - me, shared.getRank(), "ordered by key");
            Intracomm none = MPI.COMM_WORLD.splitType(MPI.UNDEFINED, 0, null);
            assertTrue(none.isNull());
            assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.splitType(5, 0, null), "splitType", "5");
            // Only the even ranks call createGroup; the odd ones go on to other work.
            Group world = MPI.COMM_WORLD.getGroup();
            Group even = world.incl(java.util.stream.IntStream.range(0, (n + 1) / 2).map(i -> 2 * i).toArray());
            if (me % 2 == 0) {
                Intracomm c = MPI.COMM_WORLD.createGroup(even, 5);
                Intracomm c2 = MPI.COMM_WORLD.createGroup(even, 6);
                assertEquals((n + 1) / 2, c.getSize());
                assertEquals(me / 2, c.getRank());
                int[] v = {me};
                c.allReduce(v, 1, MPI.INT, MPI.SUM);
                int want = 0;
                for (int r = 0; r < n; r += 2) {
                    want += r;
                }
                assertEquals(want, v[0]);
                c2.barrier();
                c.free();
                c2.free();
            } else {
                assertTrue(MPI.COMM_WORLD.createGroup(even, 5).isNull(), "not in the group: null communicator");
            }
            assertMpiError(MPI.ERR_TAG, () -> MPI.COMM_WORLD.createGroup(even, -1), "createGroup");
            MPI.COMM_WORLD.barrier();
            return null;
        });
    }

    @Jobs.MultiRanks
    void datatypeAttributesArePerRank(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int key = Datatype.createKeyval();
            // Every rank of the job sees its own value on the shared predefined type.
            MPI.INT.setAttr(key, "rank " + me);
            MPI.COMM_WORLD.barrier();
            assertEquals("rank " + me, MPI.INT.getAttr(key));
            Datatype v = Datatype.createVector(2, 1, 2, MPI.INT);
            assertNull(v.getAttr(key));
            v.setAttr(key, me);
            assertEquals(me, v.dup().getAttr(key), "dup copies attributes");
            v.deleteAttr(key);
            assertNull(v.getAttr(key));
            MPI.INT.deleteAttr(key);
            MPI.COMM_WORLD.barrier();
            Datatype.freeKeyval(key);
            assertMpiError(MPI.ERR_KEYVAL, () -> MPI.INT.setAttr(key, 1), "setAttr");
            assertMpiError(MPI.ERR_KEYVAL, () -> MPI.INT.setAttr(MPI.TAG_UB, 1), "predefined");
            return null;
        });
    }
}
