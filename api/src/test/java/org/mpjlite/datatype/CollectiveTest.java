package org.mpjlite.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mpjlite.datatype.RoundTripTest.committed;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.io.Serializable;
import java.util.stream.Stream;
import mpi.Datatype;
import mpi.MPI;
import mpi.Op;
import mpi.Request;
import mpi.User_function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;

/**
 * Collectives with a non-contiguous (Vector) datatype and with MPI.OBJECT, both dialects, on 1, 2,
 * 3, 4 and 7 ranks: the data land where the datatype says and nowhere else.
 */
class CollectiveTest {
    static Stream<World> worlds() {
        return Stream.of(1, 2, 3, 4, 7).map(n -> new World(n, MatchingKind.LOCK_FREE,
            Tunables.DEFAULT_EAGER_THRESHOLD));
    }

    /** Every other int: items of 2 elements at 0 and 2, extent 3. */
    static Datatype everyOther() {
        return committed(Datatype.Vector(2, 1, 2, MPI.INT));
    }

    /** The ints of {@code items} items of everyOther from offset 0, -1 in the gaps. */
    static int[] layout(int items, int seed) {
        int[] a = new int[3 * items];
        for (int i = 0; i < items; i++) {
            a[3 * i] = seed * 100 + 2 * i;
            a[3 * i + 1] = -1;
            a[3 * i + 2] = seed * 100 + 2 * i + 1;
        }
        return a;
    }

