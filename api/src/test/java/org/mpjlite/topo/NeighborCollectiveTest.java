package org.mpjlite.topo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import mpi.CartComm;
import mpi.Comm;
import mpi.GraphComm;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/**
 * Neighbourhood collectives (neighborAllGather(v), neighborAllToAll(v) and their non-blocking forms)
 * on Cartesian and graph communicators: MPI's neighbour order (per dimension, one step back then one
 * step forward; a graph's adjacency order), PROC_NULL neighbours leaving their blocks untouched,
 * periodic dimensions of one or two ranks and repeated graph edges (the same rank twice as a
 * neighbour) each block in its place, eager and rendezvous-size blocks, and the errors.
 */
class NeighborCollectiveTest {
    /** Marks receive elements no neighbour wrote. */
    private static final int UNTOUCHED = -7;

    static Stream<World> worlds() {
        return Stream.concat(Topologies.worlds(), Jobs.worlds(IntStream.of(3, 4), 0));
    }

    /** The grids of a job of {@code n} ranks: 1-d periodic and not, 2-d mixed, 3-d periodic (dims of 1 and 2). */
    private static List<Object[]> grids(int n) {
        List<Object[]> grids = new ArrayList<>();
        grids.add(new Object[] {new int[] {n}, new boolean[] {true}});
        grids.add(new Object[] {new int[] {n}, new boolean[] {false}});
        int[] two = new int[2];
        CartComm.createDims(n, two);
        grids.add(new Object[] {two, new boolean[] {true, false}});
        int[] three = new int[3];
        CartComm.createDims(n, three);
        grids.add(new Object[] {three, new boolean[] {true, true, true}});
        return grids;
    }

    /** Rank {@code rank}'s neighbours in the grid, per dimension back then forward; -1 for none. */
    private static int[] cartNeighbors(int rank, int[] dims, boolean[] periods) {
        int[] out = new int[2 * dims.length];
        for (int d = 0; d < dims.length; d++) {
            for (int s = 0; s < 2; s++) {
                int[] c = Topologies.coordsOf(rank, dims);
                c[d] += s == 0 ? -1 : 1;
                if (periods[d]) {
                    c[d] = Math.floorMod(c[d], dims[d]);
                }
                out[2 * d + s] = Topologies.rankOf(c, dims);
            }
        }
        return out;
    }

    /** The value of element {@code k} of the block rank {@code from} sends as its block {@code j}. */
    private static int value(int from, int j, int k) {
        return from * 1_000_000 + j * 10_000 + k;
    }

