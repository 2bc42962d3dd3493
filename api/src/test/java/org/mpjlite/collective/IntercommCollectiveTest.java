package org.mpjlite.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import mpi.Datatype;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.Request;
import mpi.UserFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Collectives on intercommunicators (MPI-3.1 §5.2.2): every operation, blocking and non-blocking,
 * in both dialects, between groups of unequal sizes, with roots in either group. Rank r of group g
 * contributes {@code value(g, r, i)} at item i, so every rank knows what it must receive.
 */
class IntercommCollectiveTest {
    /**
     * A job of {@code size} ranks split into group 0 of {@code first} ranks and group 1 of the rest;
     * group 0 is the lowest world ranks, or the highest when {@code firstHigh} (its leader then has
     * the higher world rank, so the engine orders the groups the other way).
     */
    record Shape(int size, int first, boolean firstHigh) {
        @Override
        public String toString() {
            return first + "+" + (size - first) + (firstHigh ? ", small group on the high ranks" : "");
        }
    }

    static Stream<Shape> shapes() {
        return Stream.of(new Shape(3, 1, false), new Shape(5, 2, true), new Shape(7, 3, false), new Shape(7, 1, true));
    }

    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.collective.IntercommCollectiveTest#shapes")
    @interface Shapes {
    }

    /** The calling rank's view: its intercommunicator, group, rank and the groups' sizes. */
    record Side(Intercomm ic, int group, int rank, int size, int remoteSize) {
        int other() {
            return 1 - group;
        }

        int sizeOf(int g) {
            return g == group ? size : remoteSize;
        }

        /** The root argument of a rooted call whose root is rank {@code r} of group {@code g}. */
        int root(int g, int r) {
            return g != group ? r : r == rank ? MPI.ROOT : MPI.PROC_NULL;
        }
    }

    static Side side(Shape s) {
        int me = MPI.COMM_WORLD.Rank();
        int n = s.size();
        int lowFirst = s.firstHigh() ? n - s.first() : s.first();
        boolean inFirst = s.firstHigh() ? me >= lowFirst : me < lowFirst;
        int group = inFirst ? 0 : 1;
        Intracomm local = MPI.COMM_WORLD.Split(group, me);
        int remoteLeader = me < lowFirst ? lowFirst : 0;
        Intercomm ic = MPI.COMM_WORLD.createIntercomm(local, 0, remoteLeader, 5);
        return new Side(ic, group, ic.getRank(), ic.getSize(), ic.getRemoteSize());
    }

    static int value(int g, int r, int i) {
        return 1000 * g + 100 * r + i;
    }

    static IntBuffer filled(int n, int v) {
        IntBuffer b = MPI.newIntBuffer(n);
        for (int i = 0; i < n; i++) {
            b.put(i, v);
        }
        return b;
    }

    static int[] array(IntBuffer b) {
        int[] a = new int[b.capacity()];
        b.get(0, a);
        return a;
    }

    /** Waits for the requests of a non-blocking round (none for a blocking one). */
    static void complete(List<Request> requests) {
        Request.waitAll(requests.toArray(new Request[0]));
        requests.clear();
    }