    static int[] filled(int n, int value) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, value);
        return a;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void vectorTypeThroughDataMovement(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int size = MPI.COMM_WORLD.Size();
            Datatype t = everyOther();
            // Bcast: the gaps of the receivers keep their -1
            int[] b = me == 1 % size ? layout(2, 9) : filled(6, -1);
            MPI.COMM_WORLD.Bcast(b, 0, 2, t, 1 % size);
            assertArrayEquals(layout(2, 9), b, "Bcast");
            // Gather vector items into contiguous ints at the root, then back out with Scatter
            int[] all = new int[4 * size];
            MPI.COMM_WORLD.Gather(layout(2, me), 0, 2, t, all, 0, 4, MPI.INT, 0);
            if (me == 0) {
                for (int r = 0; r < size; r++) {
                    assertArrayEquals(new int[] {100 * r, 100 * r + 1, 100 * r + 2, 100 * r + 3},
                        java.util.Arrays.copyOfRange(all, 4 * r, 4 * r + 4), "Gather block " + r);
                }
            }
            int[] back = filled(6, -1);
            MPI.COMM_WORLD.Scatter(all, 0, 4, MPI.INT, back, 0, 2, t, 0);
            assertArrayEquals(layout(2, me), back, "Scatter into the vector");
            // Allgather vector to vector, Open MPI dialect
            int[] everyone = filled(3 * size, -1);
            MPI.COMM_WORLD.allGather(layout(1, me), 1, t, everyone, 1, t);
            for (int r = 0; r < size; r++) {
                assertArrayEquals(layout(1, r), java.util.Arrays.copyOfRange(everyone, 3 * r, 3 * r + 3), "allGather");
            }
            // Alltoall: block j of rank i is item j of its layout
            int[] got = filled(3 * size, -1);
            MPI.COMM_WORLD.Alltoall(layout(size, me), 0, 1, t, got, 0, 1, t);
            for (int r = 0; r < size; r++) {
                assertEquals(100 * r + 2 * me, got[3 * r], "Alltoall from " + r);
                assertEquals(-1, got[3 * r + 1], "gaps untouched");
                assertEquals(100 * r + 2 * me + 1, got[3 * r + 2], "Alltoall from " + r);
            }
            // Gatherv with displacements in extents, receive type the vector
            int[] counts = filled(size, 1);
            int[] displs = new int[size];
            for (int r = 0; r < size; r++) {
                displs[r] = size - 1 - r;
            }
            int[] rev = filled(3 * size, -1);
            MPI.COMM_WORLD.Gatherv(new int[] {me, me + 50}, 0, 2, MPI.INT, rev, 0, counts, displs, t, 0);
            if (me == 0) {
                for (int r = 0; r < size; r++) {
                    int at = 3 * (size - 1 - r);
                    assertArrayEquals(new int[] {r, -1, r + 50}, java.util.Arrays.copyOfRange(rev, at, at + 3),
                        "Gatherv block " + r);
                }
            }
            // non-blocking: the unpack happens at completion
            int[] nb = filled(6, -1);
            Request q = MPI.COMM_WORLD.iBcast(me == 0 ? layout(2, 5) : nb, 2, t, 0);
            q.waitFor();
            if (me != 0) {
                assertArrayEquals(layout(2, 5), nb, "iBcast");
            }
            return null;
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void vectorTypeThroughReductions(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int size = MPI.COMM_WORLD.Size();
            Datatype t = everyOther();
            int[] sum = filled(6, -1);
            MPI.COMM_WORLD.Allreduce(layout(2, me), 0, sum, 0, 2, t, MPI.SUM);
            int ranks = size * (size - 1) / 2;
            int[] expected = new int[6];
            for (int i = 0; i < 2; i++) {
                expected[3 * i] = 100 * ranks + size * 2 * i;
                expected[3 * i + 1] = -1;
                expected[3 * i + 2] = 100 * ranks + size * (2 * i + 1);
            }
            assertArrayEquals(expected, sum, "Allreduce SUM, element-wise; the gaps untouched");
            int[] max = filled(3, -1);
            MPI.COMM_WORLD.reduce(layout(1, me), max, 1, t, MPI.MAX, 0);
            if (me == 0) {
                assertArrayEquals(new int[] {100 * (size - 1), -1, 100 * (size - 1) + 1}, max, "reduce MAX");
            }
            int[] scan = filled(3, -1);
            MPI.COMM_WORLD.Scan(layout(1, 1), 0, scan, 0, 1, t, MPI.SUM);
            assertArrayEquals(new int[] {100 * (me + 1), -1, 101 * (me + 1)}, scan, "Scan");
            Datatype mixed = committed(Datatype.createStruct(new int[] {1, 1}, new int[] {0, 4},
                new Datatype[] {MPI.INT, MPI.FLOAT}));
            assertMpiError(MPI.ERR_OP, () -> MPI.COMM_WORLD.allReduce(new byte[8], new byte[8], 1, mixed, MPI.SUM),
                "allReduce", "SUM");
            return null;
        });
    }

    record Text(String s) implements Serializable {
    }

    /** Concatenation of Text objects, element-wise: not commutative, so rank order shows. */
    static final Op CONCAT = new Op(new User_function() {
        @Override
        public void Call(Object in, int inOff, Object inout, int inoutOff, int count, Datatype type) {
            Object[] a = (Object[]) in;
            Object[] b = (Object[]) inout;
            for (int i = 0; i < count; i++) {
                b[inoutOff + i] = new Text(((Text) a[inOff + i]).s() + ((Text) b[inoutOff + i]).s());
            }
        }
    }, false);

    /**
     * A collective of objects whose arguments are wrong at the root fails there before taking part:
     * the root's next, correct call is the one the other ranks meet.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void objectCollectivesFailBeforeTakingPart(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int size = MPI.COMM_WORLD.Size();
            Object[] mine = {"r" + me};
            Object[] all = new Object[size];
            if (me == 0) {
                assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Gather(mine, 0, 1, MPI.OBJECT, new Object[size - 1],
                    0, 1, MPI.OBJECT, 0), "Gather", "receive buffer");
            }
            MPI.COMM_WORLD.Gather(mine, 0, 1, MPI.OBJECT, all, 0, 1, MPI.OBJECT, 0);
            if (me == 0) {
                for (int r = 0; r < size; r++) {
                    assertEquals("r" + r, all[r]);
                }
                assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Scatter(all, 0, 1, MPI.OBJECT, new int[1], 0, 1,
                    MPI.OBJECT, 0), "Scatter", "receive buffer");
            }
            if (me == 0) {
                // The counts arrays are named as the program knows them.
                int[] negative = new int[size];
                negative[size - 1] = -1;
                assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.Gatherv(mine, 0, 1, MPI.OBJECT, all, 0, negative,
                    new int[size], MPI.OBJECT, 0), "Gatherv", "recvcounts[" + (size - 1) + "] must be >= 0");
                assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.Scatterv(all, 0, new int[size - 1], new int[size],
                    MPI.OBJECT, new Object[1], 0, 1, MPI.OBJECT, 0), "Scatterv", "sendcounts has " + (size - 1));
            }
            Object[] one = new Object[1];
            MPI.COMM_WORLD.Scatter(all, 0, 1, MPI.OBJECT, one, 0, 1, MPI.OBJECT, 0);
            assertEquals("r" + me, one[0]);
            Object[] text = {new Text("r" + me)};
            if (me == 0) {
                assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Reduce(text, 0, new Object[0], 0, 1, MPI.OBJECT,
                    CONCAT, 0), "Reduce", "receive buffer");
            }
            Object[] joined = new Object[1];
            MPI.COMM_WORLD.Reduce(text, 0, joined, 0, 1, MPI.OBJECT, CONCAT, 0);
            if (me == 0) {
                StringBuilder want = new StringBuilder();
                for (int r = 0; r < size; r++) {
                    want.append("r").append(r);
                }
                assertEquals(new Text(want.toString()), joined[0]);
            }
            return null;
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void objectsThroughCollectives(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int size = MPI.COMM_WORLD.Size();
            Object[] mine = {new Text("r" + me), me};
            Object[] root = new Object[2 * size];
            MPI.COMM_WORLD.Gather(mine, 0, 2, MPI.OBJECT, root, 0, 2, MPI.OBJECT, 0);
            if (me == 0) {
                for (int r = 0; r < size; r++) {
                    assertEquals(new Text("r" + r), root[2 * r]);
                    assertEquals(r, root[2 * r + 1]);
                }
            }
            Object[] one = new Object[2];
            MPI.COMM_WORLD.Scatter(root, 0, 2, MPI.OBJECT, one, 0, 2, MPI.OBJECT, 0);
            assertArrayEquals(mine, one, "Scatter");
            // Allgatherv: rank r contributes r + 1 objects
            int[] counts = new int[size];
            int[] displs = new int[size];
            for (int r = 0; r < size; r++) {
                counts[r] = r + 1;
                displs[r] = r == 0 ? 0 : displs[r - 1] + counts[r - 1];
            }
            Object[] contribution = new Object[me + 1];
            java.util.Arrays.fill(contribution, "x" + me);
            Object[] gathered = new Object[displs[size - 1] + counts[size - 1]];
            MPI.COMM_WORLD.Allgatherv(contribution, 0, me + 1, MPI.OBJECT, gathered, 0, counts, displs, MPI.OBJECT);
            for (int r = 0; r < size; r++) {
                for (int k = 0; k < r + 1; k++) {
                    assertEquals("x" + r, gathered[displs[r] + k]);
                }
            }
            // Alltoall with a derived type over objects: every other slot
            Object[] out = new Object[2 * size];
            for (int r = 0; r < size; r++) {
                out[2 * r] = me + "->" + r;
                out[2 * r + 1] = "not sent";
            }
            Object[] spread = new Object[size];
            MPI.COMM_WORLD.Alltoall(out, 0, 1, slotsAsExtent2(), spread, 0, 1, MPI.OBJECT);
            for (int r = 0; r < size; r++) {
                assertEquals(r + "->" + me, spread[r], "Alltoall of every other object, from " + r);
            }
            // Reduce, Allreduce and Scan with a user operation, in rank order
            Object[] text = {new Text("" + me)};
            Object[] reduced = new Object[1];
            MPI.COMM_WORLD.Reduce(text, 0, reduced, 0, 1, MPI.OBJECT, CONCAT, size - 1);
            StringBuilder all = new StringBuilder();
            for (int r = 0; r < size; r++) {
                all.append(r);
            }
            if (me == size - 1) {
                assertEquals(new Text(all.toString()), reduced[0], "Reduce in rank order");
            }
            Object[] everywhere = new Object[1];
            MPI.COMM_WORLD.Allreduce(text, 0, everywhere, 0, 1, MPI.OBJECT, CONCAT);
            assertEquals(new Text(all.toString()), everywhere[0], "Allreduce");
            Object[] prefix = new Object[1];
            MPI.COMM_WORLD.Scan(text, 0, prefix, 0, 1, MPI.OBJECT, CONCAT);
            assertEquals(new Text(all.substring(0, me + 1)), prefix[0], "Scan");
            assertMpiError(MPI.ERR_OP, () -> MPI.COMM_WORLD.Allreduce(text, 0, everywhere, 0, 1, MPI.OBJECT, MPI.SUM),
                "Allreduce", "OBJECT");
            Object[] bcast = me == 0 ? new Object[] {new Text("b")} : new Object[1];
            MPI.COMM_WORLD.Bcast(bcast, 0, 1, MPI.OBJECT, 0);
            assertEquals(new Text("b"), bcast[0], "Bcast");
            return null;
        });
    }

    /** An object slot with an extent of two slots: items of it are every other object. */
    private static Datatype slotsAsExtent2() {
        return committed(Datatype.Struct(new int[] {1, 1}, new int[] {0, 2}, new Datatype[] {MPI.OBJECT, MPI.UB}));
    }
}
