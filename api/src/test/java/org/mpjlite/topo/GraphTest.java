package org.mpjlite.topo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import mpi.GraphComm;
import mpi.GraphParms;
import mpi.Graphcomm;
import mpi.MPI;
import mpi.Request;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/** Graph communicators in both dialects: neighbours, traffic along the edges, duplicates, errors. */
class GraphTest {
    /** A ring plus spokes from node 0: node i's neighbours are i-1, i+1 and 0 (repeats and self-loops kept). */
    private static int[][] wheel(int n) {
        int[] index = new int[n];
        int[] edges = new int[3 * n];
        for (int i = 0; i < n; i++) {
            edges[3 * i] = (i + n - 1) % n;
            edges[3 * i + 1] = (i + 1) % n;
            edges[3 * i + 2] = 0;
            index[i] = 3 * (i + 1);
        }
        return new int[][] {index, edges};
    }

    @Topologies.Sizes
    void neighboursAndTrafficAlongTheEdges(World w) {
        List<int[]> out = w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int[][] g = wheel(n);
            Graphcomm graph = MPI.COMM_WORLD.Create_graph(g[0], g[1], true);
            GraphComm og = MPI.COMM_WORLD.createGraph(g[0], g[1], false);
            assertEquals(me, graph.Rank());
            assertEquals(MPI.GRAPH, graph.Topo_test());
            assertEquals(MPI.GRAPH, og.getTopology());
            GraphParms p = graph.Get();
            assertArrayEquals(g[0], p.index);
            assertArrayEquals(g[1], p.edges);
            GraphParms q = og.getDims();
            assertEquals(n, q.getIndexCount());
            assertEquals(3 * n, q.getEdgeCount());
            assertEquals(g[0][n - 1], q.getIndex(n - 1));
            assertEquals(g[1][1], q.getEdge(1));
            for (int r = 0; r < n; r++) {
                int[] want = {(r + n - 1) % n, (r + 1) % n, 0};
                assertArrayEquals(want, graph.Neighbours(r));
                assertArrayEquals(want, og.getNeighbors(r));
            }
            // Every rank sends its rank to each neighbour, tagged by the edge's position; every node
            // receives from each of its neighbours what that neighbour sent along the edge back.
            // The wheel is not symmetric (0 has spokes out but not every spoke in), so counts differ:
            // collect the in-edges from the whole graph.
            int[] mine = graph.Neighbours(me);
            Request[] sends = new Request[mine.length];
            for (int k = 0; k < mine.length; k++) {
                sends[k] = og.iSend(new int[] {1000 * me + k}, 1, MPI.INT, mine[k], k);
            }
            int[] got = new int[0];
            for (int r = 0; r < n; r++) {
                int[] theirs = og.getNeighbors(r);
                for (int k = 0; k < theirs.length; k++) {
                    if (theirs[k] == me) {
                        int[] x = {-1};
                        og.recv(x, 1, MPI.INT, r, k);
                        got = Arrays.copyOf(got, got.length + 1);
                        got[got.length - 1] = x[0];
                    }
                }
            }
            Request.waitAll(sends);
            return got;
        });
        int n = w.size();
        for (int me = 0; me < n; me++) {
            int[] want = new int[0];
            for (int r = 0; r < n; r++) {
                int[] theirs = {(r + n - 1) % n, (r + 1) % n, 0};
                for (int k = 0; k < 3; k++) {
                    if (theirs[k] == me) {
                        want = Arrays.copyOf(want, want.length + 1);
                        want[want.length - 1] = 1000 * r + k;
                    }
                }
            }
            assertArrayEquals(want, out.get(me), "rank " + me);
        }
    }

    @Topologies.Sizes
    void ranksBeyondTheGraphGetNullOrTheNullCommunicator(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int nodes = Math.max(1, n - 1);
            int[][] g = wheel(nodes);
            Graphcomm graph = MPI.COMM_WORLD.Create_graph(g[0], g[1], false);
            GraphComm og = MPI.COMM_WORLD.createGraph(g[0], g[1], false);
            if (me < nodes) {
                assertEquals(nodes, graph.Size());
                assertEquals(nodes, og.getSize());
                int[] sum = new int[1];
                graph.Allreduce(new int[] {me}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
                assertEquals(nodes * (nodes - 1) / 2, sum[0]);
            } else {
                assertNull(graph);
                assertTrue(og.isNull());
                Jobs.assertMpiError(MPI.ERR_COMM, () -> og.getNeighbors(0), "getNeighbors", "null communicator");
            }
            // No nodes at all: nobody is in it.
            assertNull(MPI.COMM_WORLD.Create_graph(new int[0], new int[0], false));
            assertTrue(MPI.COMM_WORLD.createGraph(new int[0], new int[0], false).isNull());
            int[][] full = wheel(n);
            Graphcomm all = MPI.COMM_WORLD.Create_graph(full[0], full[1], false);
            assertEquals(me < nodes ? me : MPI.UNDEFINED, all.Map(g[0], g[1]));
            GraphComm oall = MPI.COMM_WORLD.createGraph(full[0], full[1], false);
            assertEquals(me, oall.map(full[0], full[1]));
            return null;
        });
    }

    @Topologies.Sizes
    void duplicatesKeepTheGraph(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int[][] g = wheel(n);
            Graphcomm graph = MPI.COMM_WORLD.Create_graph(g[0], g[1], false);
            GraphComm og = MPI.COMM_WORLD.createGraph(g[0], g[1], false);
            for (Graphcomm c : List.of(graph.Dup(), graph.clone(), graph.dup())) {
                assertEquals(MPI.GRAPH, c.Topo_test());
                assertArrayEquals(g[1], c.Get().edges);
                assertEquals(me, c.Rank());
            }
            for (GraphComm c : List.of(og.dup(), og.clone())) {
                assertEquals(MPI.GRAPH, c.getTopology());
                assertArrayEquals(graph.Neighbours(me), c.getNeighbors(me));
                c.barrier();
            }
            return null;
        });
    }

    @Topologies.Sizes
    void inconsistentGraphsAreErrorsNamingTheCall(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            Jobs.assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Create_graph(new int[n + 1], new int[0], false),
                "Create_graph", (n + 1) + " nodes", "more than");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.createGraph(new int[] {-1}, new int[0], false),
                "createGraph", "index[0]", "-1");
            if (n >= 2) {
                Jobs.assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Create_graph(new int[] {2, 1}, new int[] {1, 1},
                    false), "Create_graph", "index[1]", "index[0] = 2");
                Jobs.assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Create_graph(new int[] {1, 2}, new int[] {1, 2},
                    false), "Create_graph", "edges[1]", "2", "not a node");
            }
            Jobs.assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.createGraph(new int[] {3}, new int[] {0}, false),
                "createGraph", "edges has 1", "3");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Create_graph(new int[] {1}, new int[] {-1}, false),
                "Create_graph", "edges[0]", "-1");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Create_graph(null, new int[0], false),
                "Create_graph", "index", "null");
            int[][] g = wheel(n);
            Graphcomm graph = MPI.COMM_WORLD.Create_graph(g[0], g[1], false);
            GraphComm og = MPI.COMM_WORLD.createGraph(g[0], g[1], false);
            Jobs.assertMpiError(MPI.ERR_RANK, () -> graph.Neighbours(n), "Neighbours", "rank " + n);
            Jobs.assertMpiError(MPI.ERR_RANK, () -> og.getNeighbors(-1), "getNeighbors", "rank -1");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> og.map(new int[] {1}, new int[] {5}), "map", "edges[0]");
            graph.Barrier();
            return null;
        });
    }
}
