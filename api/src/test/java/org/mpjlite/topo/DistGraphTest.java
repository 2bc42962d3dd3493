package org.mpjlite.topo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.util.ArrayList;
import java.util.List;
import mpi.DistGraphNeighbors;
import mpi.GraphComm;
import mpi.Info;
import mpi.MPI;
import org.mpjlite.p2p.Jobs.World;

/**
 * Distributed graphs: createDistGraphAdjacent and createDistGraph (edges given by any rank), with and
 * without weights; getDistGraphNeighbors, the DIST_GRAPH topology, duplicates, neighbourhood
 * collectives along the edges (several edges between the same ranks paired in order), and errors.
 */
class DistGraphTest {
    private static int[] sources(DistGraphNeighbors nb) {
        int[] a = new int[nb.getInDegree()];
        for (int i = 0; i < a.length; i++) {
            a[i] = nb.getSource(i);
        }
        return a;
    }

    private static int[] destinations(DistGraphNeighbors nb) {
        int[] a = new int[nb.getOutDegree()];
        for (int i = 0; i < a.length; i++) {
            a[i] = nb.getDestination(i);
        }
        return a;
    }

    @Topologies.Sizes
    void adjacentRingWithWeights(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int n = MPI.COMM_WORLD.getSize();
            int left = (me + n - 1) % n;
            int right = (me + 1) % n;
            // In from the left (weight = its rank), out to the right twice (weights me and me + 1):
            // so in from the left twice as well.
            GraphComm g = MPI.COMM_WORLD.createDistGraphAdjacent(new int[] {left, left}, new int[] {left, left + 1},
                new int[] {right, right}, new int[] {me, me + 1}, new Info(), false);
            assertEquals(MPI.DIST_GRAPH, g.getTopology());
            assertEquals(MPI.DIST_GRAPH, g.Topo_test());
            assertEquals(me, g.getRank());
            DistGraphNeighbors nb = g.getDistGraphNeighbors();
            assertTrue(nb.isWeighted());
            assertArrayEquals(new int[] {left, left}, sources(nb));
            assertArrayEquals(new int[] {right, right}, destinations(nb));
            assertEquals(left + 1, nb.getSourceWeight(1));
            assertEquals(me + 1, nb.getDestinationWeight(1));
            // Block j to out-edge j arrives as the block of in-edge j at the right neighbour.
            int[] got = {-1, -1, -1, -1};
            g.neighborAllToAll(new int[] {me * 10, me * 10 + 1, me * 10 + 2, me * 10 + 3}, 2, MPI.INT, got, 2,
                MPI.INT);
            assertArrayEquals(new int[] {left * 10, left * 10 + 1, left * 10 + 2, left * 10 + 3}, got);
            GraphComm d = g.dup();
            assertEquals(MPI.DIST_GRAPH, d.getTopology());
            int[] gathered = {-1, -1};
            d.iNeighborAllGather(new int[] {me}, 1, MPI.INT, gathered, 1, MPI.INT).waitFor();
            assertArrayEquals(new int[] {left, left}, gathered);
            assertMpiError(MPI.ERR_TOPOLOGY, d::getDims, "getDims", "distributed graph");
            assertMpiError(MPI.ERR_TOPOLOGY, () -> d.getNeighbors(0), "getNeighbors");
            d.free();
            g.free();
            // Without weights: not weighted, weights 0; a rank with no edges at all.
            GraphComm u = MPI.COMM_WORLD.createDistGraphAdjacent(me == 0 ? new int[0] : new int[] {0},
                me == 0 ? allBut(0, n) : new int[0], null, false);
            DistGraphNeighbors un = u.getDistGraphNeighbors();
            assertFalse(un.isWeighted());
            assertEquals(me == 0 ? n - 1 : 0, un.getOutDegree());
            assertEquals(me == 0 ? 0 : 1, un.getInDegree());
            int[] fromRoot = {-1};
            u.neighborAllGather(new int[] {42 + me}, 1, MPI.INT, me == 0 ? new int[0] : fromRoot, 1, MPI.INT);
            assertEquals(me == 0 ? -1 : 42, fromRoot[0]);
            return null;
        });
    }

    /** Every rank but {@code skip}, in order. */
    private static int[] allBut(int skip, int n) {
        int[] a = new int[n - 1];
        for (int r = 0, i = 0; r < n; r++) {
            if (r != skip) {
                a[i++] = r;
            }
        }
        return a;
    }

    /**
     * The edges of the general-form test, as {giver, source, destination, weight}: each rank gives
     * the edge from itself to the next rank and, for rank 0, from every rank to rank 0 (including
     * 0 to itself), so the edges of a rank come from several givers.
     */
    private static List<int[]> edges(int n) {
        List<int[]> e = new ArrayList<>();
        for (int giver = 0; giver < n; giver++) {
            if (giver == 0) {
                for (int s = 0; s < n; s++) {
                    e.add(new int[] {0, s, 0, 100 + s});
                }
            }
            e.add(new int[] {giver, giver, (giver + 1) % n, giver});
        }
        return e;
    }

    @Topologies.Sizes
    void generalFormGathersEveryRanksEdges(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int n = MPI.COMM_WORLD.getSize();
            List<int[]> all = edges(n);
            List<Integer> srcs = new ArrayList<>();
            List<Integer> degs = new ArrayList<>();
            List<Integer> dsts = new ArrayList<>();
            List<Integer> wts = new ArrayList<>();
            for (int[] e : all) {
                if (e[0] == me) {
                    srcs.add(e[1]);
                    degs.add(1);
                    dsts.add(e[2]);
                    wts.add(e[3]);
                }
            }
            GraphComm g = MPI.COMM_WORLD.createDistGraph(ints(srcs), ints(degs), ints(dsts), ints(wts), new Info(),
                true);
            List<Integer> wantIn = new ArrayList<>();
            List<Integer> wantInW = new ArrayList<>();
            List<Integer> wantOut = new ArrayList<>();
            for (int[] e : all) {
                if (e[2] == me) {
                    wantIn.add(e[1]);
                    wantInW.add(e[3]);
                }
                if (e[1] == me) {
                    wantOut.add(e[2]);
                }
            }
            DistGraphNeighbors nb = g.getDistGraphNeighbors();
            assertTrue(nb.isWeighted());
            assertArrayEquals(ints(wantIn), sources(nb));
            assertArrayEquals(ints(wantOut), destinations(nb));
            for (int i = 0; i < nb.getInDegree(); i++) {
                assertEquals(wantInW.get(i), nb.getSourceWeight(i));
            }
            // Along the edges: each out-edge carries its weight; each in-edge must receive its own weight.
            int[] send = new int[nb.getOutDegree()];
            for (int j = 0; j < send.length; j++) {
                send[j] = nb.getDestinationWeight(j);
            }
            int[] got = new int[nb.getInDegree()];
            int[] counts = new int[got.length];
            int[] displs = new int[got.length];
            for (int i = 0; i < got.length; i++) {
                counts[i] = 1;
                displs[i] = got.length - 1 - i;
            }
            int[] sc = new int[send.length];
            int[] sd = new int[send.length];
            for (int j = 0; j < send.length; j++) {
                sc[j] = 1;
                sd[j] = j;
            }
            g.iNeighborAllToAllv(send, sc, sd, MPI.INT, got, counts, displs, MPI.INT).waitFor();
            for (int i = 0; i < got.length; i++) {
                assertEquals(wantInW.get(i), got[displs[i]], "in-edge " + i + " of rank " + me);
            }
            // Without weights, the same graph.
            GraphComm u = MPI.COMM_WORLD.createDistGraph(ints(srcs), ints(degs), ints(dsts), null, false);
            assertFalse(u.getDistGraphNeighbors().isWeighted());
            assertArrayEquals(ints(wantIn), sources(u.getDistGraphNeighbors()));
            return null;
        });
    }

    @Topologies.Sizes
    void errors(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.getSize();
            assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.createDistGraphAdjacent(new int[] {n}, new int[0], null,
                false), "createDistGraphAdjacent", "sources[0]");
            assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.createDistGraphAdjacent(new int[] {0}, new int[] {-1},
                new int[0], new int[0], null, false), "sourceWeights[0]");
            assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.createDistGraph(new int[] {0}, new int[] {2},
                new int[] {0}, null, false), "destinations");
            GraphComm plain = MPI.COMM_WORLD.createGraph(new int[] {0}, new int[0], false);
            if (MPI.COMM_WORLD.getRank() == 0) {
                assertMpiError(MPI.ERR_TOPOLOGY, plain::getDistGraphNeighbors, "getDistGraphNeighbors");
            }
            return null;
        });
    }

    private static int[] ints(List<Integer> list) {
        return list.stream().mapToInt(Integer::intValue).toArray();
    }
}