    private static int[] filled(int n) {
        int[] a = new int[n];
        Arrays.fill(a, UNTOUCHED);
        return a;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    @DisplayName("Cartesian: allGather and allToAll (blocking and not) in neighbour order, PROC_NULL blocks untouched")
    void cartesian(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int n = MPI.COMM_WORLD.getSize();
            for (Object[] g : grids(n)) {
                int[] dims = (int[]) g[0];
                boolean[] periods = (boolean[]) g[1];
                CartComm cart = MPI.COMM_WORLD.createCart(dims, periods, false);
                int[] nb = cartNeighbors(me, dims, periods);
                int deg = nb.length;
                String where = Arrays.toString(dims) + " " + Arrays.toString(periods) + " rank " + me;
                for (int b : new int[] {3, 4500}) {
                    // allGather: the same block to everyone.
                    int[] mine = new int[b];
                    for (int k = 0; k < b; k++) {
                        mine[k] = value(me, 0, k);
                    }
                    int[] got = filled(deg * b);
                    cart.neighborAllGather(mine, b, MPI.INT, got, b, MPI.INT);
                    int[] want = filled(deg * b);
                    for (int i = 0; i < deg; i++) {
                        for (int k = 0; nb[i] >= 0 && k < b; k++) {
                            want[i * b + k] = value(nb[i], 0, k);
                        }
                    }
                    assertArrayEquals(want, got, "neighborAllGather " + where);
                    // allToAll: block j to neighbour j; the block from the rank behind is the one it
                    // sent forward (2d+1), and the other way round.
                    int[] send = new int[deg * b];
                    for (int j = 0; j < deg; j++) {
                        for (int k = 0; k < b; k++) {
                            send[j * b + k] = value(me, j, k);
                        }
                    }
                    int[] want2 = filled(deg * b);
                    for (int i = 0; i < deg; i++) {
                        for (int k = 0; nb[i] >= 0 && k < b; k++) {
                            want2[i * b + k] = value(nb[i], i ^ 1, k);
                        }
                    }
                    int[] got2 = filled(deg * b);
                    cart.neighborAllToAll(send, b, MPI.INT, got2, b, MPI.INT);
                    assertArrayEquals(want2, got2, "neighborAllToAll " + where);
                    // Two non-blocking ones in flight, then waited in reverse order.
                    java.nio.IntBuffer sendBuf = MPI.newIntBuffer(deg * b).put(send);
                    java.nio.IntBuffer a = MPI.newIntBuffer(deg * b).put(filled(deg * b));
                    int[] c = filled(deg * b);
                    Request r1 = cart.iNeighborAllToAll(sendBuf, b, MPI.INT, a, b, MPI.INT);
                    Request r2 = cart.iNeighborAllGather(mine, b, MPI.INT, c, b, MPI.INT);
                    r2.waitFor();
                    r1.waitFor();
                    int[] viaBuffer = new int[deg * b];
                    a.get(0, viaBuffer);
                    assertArrayEquals(want2, viaBuffer, "iNeighborAllToAll " + where);
                    assertArrayEquals(want, c, "iNeighborAllGather " + where);
                }
                cart.free();
            }
            return null;
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    @DisplayName("Cartesian v forms: counts and displacements per neighbour")
    void cartesianV(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int n = MPI.COMM_WORLD.getSize();
            int[] dims = new int[2];
            CartComm.createDims(n, dims);
            boolean[] periods = {true, false};
            CartComm cart = MPI.COMM_WORLD.createCart(dims, periods, false);
            int[] nb = cartNeighbors(me, dims, periods);
            int deg = nb.length;
            // Rank r sends k + 1 + r % 2 items to neighbour k; neighbour blocks are spaced 8 apart, in reverse.
            int[] scounts = new int[deg];
            int[] sdispls = new int[deg];
            int[] send = new int[8 * deg];
            for (int j = 0; j < deg; j++) {
                scounts[j] = j + 1 + me % 2;
                sdispls[j] = 8 * (deg - 1 - j);
                for (int k = 0; k < scounts[j]; k++) {
                    send[sdispls[j] + k] = value(me, j, k);
                }
            }
            int[] rcounts = new int[deg];
            int[] rdispls = new int[deg];
            int[] want = filled(8 * deg);
            for (int i = 0; i < deg; i++) {
                rdispls[i] = 8 * i + 1;
                if (nb[i] >= 0) {
                    int j = i ^ 1;
                    rcounts[i] = j + 1 + nb[i] % 2;
                    for (int k = 0; k < rcounts[i]; k++) {
                        want[rdispls[i] + k] = value(nb[i], j, k);
                    }
                }
            }
            int[] got = filled(8 * deg);
            cart.neighborAllToAllv(send, scounts, sdispls, MPI.INT, got, rcounts, rdispls, MPI.INT);
            assertArrayEquals(want, got, "neighborAllToAllv");
            int[] got2 = filled(8 * deg);
            cart.iNeighborAllToAllv(send, scounts, sdispls, MPI.INT, got2, rcounts, rdispls, MPI.INT).waitFor();
            assertArrayEquals(want, got2, "iNeighborAllToAllv");
            // allGatherv: every rank sends 1 + rank % 3 items, received at 5-item spacing.
            int[] mine = {value(me, 0, 0), value(me, 0, 1), value(me, 0, 2)};
            int[] gcounts = new int[deg];
            int[] gdispls = new int[deg];
            int[] gwant = filled(5 * deg);
            for (int i = 0; i < deg; i++) {
                gdispls[i] = 5 * i;
                if (nb[i] >= 0) {
                    gcounts[i] = 1 + nb[i] % 3;
                    for (int k = 0; k < gcounts[i]; k++) {
                        gwant[gdispls[i] + k] = value(nb[i], 0, k);
                    }
                }
            }
            int[] ggot = filled(5 * deg);
            cart.neighborAllGatherv(mine, 1 + me % 3, MPI.INT, ggot, gcounts, gdispls, MPI.INT);
            assertArrayEquals(gwant, ggot, "neighborAllGatherv");
            int[] ggot2 = filled(5 * deg);
            cart.iNeighborAllGatherv(mine, 1 + me % 3, MPI.INT, ggot2, gcounts, gdispls, MPI.INT).waitFor();
            assertArrayEquals(gwant, ggot2, "iNeighborAllGatherv");
            return null;
        });
    }

