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
import mpi.User_function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs;

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

    /** What a rank runs, given its side of the job's intercommunicator. */
    @FunctionalInterface
    interface SideProgram {
        void run(Side me) throws Exception;
    }

    /** Runs {@code body} on every rank of a job of {@code shape}, between MPI.Init and MPI.Finalize. */
    static void onEveryRank(Shape shape, SideProgram body) {
        Worlds.of(shape.size()).run(() -> {
            body.run(side(shape));
            return null;
        });
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
        onEveryRank(shape, me -> {
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
        });
    }

    /** Sender s's block for remote rank r in the Alltoall tests: (s + r) % 2 + 1 items in the v-forms. */
    static int pairCount(int s, int r) {
        return (s + r) % 2 + 1;
    }

    static int pairValue(int g, int s, int r, int i) {
        return 10000 * g + 100 * s + 10 * r + i;
    }

    @Shapes
    void dataFlowsBothWaysBlockingAndNot(Shape shape) {
        onEveryRank(shape, me -> {
            Intercomm ic = me.ic();
            int g = me.group();
            int r = me.rank();
            int remote = me.remoteSize();
            // Each group sends its own count: 2 items from group 0, 3 from group 1.
            int cs = g == 0 ? 2 : 3;
            int cr = g == 0 ? 3 : 2;
            int total = me.size() * remote;
            for (boolean nonBlocking : new boolean[] {false, true}) {
                IntBuffer mine = MPI.newIntBuffer(Math.max(3, r + 1));
                for (int i = 0; i < mine.capacity(); i++) {
                    mine.put(i, value(g, r, i));
                }
                IntBuffer gathered = filled(remote * cr, -1);
                int[] counts = new int[remote];
                int[] displs = new int[remote];
                for (int j = 0; j < remote; j++) {
                    counts[j] = j + 1;
                    displs[j] = j * (j + 3) / 2;
                }
                IntBuffer gatheredV = filled(displs[remote - 1] + counts[remote - 1], -1);
                IntBuffer toAll = MPI.newIntBuffer(remote * cs);
                IntBuffer fromAll = filled(remote * cr, -1);
                int[] sc = new int[remote];
                int[] sd = new int[remote];
                int[] rc = new int[remote];
                int[] byteDispls = new int[remote];
                Datatype[] types = new Datatype[remote];
                IntBuffer toAllV = MPI.newIntBuffer(remote * 3);
                for (int j = 0; j < remote; j++) {
                    for (int i = 0; i < cs; i++) {
                        toAll.put(j * cs + i, pairValue(g, r, j, i));
                    }
                    sc[j] = pairCount(r, j);
                    rc[j] = pairCount(j, r);
                    sd[j] = 3 * j;
                    byteDispls[j] = 12 * j;
                    types[j] = MPI.INT;
                    for (int i = 0; i < sc[j]; i++) {
                        toAllV.put(3 * j + i, pairValue(g, r, j, i));
                    }
                }
                IntBuffer fromAllV = filled(remote * 3, -1);
                IntBuffer fromAllW = filled(remote * 3, -1);
                IntBuffer sum = filled(3, -1);
                IntBuffer vector = MPI.newIntBuffer(total);
                for (int e = 0; e < total; e++) {
                    vector.put(e, value(g, r, e));
                }
                // Reduce_scatter: this group's counts add up to the total of both groups' vectors.
                int[] scatterCounts = new int[me.size()];
                java.util.Arrays.fill(scatterCounts, remote);
                if (me.size() > 1) {
                    scatterCounts[0]++;
                    scatterCounts[me.size() - 1]--;
                }
                IntBuffer scattered = filled(scatterCounts[r], -1);
                IntBuffer block = filled(remote, -1);
                List<Request> reqs = new ArrayList<>();
                if (nonBlocking) {
                    reqs.add(ic.iAllGather(mine, cs, MPI.INT, gathered, cr, MPI.INT));
                    reqs.add(ic.iAllGatherv(mine, r + 1, MPI.INT, gatheredV, counts, displs, MPI.INT));
                    reqs.add(ic.iAllToAll(toAll, cs, MPI.INT, fromAll, cr, MPI.INT));
                    reqs.add(ic.iAllToAllv(toAllV, sc, sd, MPI.INT, fromAllV, rc, sd, MPI.INT));
                    reqs.add(ic.iAllToAllw(toAllV, sc, byteDispls, types, fromAllW, rc, byteDispls, types));
                    reqs.add(ic.iAllReduce(mine, sum, 3, MPI.INT, MPI.SUM));
                    reqs.add(ic.iReduceScatter(vector, scattered, scatterCounts, MPI.INT, MPI.SUM));
                    reqs.add(ic.iReduceScatterBlock(vector, block, remote, MPI.INT, MPI.SUM));
                    reqs.add(ic.iBarrier());
                    complete(reqs);
                } else {
                    ic.allGather(mine, cs, MPI.INT, gathered, cr, MPI.INT);
                    ic.allGatherv(mine, r + 1, MPI.INT, gatheredV, counts, displs, MPI.INT);
                    ic.allToAll(toAll, cs, MPI.INT, fromAll, cr, MPI.INT);
                    ic.allToAllv(toAllV, sc, sd, MPI.INT, fromAllV, rc, sd, MPI.INT);
                    ic.allToAllw(toAllV, sc, byteDispls, types, fromAllW, rc, byteDispls, types);
                    ic.allReduce(mine, sum, 3, MPI.INT, MPI.SUM);
                    ic.reduceScatter(vector, scattered, scatterCounts, MPI.INT, MPI.SUM);
                    ic.reduceScatterBlock(vector, block, remote, MPI.INT, MPI.SUM);
                    ic.barrier();
                }
                int other = me.other();
                for (int j = 0; j < remote; j++) {
                    for (int i = 0; i < cr; i++) {
                        assertEquals(value(other, j, i), gathered.get(j * cr + i), "allGather");
                        assertEquals(pairValue(other, j, r, i), fromAll.get(j * cr + i), "allToAll");
                    }
                    for (int i = 0; i <= j; i++) {
                        assertEquals(value(other, j, i), gatheredV.get(displs[j] + i), "allGatherv");
                    }
                    for (int i = 0; i < 3; i++) {
                        int expected = i < rc[j] ? pairValue(other, j, r, i) : -1;
                        assertEquals(expected, fromAllV.get(3 * j + i), "allToAllv");
                        assertEquals(expected, fromAllW.get(3 * j + i), "allToAllw");
                    }
                }
                int offset = 0;
                for (int k = 0; k < r; k++) {
                    offset += scatterCounts[k];
                }
                for (int e = 0; e < total; e++) {
                    int reduced = 0;
                    for (int j = 0; j < remote; j++) {
                        reduced += value(other, j, e);
                    }
                    if (e < 3) {
                        assertEquals(reduced, sum.get(e), "allReduce");
                    }
                    if (e >= offset && e < offset + scatterCounts[r]) {
                        assertEquals(reduced, scattered.get(e - offset), "reduceScatter");
                    }
                    if (e >= r * remote && e < (r + 1) * remote) {
                        assertEquals(reduced, block.get(e - r * remote), "reduceScatterBlock");
                    }
                }
            }
        });
    }

    @Shapes
    void noRankLeavesABarrierBeforeEveryRankOfBothGroupsEntered(Shape shape) {
        onEveryRank(shape, me -> {
            for (int round = 0; round < 3; round++) {
                // The ranks of one group come late, in turn.
                if (me.group() == round % 2) {
                    Thread.sleep(20);
                }
                long[] times = {System.nanoTime(), 0};
                if (round == 2) {
                    me.ic().Barrier();
                } else {
                    Request.waitAll(new Request[] {me.ic().iBarrier()});
                }
                times[1] = System.nanoTime();
                long[] all = new long[2 * shape.size()];
                MPI.COMM_WORLD.allGather(times, 2, MPI.LONG, all, 2, MPI.LONG);
                long lastEntry = Long.MIN_VALUE;
                long firstExit = Long.MAX_VALUE;
                for (int k = 0; k < shape.size(); k++) {
                    lastEntry = Math.max(lastEntry, all[2 * k]);
                    firstExit = Math.min(firstExit, all[2 * k + 1]);
                }
                assertTrue(lastEntry <= firstExit, "a rank left before the last one entered");
            }
        });
    }

    /** Keeps the lower rank's contribution: the result is remote rank 0's if reductions go in rank order. */
    static final class First extends UserFunction {
        @Override
        public void call(Object in, Object inOut, int count, Datatype type) {
            System.arraycopy(in, 0, inOut, 0, count);
        }
    }

    /** {@link First} in mpiJava's form, which also reduces objects. */
    static final class FirstObject extends User_function {
        @Override
        public void Call(Object in, int inOffset, Object inOut, int inOutOffset, int count, Datatype type) {
            System.arraycopy(in, inOffset, inOut, inOutOffset, count);
        }
    }

    /**
     * The same array as send and receive buffer, too large to be copied eagerly (as mpiJava programs
     * do on intracommunicators): each rank still gets the remote group's data as sent.
     */
    @Shapes
    void theSameArrayAsSendAndReceiveBufferGivesTheRemoteGroupsData(Shape shape) {
        onEveryRank(shape, me -> {
            int m = 2000;
            int remote = me.remoteSize();
            int[] a = new int[m * Math.max(me.size(), remote)];
            for (int i = 0; i < m; i++) {
                a[i] = value(me.group(), me.rank(), i);
            }
            me.ic().Allreduce(a, 0, a, 0, m, MPI.INT, MPI.SUM);
            for (int i = 0; i < m; i++) {
                int want = remote * (1000 * me.other() + i) + 100 * remote * (remote - 1) / 2;
                assertEquals(want, a[i], "Allreduce " + i);
            }
            for (int i = 0; i < m; i++) {
                a[i] = value(me.group(), me.rank(), i);
            }
            me.ic().Allgather(a, 0, m, MPI.INT, a, 0, m, MPI.INT);
            for (int j = 0; j < remote; j++) {
                for (int i = 0; i < m; i++) {
                    assertEquals(value(me.other(), j, i), a[j * m + i], "Allgather block " + j);
                }
            }
            for (int j = 0; j < remote; j++) {
                java.util.Arrays.fill(a, j * m, (j + 1) * m, value(me.group(), me.rank(), j));
            }
            me.ic().Alltoall(a, 0, m, MPI.INT, a, 0, m, MPI.INT);
            for (int j = 0; j < remote; j++) {
                for (int i = 0; i < m; i++) {
                    assertEquals(value(me.other(), j, me.rank()), a[j * m + i], "Alltoall block " + j);
                }
            }
        });
    }

    @Shapes
    void mpiJavaDialectWithObjectsAVectorTypeAndAUserOperation(Shape shape) {
        onEveryRank(shape, me -> {
            Intercomm ic = me.ic();
            int g = me.group();
            int r = me.rank();
            int remote = me.remoteSize();
            int other = me.other();
            for (int rootGroup = 0; rootGroup < 2; rootGroup++) {
                int root = me.root(rootGroup, 0);
                boolean receives = g != rootGroup;
                // MPI.OBJECT: Bcast from rank 0 of the root group; Gather of a string from each remote rank.
                Object[] box = {null, root == MPI.ROOT ? List.of("from", rootGroup) : null};
                ic.Bcast(box, 1, 1, MPI.OBJECT, root);
                assertEquals(receives || root == MPI.ROOT ? List.of("from", rootGroup) : null, box[1], "Bcast objects");
                Object[] names = new Object[remote + 1];
                ic.Gather(new Object[] {"g" + g + "r" + r}, 0, 1, MPI.OBJECT, names, 1, 1, MPI.OBJECT, root);
                for (int j = 0; j < remote; j++) {
                    assertEquals(root == MPI.ROOT ? "g" + other + "r" + j : null, names[1 + j], "Gather objects");
                }
                // A vector: 3 blocks of one int, two apart.
                Datatype every2 = Datatype.createVector(3, 1, 2, MPI.INT);
                every2.commit();
                int[] v = new int[6];
                java.util.Arrays.fill(v, -1);
                if (root == MPI.ROOT) {
                    for (int i = 0; i < 3; i++) {
                        v[2 * i] = value(g, r, i);
                    }
                }
                ic.Bcast(v, 0, 1, every2, root);
                for (int i = 0; i < 3; i++) {
                    assertEquals(receives || root == MPI.ROOT ? value(rootGroup, 0, i) : -1, v[2 * i], "Bcast vector");
                    assertEquals(-1, v[2 * i + 1], "Bcast vector: the gaps stay");
                }
                int[] mine = {value(g, r, 0), 0, value(g, r, 1), 0, value(g, r, 2), 0};
                // The vector's extent is 5 ints: remote rank j's items land at 5j, 5j + 2 and 5j + 4.
                int[] all = new int[5 * remote + 1];
                java.util.Arrays.fill(all, -1);
                ic.Gather(mine, 0, 1, every2, all, 0, 1, every2, root);
                for (int j = 0; j < remote; j++) {
                    for (int i = 0; i < 3; i++) {
                        assertEquals(root == MPI.ROOT ? value(other, j, i) : -1, all[5 * j + 2 * i], "Gather vector");
                    }
                    assertEquals(-1, all[5 * j + 1], "Gather vector: the gaps stay");
                    assertEquals(-1, all[5 * j + 3], "Gather vector: the gaps stay");
                }
                // Allgather of the vector, staged the same way: each rank gets every remote rank's item.
                int[] everyone = new int[5 * remote + 1];
                ic.Allgather(mine, 0, 1, every2, everyone, 0, 1, every2);
                for (int j = 0; j < remote; j++) {
                    for (int i = 0; i < 3; i++) {
                        assertEquals(value(other, j, i), everyone[5 * j + 2 * i], "Allgather vector");
                    }
                }
                every2.free();
            }
            // Allreduce with a non-commutative user operation, in both dialects; on objects too.
            int[] got = new int[2];
            ic.Allreduce(new int[] {value(g, r, 0), value(g, r, 1)}, 0, got, 0, 2, MPI.INT, new Op(new First(), false));
            assertArrayEquals(new int[] {value(other, 0, 0), value(other, 0, 1)}, got);
            IntBuffer sum = MPI.newIntBuffer(1);
            ic.allReduce(filled(1, r + 1), sum, 1, MPI.INT, MPI.SUM);
            assertEquals(remote * (remote + 1) / 2, sum.get(0));
            Object[] firstObject = new Object[1];
            ic.Allreduce(new Object[] {"g" + g + "r" + r}, 0, firstObject, 0, 1, MPI.OBJECT, new Op(new FirstObject(), false));
            assertEquals("g" + other + "r0", firstObject[0]);
            int[] fromEach = new int[remote];
            ic.Allgather(new int[] {r}, 0, 1, MPI.INT, fromEach, 0, 1, MPI.INT);
            for (int j = 0; j < remote; j++) {
                assertEquals(j, fromEach[j]);
            }
            ic.Barrier();
        });
    }

    @Shapes
    void argumentErrorsNameTheCallAndTheArgument(Shape shape) {
        onEveryRank(shape, me -> {
            Intercomm ic = me.ic();
            int remote = me.remoteSize();
            IntBuffer b = filled(4, 0);
            Jobs.assertMpiError(MPI.ERR_ROOT, () -> ic.bcast(b, 2, MPI.INT, remote), "bcast", "root " + remote,
                "MPI.ROOT, MPI.PROC_NULL or a rank of the remote group (size " + remote);
            Jobs.assertMpiError(MPI.ERR_ROOT, () -> ic.Gather(new int[1], 0, 1, MPI.INT, new int[remote], 0, 1, MPI.INT,
                -7), "Gather", "root -7");
            // MPI_IN_PLACE is not defined on intercommunicators.
            Jobs.assertMpiError(MPI.ERR_ARG, () -> ic.allGather(b, 1, MPI.INT), "allGather", "MPI_IN_PLACE",
                "intercommunicator");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> ic.gather(b, 1, MPI.INT, MPI.ROOT), "gather", "MPI_IN_PLACE");
            Jobs.assertMpiError(MPI.ERR_BUFFER, () -> ic.allReduce(b, 1, MPI.INT, MPI.SUM), "allReduce", "MPI_IN_PLACE");
            Jobs.assertMpiError(MPI.ERR_BUFFER, () -> ic.iReduceScatterBlock(b, 1, MPI.INT, MPI.SUM),
                "iReduceScatterBlock", "MPI_IN_PLACE");
            // A root buffer too small for a block from every remote rank.
            Jobs.assertMpiError(MPI.ERR_BUFFER, () -> ic.gather(b, 1, MPI.INT, MPI.newIntBuffer(remote - 1), 1, MPI.INT,
                MPI.ROOT), "gather", "receive buffer");
            // MPI.ROOT at every rank of group 0 when it has two or more: the calls do not match.
            if (me.sizeOf(0) > 1) {
                int root = me.group() == 0 ? MPI.ROOT : 0;
                Jobs.assertMpiError(MPI.ERR_ROOT, () -> ic.bcast(b, 2, MPI.INT, root), "bcast", "do not match",
                    "root=MPI.ROOT", "MPI.ROOT at the root");
            }
            // MPI.PROC_NULL in both groups: neither names a root.
            Jobs.assertMpiError(MPI.ERR_ROOT, () -> ic.reduce(b, b, 1, MPI.INT, MPI.SUM, MPI.PROC_NULL), "reduce",
                "do not match", "root=MPI.PROC_NULL");
            ic.barrier();
        });
    }

    @Shapes
    void callsThatDoNotMatchAcrossTheGroupsFailOnEveryRank(Shape shape) {
        onEveryRank(shape, me -> {
            Intercomm ic = me.ic();
            int g = me.group();
            // One group broadcasts while the other enters a barrier: each rank's report names both calls.
            Jobs.assertMpiError(MPI.ERR_NOT_SAME, () -> {
                if (g == 0) {
                    ic.bcast(filled(1, 0), 1, MPI.INT, me.root(0, 0));
                } else {
                    ic.barrier();
                }
            }, "do not match", "bcast(root=", "barrier", "of the remote group");
            // Group 0 sends 2 ints to each remote rank, group 1 expects 3.
            Jobs.assertMpiError(MPI.ERR_COUNT, () -> ic.allGather(filled(2, 0), 2, MPI.INT,
                MPI.newIntBuffer(3 * me.remoteSize()), g == 0 ? 2 : 3, MPI.INT), "allGather", "do not match");
            // A blocking call against a non-blocking one: both fail, the request at its wait.
            Jobs.assertMpiError(MPI.ERR_NOT_SAME, () -> {
                if (g == 0) {
                    ic.iBarrier().waitFor();
                } else {
                    ic.barrier();
                }
            }, "do not match");
            // Non-blocking on both sides, the root sending 1 int where the other group expects 2: every request fails.
            Jobs.assertMpiError(MPI.ERR_COUNT, () -> ic.iBcast(filled(2, 0), g == 0 ? 1 : 2, MPI.INT, me.root(0, 0))
                .waitFor(), "iBcast", "do not match");
            // The intercommunicator still works.
            IntBuffer sum = MPI.newIntBuffer(1);
            ic.allReduce(filled(1, 1), sum, 1, MPI.INT, MPI.SUM);
            assertEquals(me.remoteSize(), sum.get(0));
        });
    }

    @Shapes
    void aCollectiveOneGroupNeverCallsEndsInADeadlockReport(Shape shape) {
        org.mpjlite.JobFailedException e = org.junit.jupiter.api.Assertions.assertThrows(
            org.mpjlite.JobFailedException.class, () -> Worlds.of(shape.size()).run(() -> {
                Side me = side(shape);
                if (me.group() == 0) {
                    me.ic().barrier();
                } else {
                    MPI.COMM_WORLD.barrier();
                }
                return 0;
            }));
        assertEquals(org.mpjlite.smpdev.DeadlockException.EXIT_CODE, e.exitCode(), e.getMessage());
        Jobs.assertMentions(e.getMessage(), ": barrier(waiting for rank 0 of the remote group",
            ": barrier(waiting for rank");
    }

    /**
     * Group 0 starts non-blocking collectives and then only computes, testing now and then; group 1
     * joins later with blocking calls. The requests complete without group 0 waiting in MPI.
     */
    @Shapes
    void nonBlockingCollectivesCompleteWhileTheCallerComputes(Shape shape) {
        onEveryRank(shape, me -> {
            Intercomm ic = me.ic();
            int remote = me.remoteSize();
            IntBuffer sum = filled(1, -1);
            if (me.group() == 0) {
                Request r = ic.iAllReduce(filled(1, me.rank() + 1), sum, 1, MPI.INT, MPI.SUM);
                while (!r.test()) {
                    Thread.onSpinWait();
                }
            } else {
                Thread.sleep(20);
                ic.iAllReduce(filled(1, me.rank() + 1), sum, 1, MPI.INT, MPI.SUM).waitFor();
            }
            assertEquals(remote * (remote + 1) / 2, sum.get(0));
        });
    }

    /** Concatenates strings: not commutative, so the result shows the order of the reduction. */
    static final class Concat extends User_function {
        @Override
        public void Call(Object in, int inOffset, Object inOut, int inOutOffset, int count, Datatype type) {
            Object[] a = (Object[]) in;
            Object[] b = (Object[]) inOut;
            for (int k = 0; k < count; k++) {
                b[inOutOffset + k] = (String) a[inOffset + k] + b[inOutOffset + k];
            }
        }
    }

    @Shapes
    void objectsMoveBetweenTheGroupsInEveryOperation(Shape shape) {
        onEveryRank(shape, me -> {
            Intercomm ic = me.ic();
            int g = me.group();
            int r = me.rank();
            int remote = me.remoteSize();
            int other = me.other();
            Op concat = new Op(new Concat(), false);
            // Scatter and Reduce with the root at the last rank of group 1.
            int root = me.root(1, me.sizeOf(1) - 1);
            Object[] blocks = new Object[remote];
            for (int j = 0; j < remote; j++) {
                blocks[j] = "to" + j;
            }
            Object[] got = {"none"};
            ic.Scatter(blocks, 0, 1, MPI.OBJECT, got, 0, 1, MPI.OBJECT, root);
            assertEquals(g == 0 ? "to" + r : "none", got[0], "Scatter");
            Object[] reduced = {"none"};
            ic.Reduce(new Object[] {"" + g + r}, 0, reduced, 0, 1, MPI.OBJECT, concat, root);
            StringBuilder all = new StringBuilder();
            for (int j = 0; j < remote; j++) {
                all.append(other).append(j);
            }
            assertEquals(root == MPI.ROOT ? all.toString() : "none", reduced[0], "Reduce");
            // Allgather, Alltoall, Allreduce and Reduce_scatter between the groups.
            Object[] fromEach = new Object[remote];
            ic.Allgather(new Object[] {"" + g + r}, 0, 1, MPI.OBJECT, fromEach, 0, 1, MPI.OBJECT);
            Object[] toEach = new Object[remote];
            for (int j = 0; j < remote; j++) {
                toEach[j] = "" + g + r + ">" + j;
            }
            Object[] exchanged = new Object[remote];
            ic.Alltoall(toEach, 0, 1, MPI.OBJECT, exchanged, 0, 1, MPI.OBJECT);
            for (int j = 0; j < remote; j++) {
                assertEquals("" + other + j, fromEach[j], "Allgather");
                assertEquals("" + other + j + ">" + r, exchanged[j], "Alltoall");
            }
            Object[] allReduced = new Object[1];
            ic.Allreduce(new Object[] {"" + g + r}, 0, allReduced, 0, 1, MPI.OBJECT, concat);
            assertEquals(all.toString(), allReduced[0], "Allreduce");
            // Every rank contributes one item per rank of both groups' total; its group keeps one each.
            int total = me.size() * remote;
            Object[] vector = new Object[total];
            for (int e = 0; e < total; e++) {
                vector[e] = "" + g + r + "." + e + ";";
            }
            int[] counts = new int[me.size()];
            java.util.Arrays.fill(counts, remote);
            Object[] mine = new Object[remote];
            ic.Reduce_scatter(vector, 0, mine, 0, counts, MPI.OBJECT, concat);
            for (int k = 0; k < remote; k++) {
                StringBuilder expected = new StringBuilder();
                for (int j = 0; j < remote; j++) {
                    expected.append(other).append(j).append('.').append(r * remote + k).append(';');
                }
                assertEquals(expected.toString(), mine[k], "Reduce_scatter");
            }
        });
    }
}