    @Shapes
    void rootedOperationsFromEitherGroupBlockingAndNot(Shape shape) {
        Worlds.of(shape.size()).run(() -> {
            Side me = side(shape);
            Intercomm ic = me.ic();
            int c = 3;
            for (int rootGroup = 0; rootGroup < 2; rootGroup++) {
                for (boolean nonBlocking : new boolean[] {false, true}) {
                    int rootRank = me.sizeOf(rootGroup) - 1;
                    int root = me.root(rootGroup, rootRank);
                    boolean isRoot = root == MPI.ROOT;
                    boolean receives = me.group() != rootGroup;
                    int remote = me.remoteSize();
                    List<Request> reqs = new ArrayList<>();

                    IntBuffer bc = filled(c, -1);
                    if (isRoot) {
                        for (int i = 0; i < c; i++) {
                            bc.put(i, value(rootGroup, rootRank, i));
                        }
                    }
                    IntBuffer mine = MPI.newIntBuffer(Math.max(c, me.rank() + 1));
                    for (int i = 0; i < mine.capacity(); i++) {
                        mine.put(i, value(me.group(), me.rank(), i));
                    }
                    IntBuffer gathered = filled(remote * c, -1);
                    IntBuffer toScatter = MPI.newIntBuffer(remote * c);
                    for (int i = 0; i < remote * c; i++) {
                        toScatter.put(i, 5000 + i);
                    }
                    IntBuffer scattered = filled(c, -1);
                    IntBuffer reduced = filled(c, -1);
                    // v-forms: remote rank j's block has j + 1 items, one item apart.
                    int[] counts = new int[remote];
                    int[] displs = new int[remote];
                    for (int j = 0; j < remote; j++) {
                        counts[j] = j + 1;
                        displs[j] = j * (j + 3) / 2;
                    }
                    int span = displs[remote - 1] + counts[remote - 1];
                    IntBuffer gatheredV = filled(span, -1);
                    IntBuffer scatteredV = filled(me.rank() + 1, -1);
                    IntBuffer toScatterV = MPI.newIntBuffer(span);
                    for (int i = 0; i < span; i++) {
                        toScatterV.put(i, 7000 + i);
                    }
                    if (nonBlocking) {
                        reqs.add(ic.iBcast(bc, c, MPI.INT, root));
                        reqs.add(ic.iGather(mine, c, MPI.INT, gathered, c, MPI.INT, root));
                        reqs.add(ic.iScatter(toScatter, c, MPI.INT, scattered, c, MPI.INT, root));
                        reqs.add(ic.iReduce(mine, reduced, c, MPI.INT, MPI.SUM, root));
                        reqs.add(ic.iGatherv(mine, me.rank() + 1, MPI.INT, gatheredV, counts, displs, MPI.INT, root));
                        reqs.add(ic.iScatterv(toScatterV, counts, displs, MPI.INT, scatteredV, me.rank() + 1, MPI.INT,
                            root));
                        complete(reqs);
                    } else {
                        ic.bcast(bc, c, MPI.INT, root);
                        ic.gather(mine, c, MPI.INT, gathered, c, MPI.INT, root);
                        ic.scatter(toScatter, c, MPI.INT, scattered, c, MPI.INT, root);
                        ic.reduce(mine, reduced, c, MPI.INT, MPI.SUM, root);
                        ic.gatherv(mine, me.rank() + 1, MPI.INT, gatheredV, counts, displs, MPI.INT, root);
                        ic.scatterv(toScatterV, counts, displs, MPI.INT, scatteredV, me.rank() + 1, MPI.INT, root);
                    }
                    for (int i = 0; i < c; i++) {
                        assertEquals(receives || isRoot ? value(rootGroup, rootRank, i) : -1, bc.get(i), "bcast");
                        assertEquals(receives ? 5000 + me.rank() * c + i : -1, scattered.get(i), "scatter");
                        int sum = 0;
                        for (int j = 0; j < remote; j++) {
                            sum += value(me.other(), j, i);
                        }
                        assertEquals(isRoot ? sum : -1, reduced.get(i), "reduce");
                    }
                    for (int j = 0; j < remote; j++) {
                        for (int i = 0; i < c; i++) {
                            assertEquals(isRoot ? value(me.other(), j, i) : -1, gathered.get(j * c + i), "gather");
                        }
                        for (int i = 0; i < counts[j]; i++) {
                            assertEquals(isRoot ? value(me.other(), j, i) : -1, gatheredV.get(displs[j] + i), "gatherv");
                        }
                    }
                    int r = me.rank();
                    for (int i = 0; i <= r; i++) {
                        assertEquals(receives ? 7000 + r * (r + 3) / 2 + i : -1, scatteredV.get(i), "scatterv");
                    }
                }
            }
            return null;
        });
    }
}