    /** A symmetric multigraph: node i's neighbours are i-1, i+1 (the same rank twice on 2 nodes) and itself. */
    private static int[][] ringWithLoops(int n) {
        int[] index = new int[n];
        int[] edges = new int[3 * n];
        for (int i = 0; i < n; i++) {
            edges[3 * i] = (i + n - 1) % n;
            edges[3 * i + 1] = (i + 1) % n;
            edges[3 * i + 2] = i;
            index[i] = 3 * (i + 1);
        }
        return new int[][] {index, edges};
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    @DisplayName("graph: adjacency order, repeated edges and self-loops matched in order")
    void graph(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int n = MPI.COMM_WORLD.getSize();
            int[][] g = ringWithLoops(n);
            GraphComm graph = MPI.COMM_WORLD.createGraph(g[0], g[1], false);
            int[] nb = graph.getNeighbors(me);
            int deg = nb.length;
            int[] send = new int[2 * deg];
            for (int j = 0; j < deg; j++) {
                send[2 * j] = value(me, j, 0);
                send[2 * j + 1] = value(me, j, 1);
            }
            int[] got = filled(2 * deg);
            graph.neighborAllToAll(send, 2, MPI.INT, got, 2, MPI.INT);
            // The k-th edge from me to r pairs with the k-th edge from r to me.
            for (int i = 0; i < deg; i++) {
                int r = nb[i];
                int k = 0;
                for (int x = 0; x < i; x++) {
                    k += nb[x] == r ? 1 : 0;
                }
                int[] theirs = graph.getNeighbors(r);
                int j = -1;
                for (int y = 0, seen = 0; y < theirs.length; y++) {
                    if (theirs[y] == me && seen++ == k) {
                        j = y;
                        break;
                    }
                }
                assertEquals(value(r, j, 0), got[2 * i], "block " + i + " of rank " + me);
                assertEquals(value(r, j, 1), got[2 * i + 1], "block " + i + " of rank " + me);
            }
            int[] gathered = filled(deg);
            graph.iNeighborAllGather(new int[] {me}, 1, MPI.INT, gathered, 1, MPI.INT).waitFor();
            assertArrayEquals(nb, gathered);
            return null;
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.p2p.Jobs#multiRanks")
    @DisplayName("errors: no topology, short receive block (truncation), bad counts, objects that do not serialize")
    void errors(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.getSize();
            assertMpiError(MPI.ERR_TOPOLOGY, () -> MPI.COMM_WORLD.neighborAllGather(new int[1], 1, MPI.INT,
                new int[n], 1, MPI.INT), "neighborAllGather", "topology");
            CartComm ring = MPI.COMM_WORLD.createCart(new int[] {n}, new boolean[] {true}, false);
            assertMpiError(MPI.ERR_BUFFER, () -> ring.neighborAllGather(new int[1], 1, MPI.INT, new int[1], 1,
                MPI.INT), "neighborAllGather", "receive buffer");
            assertMpiError(MPI.ERR_COUNT, () -> ring.neighborAllToAllv(new int[2], new int[] {1, -1}, new int[2],
                MPI.INT, new int[2], new int[] {1, 1}, new int[] {0, 1}, MPI.INT), "neighborAllToAllv", "-1");
            Comm c = ring;
            assertMpiError(MPI.ERR_TRUNCATE, () -> c.neighborAllGather(new int[2], 2, MPI.INT, new int[2], 1, MPI.INT),
                "neighborAllGather", "longer");
            Request r = c.iNeighborAllGather(new int[2], 2, MPI.INT, new int[2], 1, MPI.INT);
            assertMpiError(MPI.ERR_TRUNCATE, r::waitFor, "iNeighborAllGather");
            // Objects that do not serialize: the call fails before posting or sending anything, so the
            // next call's messages go to its own receives.
            Object[] stale = new Object[2];
            assertMpiError(MPI.ERR_ARG, () -> ring.neighborAllGather(new Object[] {new Object()}, 1, MPI.OBJECT,
                stale, 1, MPI.OBJECT), "neighborAllGather", "Serializable");
            assertMpiError(MPI.ERR_ARG, () -> ring.iNeighborAllToAll(new Object[] {"fine", new Object()}, 1,
                MPI.OBJECT, stale, 1, MPI.OBJECT), "iNeighborAllToAll", "Serializable");
            int me = ring.getRank();
            Object[] fresh = new Object[2];
            ring.neighborAllGather(new Object[] {"from " + me}, 1, MPI.OBJECT, fresh, 1, MPI.OBJECT);
            assertArrayEquals(new Object[] {"from " + Math.floorMod(me - 1, n), "from " + (me + 1) % n}, fresh);
            assertArrayEquals(new Object[2], stale);
            ring.barrier();
            return null;
        });
    }
}
