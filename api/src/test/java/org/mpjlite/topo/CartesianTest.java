package org.mpjlite.topo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.topo.Topologies.coordsOf;
import static org.mpjlite.topo.Topologies.rankOf;

import java.util.List;
import mpi.CartComm;
import mpi.CartParms;
import mpi.Cartcomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.ShiftParms;
import mpi.Status;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/**
 * Cartesian communicators in both dialects: numbering, Shift at the edges, Sub slices with
 * collectives on them, traffic, duplicates, ranks beyond the grid, and bad arguments.
 */
class CartesianTest {
    private static int[] dimsFor(int n, int ndims) {
        int[] dims = new int[ndims];
        Cartcomm.Dims_create(n, dims);
        return dims;
    }

    @Topologies.Sizes
    void ranksAndCoordsRoundTripRowMajorInBothDialects(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            for (int ndims = 1; ndims <= 3; ndims++) {
                int[] dims = dimsFor(n, ndims);
                boolean[] periods = new boolean[ndims];
                periods[0] = true;
                Cartcomm cart = MPI.COMM_WORLD.Create_cart(dims, periods, true);
                CartComm cc = MPI.COMM_WORLD.createCart(dims, periods, false);
                assertEquals(me, cart.Rank(), "no reordering: a rank keeps its place");
                assertEquals(me, cc.getRank());
                assertEquals(n, cart.Size());
                for (int r = 0; r < n; r++) {
                    int[] c = coordsOf(r, dims);
                    assertArrayEquals(c, cart.Coords(r));
                    assertArrayEquals(c, cc.getCoords(r));
                    assertEquals(r, cart.Rank(c));
                    assertEquals(r, cc.getRank(c));
                    // The periodic dimension wraps, both ways and more than once.
                    int[] wrapped = c.clone();
                    wrapped[0] = c[0] - 3 * dims[0];
                    assertEquals(r, cart.Rank(wrapped));
                    wrapped[0] = c[0] + dims[0];
                    assertEquals(r, cc.getRank(wrapped));
                }
                CartParms p = cart.Get();
                assertArrayEquals(dims, p.dims);
                assertArrayEquals(periods, p.periods);
                assertArrayEquals(coordsOf(me, dims), p.coords);
                CartParms q = cc.getTopo();
                assertEquals(ndims, q.getDimCount());
                for (int i = 0; i < ndims; i++) {
                    assertEquals(dims[i], q.getDim(i));
                    assertEquals(periods[i], q.getPeriod(i));
                    assertEquals(coordsOf(me, dims)[i], q.getCoord(i));
                }
                assertEquals(MPI.CART, cart.Topo_test());
                assertEquals(MPI.CART, cc.getTopology());
                assertEquals(MPI.CART, cc.Topo_test());
            }
            assertEquals(MPI.UNDEFINED, MPI.COMM_WORLD.Topo_test());
            assertEquals(MPI.UNDEFINED, MPI.COMM_WORLD.getTopology());
            assertEquals(MPI.UNDEFINED, MPI.COMM_SELF.Topo_test());
            assertEquals(MPI.UNDEFINED, MPI.COMM_WORLD.Split(0, 0).getTopology());
            return null;
        });
    }

    @Topologies.Sizes
    void shiftGivesProcNullOffTheEdgesOfNonPeriodicDimensions(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int[] dims = dimsFor(n, 2);
            int[] mine = coordsOf(me, dims);
            for (int mask = 0; mask < 4; mask++) {
                boolean[] periods = {(mask & 1) != 0, (mask & 2) != 0};
                Cartcomm cart = MPI.COMM_WORLD.Create_cart(dims, periods, false);
                CartComm cc = MPI.COMM_WORLD.createCart(dims, periods, false);
                for (int dir = 0; dir < 2; dir++) {
                    for (int disp = -2 * dims[dir] - 1; disp <= 2 * dims[dir] + 1; disp++) {
                        int source = neighbour(mine, dims, periods, dir, -disp);
                        int dest = neighbour(mine, dims, periods, dir, disp);
                        ShiftParms s = cart.Shift(dir, disp);
                        String where = "rank " + me + ", periods " + mask + ", dir " + dir + ", disp " + disp;
                        assertEquals(source, s.rank_source, where);
                        assertEquals(dest, s.rank_dest, where);
                        ShiftParms t = cc.shift(dir, disp);
                        assertEquals(source, t.getRankSource(), where);
                        assertEquals(dest, t.getRankDest(), where);
                    }
                }
            }
            return null;
        });
    }

    /** The rank {@code disp} steps along {@code dir} from {@code coords}: PROC_NULL off a non-periodic edge. */
    private static int neighbour(int[] coords, int[] dims, boolean[] periods, int dir, int disp) {
        int[] c = coords.clone();
        c[dir] += disp;
        if (periods[dir]) {
            c[dir] = ((c[dir] % dims[dir]) + dims[dir]) % dims[dir];
        }
        int r = rankOf(c, dims);
        return r < 0 ? MPI.PROC_NULL : r;
    }

    @Topologies.Sizes
    void haloExchangeWithSendrecvAlongBothDimensions(World w) {
        List<int[]> out = w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int[] dims = dimsFor(n, 2);
            // Periodic rows (mpiJava), non-periodic columns (Open MPI names on the other dialect's class).
            Cartcomm torus = MPI.COMM_WORLD.Create_cart(dims, new boolean[] {true, true}, false);
            CartComm open = MPI.COMM_WORLD.createCart(dims, new boolean[] {false, false}, false);
            int[] got = new int[8];
            java.util.Arrays.fill(got, -1);
            for (int dir = 0; dir < 2; dir++) {
                ShiftParms s = torus.Shift(dir, 1);
                torus.Sendrecv(new int[] {me}, 0, 1, MPI.INT, s.rank_dest, 7, got, 2 * dir, 1, MPI.INT, s.rank_source, 7);
                torus.Sendrecv(new int[] {me}, 0, 1, MPI.INT, s.rank_source, 8, got, 2 * dir + 1, 1, MPI.INT,
                    s.rank_dest, 8);
                ShiftParms t = open.shift(dir, 1);
                int[] one = {-1};
                Status st = open.sendRecv(new int[] {me}, 1, MPI.INT, t.getRankDest(), 7, one, 1, MPI.INT,
                    t.getRankSource(), 7);
                got[4 + 2 * dir] = one[0];
                if (t.getRankSource() == MPI.PROC_NULL) {
                    assertEquals(MPI.PROC_NULL, st.getSource());
                }
                one[0] = -1;
                open.sendRecv(new int[] {me}, 1, MPI.INT, t.getRankSource(), 8, one, 1, MPI.INT, t.getRankDest(), 8);
                got[5 + 2 * dir] = one[0];
            }
            return got;
        });
        int n = w.size();
        int[] dims = dimsFor(n, 2);
        for (int me = 0; me < n; me++) {
            int[] c = coordsOf(me, dims);
            int[] want = new int[8];
            for (int dir = 0; dir < 2; dir++) {
                want[2 * dir] = neighbour(c, dims, new boolean[] {true, true}, dir, -1);
                want[2 * dir + 1] = neighbour(c, dims, new boolean[] {true, true}, dir, 1);
                // From PROC_NULL nothing arrives: the buffer keeps its -1.
                want[4 + 2 * dir] = Math.max(-1, neighbour(c, dims, new boolean[2], dir, -1));
                want[5 + 2 * dir] = Math.max(-1, neighbour(c, dims, new boolean[2], dir, 1));
            }
            assertArrayEquals(want, out.get(me), "rank " + me + " of a " + dims[0] + "x" + dims[1] + " grid");
        }
    }

    @Topologies.Sizes
    void subSlicesCarryCollectivesOfTheirOwn(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int[] dims = dimsFor(n, 3);
            boolean[] periods = {true, false, true};
            int[] c = coordsOf(me, dims);
            Cartcomm cart = MPI.COMM_WORLD.Create_cart(dims, periods, false);
            CartComm cc = MPI.COMM_WORLD.createCart(dims, periods, false);
            // Every subset of dimensions kept, in both dialects.
            for (int mask = 0; mask < 8; mask++) {
                boolean[] remain = {(mask & 1) != 0, (mask & 2) != 0, (mask & 4) != 0};
                Cartcomm sub = cart.Sub(remain);
                CartComm osub = cc.sub(remain);
                int size = 1;
                int place = 0;
                int sum = 0;
                int[] kept = new int[Integer.bitCount(mask)];
                int[] keptCoords = new int[kept.length];
                for (int i = 0, j = 0; i < 3; i++) {
                    if (remain[i]) {
                        size *= dims[i];
                        place = place * dims[i] + c[i];
                        kept[j] = dims[i];
                        keptCoords[j++] = c[i];
                    }
                }
                // The members are the world ranks that agree with me in the dropped dimensions.
                int root = -1;
                for (int r = 0; r < n; r++) {
                    int[] rc = coordsOf(r, dims);
                    boolean same = true;
                    for (int i = 0; i < 3; i++) {
                        same &= remain[i] || rc[i] == c[i];
                    }
                    if (same) {
                        sum += r;
                        root = root < 0 ? r : root;
                    }
                }
                String where = "rank " + me + ", remain " + java.util.Arrays.toString(remain);
                assertEquals(size, sub.Size(), where);
                assertEquals(place, sub.Rank(), where);
                assertEquals(size, osub.getSize(), where);
                assertEquals(place, osub.getRank(), where);
                CartParms p = sub.Get();
                assertArrayEquals(kept, p.dims, where);
                assertArrayEquals(keptCoords, p.coords, where);
                assertEquals(MPI.CART, sub.Topo_test());
                int[] total = new int[1];
                sub.Allreduce(new int[] {me}, 0, total, 0, 1, MPI.INT, MPI.SUM);
                assertEquals(sum, total[0], where);
                int[] first = {me};
                osub.bcast(first, 1, MPI.INT, 0);
                assertEquals(root, first[0], where);
                sub.Barrier();
            }
            return null;
        });
    }

    @Topologies.Sizes
    void ranksBeyondTheGridGetNullOrTheNullCommunicator(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int cells = Math.max(1, n - 1);
            Cartcomm cart = MPI.COMM_WORLD.Create_cart(new int[] {cells}, new boolean[] {false}, false);
            CartComm cc = MPI.COMM_WORLD.createCart(new int[] {cells}, new boolean[] {true}, false);
            Cartcomm point = MPI.COMM_WORLD.Create_cart(new int[0], new boolean[0], false);
            CartComm opoint = MPI.COMM_WORLD.createCart(new int[0], new boolean[0], false);
            if (me < cells) {
                assertNotNull(cart);
                assertEquals(cells, cart.Size());
                assertEquals(me, cart.Rank());
                assertFalse(cc.isNull());
                int[] sum = new int[1];
                cc.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
                assertEquals(cells, sum[0]);
            } else {
                assertNull(cart);
                assertTrue(cc.isNull());
                Jobs.assertMpiError(MPI.ERR_COMM, cc::getTopo, "getTopo", "null communicator");
                Jobs.assertMpiError(MPI.ERR_COMM, cc::getTopology, "getTopology", "null communicator");
            }
            // A 0-dimensional grid has one point: rank 0.
            if (me == 0) {
                assertEquals(1, point.Size());
                assertEquals(0, point.Get().dims.length);
                assertEquals(0, point.Coords(0).length);
                assertEquals(0, point.Rank(new int[0]));
                assertEquals(1, opoint.getSize());
            } else {
                assertNull(point);
                assertTrue(opoint.isNull());
            }
            Cartcomm full = MPI.COMM_WORLD.Create_cart(new int[] {n}, new boolean[] {false}, false);
            assertEquals(me < cells ? me : MPI.UNDEFINED, full.Map(new int[] {cells}, new boolean[] {false}));
            assertEquals(me, full.Map(new int[] {n}, new boolean[] {true}));
            CartComm ofull = MPI.COMM_WORLD.createCart(new int[] {n}, new boolean[] {false}, false);
            assertEquals(me < cells ? me : MPI.UNDEFINED, ofull.map(new int[] {cells}, new boolean[] {true}));
            return null;
        });
    }

    @Topologies.Sizes
    void duplicatesKeepTheGridAndTheirOwnContext(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int[] dims = dimsFor(n, 2);
            boolean[] periods = {true, false};
            Cartcomm cart = MPI.COMM_WORLD.Create_cart(dims, periods, false);
            Cartcomm dup = cart.Dup();
            Cartcomm clone = cart.clone();
            CartComm cc = MPI.COMM_WORLD.createCart(dims, periods, false);
            CartComm odup = cc.dup();
            CartComm oclone = cc.clone();
            for (Cartcomm c : List.of(dup, clone)) {
                assertEquals(MPI.CART, c.Topo_test());
                assertArrayEquals(dims, c.Get().dims);
                assertArrayEquals(periods, c.Get().periods);
                assertEquals(me, c.Rank());
            }
            for (CartComm c : List.of(odup, oclone)) {
                assertEquals(MPI.CART, c.getTopology());
                assertEquals(dims[0], c.getTopo().getDim(0));
                assertEquals(me, c.getRank());
            }
            Intracomm split = cart.Split(0, me);
            assertEquals(MPI.UNDEFINED, split.Topo_test(), "Split does not keep the topology");
            // The same tag on five communicators: each message arrives on its own.
            int to = (me + 1) % n;
            int from = (me + n - 1) % n;
            List<Intracomm> comms = List.of(cart, dup, clone, odup, oclone);
            Request[] sends = new Request[comms.size()];
            for (int i = 0; i < sends.length; i++) {
                sends[i] = comms.get(i).Isend(new int[] {i}, 0, 1, MPI.INT, to, 3);
            }
            for (int i = sends.length - 1; i >= 0; i--) {
                int[] x = {-1};
                comms.get(i).Recv(x, 0, 1, MPI.INT, from, 3);
                assertEquals(i, x[0]);
            }
            Request.Waitall(sends);
            return null;
        });
    }

    @Topologies.Sizes
    void badArgumentsAreErrorsNamingTheCall(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            Jobs.assertMpiError(MPI.ERR_DIMS, () -> MPI.COMM_WORLD.Create_cart(new int[] {-1}, new boolean[1], false),
                "Create_cart", "dims[0]", "-1");
            Jobs.assertMpiError(MPI.ERR_DIMS, () -> MPI.COMM_WORLD.createCart(new int[] {1, 0}, new boolean[2], false),
                "createCart", "dims[1]", "0");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Create_cart(new int[] {n + 1}, new boolean[1], false),
                "Create_cart", String.valueOf(n + 1), "more than");
            Jobs.assertMpiError(MPI.ERR_ARG,
                () -> MPI.COMM_WORLD.createCart(new int[] {65536, 65536, 65536}, new boolean[3], false), "createCart",
                "65536x65536x65536");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Create_cart(new int[] {n}, new boolean[2], false),
                "Create_cart", "periods");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Create_cart(null, new boolean[0], false),
                "Create_cart", "dims", "null");
            Cartcomm cart = MPI.COMM_WORLD.Create_cart(new int[] {n, 1}, new boolean[] {false, true}, false);
            CartComm cc = MPI.COMM_WORLD.createCart(new int[] {n, 1}, new boolean[] {false, true}, false);
            Jobs.assertMpiError(MPI.ERR_ARG, () -> cart.Rank(new int[] {n, 0}), "Rank", "coords[0]",
                String.valueOf(n), "not periodic");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> cc.getRank(new int[] {-1, 0}), "getRank", "coords[0]", "-1");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> cart.Rank(new int[] {0}), "Rank", "coords", "1 entries");
            Jobs.assertMpiError(MPI.ERR_RANK, () -> cart.Coords(n), "Coords", "rank " + n);
            Jobs.assertMpiError(MPI.ERR_RANK, () -> cc.getCoords(-1), "getCoords", "rank -1");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> cart.Shift(2, 1), "Shift", "direction 2");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> cc.shift(-1, 1), "shift", "direction -1");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> cart.Sub(new boolean[3]), "Sub", "remain_dims", "3 entries");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> cc.sub(null), "sub", "remain_dims", "null");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> cc.sub(new boolean[1]), "sub", "remain_dims", "1 entries");
            Jobs.assertMpiError(MPI.ERR_DIMS, () -> cart.Map(new int[] {-2}, new boolean[1]), "Map", "dims[0]");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> cc.map(new int[] {n + 1}, new boolean[1]), "map", "more than");
            // Still usable after the errors.
            assertEquals(n, cart.Size());
            cart.Barrier();
            return null;
        });
    }

    @Jobs.AnyRanks
    void openMpiSubReadsOnlyTheGridsDimensionsOfRemainDims(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.getSize();
            int me = MPI.COMM_WORLD.getRank();
            // As C reads ndims entries: a fixed-size array longer than the grid's dimensions.
            CartComm cc = MPI.COMM_WORLD.createCart(new int[] {n, 1}, new boolean[] {false, true}, false);
            CartComm rows = cc.sub(new boolean[] {true, false, false, true});
            assertEquals(n, rows.getSize());
            assertEquals(1, rows.getTopo().getDimCount());
            assertEquals(me, rows.getRank());
            CartComm none = cc.sub(new boolean[4]);
            assertEquals(0, none.getTopo().getDimCount());
            assertEquals(1, none.getSize());
            // A 0-dimensional grid (MPI-2.1): rank 0 alone; its sub is 0-dimensional too.
            CartComm zero = MPI.COMM_WORLD.createCart(new int[0], new boolean[0], false);
            assertEquals(me != 0, zero.isNull());
            if (me == 0) {
                CartComm zeroSub = zero.sub(new boolean[4]);
                assertEquals(MPI.CART, zeroSub.getTopology());
                assertEquals(0, zeroSub.getTopo().getDimCount());
                zeroSub.free();
                zero.free();
            }
            none.free();
            rows.free();
            cc.free();
            return null;
        });
    }
}
