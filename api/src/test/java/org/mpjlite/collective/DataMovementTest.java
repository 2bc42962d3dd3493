package org.mpjlite.collective;

import java.util.stream.IntStream;
import mpi.Intracomm;
import mpi.MPI;
import org.mpjlite.p2p.Jobs.World;

/**
 * Bcast, Gather(v), Scatter(v), Allgather(v) and Alltoall(v) of both dialects against a sequential
 * reference: every buffer kind, counts from 0 to beyond the eager limit and a large one, every root
 * for small counts, mpiJava offsets, Open MPI in-place overloads. All variants of one collective run
 * in one job per rank count, back to back.
 */
class DataMovementTest {
    /** Offset of mpiJava calls: data does not start at index 0. */
    private static final int OFF = 3;
    /** Large enough to be read in place rather than copied through the slot. */
    private static final int LARGE = 70_000;

    private static Intracomm world() {
        return MPI.COMM_WORLD;
    }

    /** The value rank {@code r} contributes at element {@code i} (block {@code b} for all-to-all). */
    static long value(int r, int b, int i) {
        return r * 1_000_003L + b * 1_009L + i * 7L + 1;
    }

    static int[] counts(Kind k) {
        return k == Kind.INT_ARRAY || k == Kind.FLOAT_DIRECT ? new int[] {0, 1, 13, 1030, LARGE}
            : new int[] {0, 1, 13, 1030};
    }

    /** Buffer kinds: copies do not depend on the element type, so a few arrays and buffers suffice. */
    static final Kind[] KINDS = {Kind.INT_ARRAY, Kind.DOUBLE_ARRAY, Kind.BOOLEAN_ARRAY, Kind.CHAR_ARRAY,
        Kind.INT_DIRECT, Kind.FLOAT_DIRECT, Kind.DOUBLE_HEAP_BUFFER, Kind.BYTE_BIG_ENDIAN};

    /** Every root for small counts and up to 8 ranks; else the first, a middle and the last one. */
    static int[] roots(int n, int count) {
        return count >= LARGE || n > 8 ? IntStream.of(0, n / 2, n - 1).distinct().toArray()
            : IntStream.range(0, n).toArray();
    }

    /** Per-rank counts of the v-variants: uneven, some zero. */
    static int[] vcounts(int n, int count) {
        return IntStream.range(0, n).map(j -> j % 3 == 1 ? 0 : count + j).toArray();
    }

    /** Displacements placing the blocks in reverse rank order with a gap of one element. */
    static int[] vdispls(int[] counts) {
        int n = counts.length;
        int[] d = new int[n];
        int at = 1;
        for (int j = n - 1; j >= 0; j--) {
            d[j] = at;
            at += counts[j] + 1;
        }
        return d;
    }

    static int extent(int[] counts, int[] displs) {
        int e = 0;
        for (int j = 0; j < counts.length; j++) {
            e = Math.max(e, displs[j] + counts[j]);
        }
        return e;
    }

    @Worlds.AllSizes
    void bcast(World w) {
        w.run(() -> {
            int n = world().Size();
            int me = world().Rank();
            for (Kind k : KINDS) {
                for (int count : counts(k)) {
                    for (int root : roots(n, count)) {
                        String what = "bcast of " + count + " from " + root;
                        Object buf = me == root ? k.filled(count, i -> value(root, 0, i)) : k.create(count);
                        world().bcast(buf, count, k.type, root);
                        k.assertHolds(buf, 0, count, i -> value(root, 0, i), what);
                        Object b2 = k.filled(count + OFF + 1, i -> me == root && i >= OFF ? value(root, 1, i - OFF) : -1);
                        world().Bcast(b2, OFF, count, k.type, root);
                        k.assertHolds(b2, OFF, count, i -> value(root, 1, i), "Bcast " + what);
                        k.assertHolds(b2, OFF + count, 1, i -> me == root ? value(root, 1, count) : -1, "past the end");
                    }
                }
            }
            return null;
        });
    }

    @Worlds.AllSizes
    void gatherAndScatter(World w) {
        w.run(() -> {
            int n = world().Size();
            int me = world().Rank();
            for (Kind k : KINDS) {
                for (int count : counts(k)) {
                    for (int root : roots(n, count)) {
                        String what = "count " + count + " root " + root;
                        // Gather, mpiJava with offsets.
                        Object s = k.filled(count + OFF, i -> value(me, 0, i - OFF));
                        Object r = k.create(OFF + n * count);
                        world().Gather(s, OFF, count, k.type, r, OFF, count, k.type, root);
                        if (me == root) {
                            for (int j = 0; j < n; j++) {
                                int b = j;
                                k.assertHolds(r, OFF + j * count, count, i -> value(b, 0, i), "Gather " + what);
                            }
                        }
                        // Gather in place (Open MPI).
                        Object g = me == root ? k.filled(n * count, i -> i / Math.max(count, 1) == root
                            ? value(root, 1, i % count) : -1) : k.filled(count, i -> value(me, 1, i));
                        world().gather(g, count, k.type, root);
                        if (me == root) {
                            for (int j = 0; j < n; j++) {
                                int b = j;
                                k.assertHolds(g, j * count, count, i -> value(b, 1, i), "gather in place " + what);
                            }
                        }
                        // Scatter (Open MPI) and in place.
                        Object src = me == root ? k.filled(n * count, i -> value(i / count, 2, i % count)) : null;
                        Object dst = k.create(count);
                        world().scatter(src, count, k.type, dst, count, k.type, root);
                        k.assertHolds(dst, 0, count, i -> value(me, 2, i), "scatter " + what);
                        Object sp = me == root ? k.filled(n * count, i -> value(i / count, 3, i % count)) : k.create(count);
                        world().scatter(sp, count, k.type, root);
                        k.assertHolds(sp, me == root ? root * count : 0, count, i -> value(me, 3, i), "scatter in place");
                    }
                }
            }
            return null;
        });
    }

    @Worlds.AllSizes
    void gathervAndScatterv(World w) {
        w.run(() -> {
            int n = world().Size();
            int me = world().Rank();
            for (Kind k : KINDS) {
                for (int count : counts(k)) {
                    int[] c = vcounts(n, count);
                    int[] d = vdispls(c);
                    int ext = extent(c, d);
                    for (int root : roots(n, count)) {
                        String what = "count " + count + " root " + root;
                        Object s = k.filled(OFF + c[me], i -> value(me, 0, i - OFF));
                        Object r = k.create(OFF + ext);
                        world().Gatherv(s, OFF, c[me], k.type, r, OFF, c, d, k.type, root);
                        if (me == root) {
                            for (int j = 0; j < n; j++) {
                                int b = j;
                                k.assertHolds(r, OFF + d[j], c[j], i -> value(b, 0, i), "Gatherv " + what);
                            }
                        }
                        Object src = me == root ? k.create(OFF + ext) : null;
                        if (me == root) {
                            for (int j = 0; j < n; j++) {
                                for (int i = 0; i < c[j]; i++) {
                                    k.set(src, OFF + d[j] + i, value(j, 1, i));
                                }
                            }
                        }
                        Object dst = k.create(OFF + c[me] + 1);
                        world().Scatterv(src, OFF, c, d, k.type, dst, OFF, c[me] + 1, k.type, root);
                        k.assertHolds(dst, OFF, c[me], i -> value(me, 1, i), "Scatterv " + what);
                        // In place (Open MPI): the root's block stays where it is.
                        if (me == root) {
                            Object g = k.create(ext);
                            for (int i = 0; i < c[root]; i++) {
                                k.set(g, d[root] + i, value(root, 2, i));
                            }
                            world().gatherv(g, c, d, k.type, root);
                            for (int j = 0; j < n; j++) {
                                int b = j;
                                k.assertHolds(g, d[j], c[j], i -> value(b, 2, i), "gatherv in place " + what);
                            }
                            world().scatterv(g, c, d, k.type, root);
                        } else {
                            world().gatherv(k.filled(c[me], i -> value(me, 2, i)), c[me], k.type, root);
                            Object mine = k.create(c[me]);
                            world().scatterv(mine, c[me], k.type, root);
                            k.assertHolds(mine, 0, c[me], i -> value(me, 2, i), "scatterv in place " + what);
                        }
                    }
                }
            }
            return null;
        });
    }

    @Worlds.AllSizes
    void allgather(World w) {
        w.run(() -> {
            int n = world().Size();
            int me = world().Rank();
            for (Kind k : KINDS) {
                for (int count : counts(k)) {
                    Object s = k.filled(OFF + count, i -> value(me, 0, i - OFF));
                    Object r = k.create(OFF + n * count);
                    world().Allgather(s, OFF, count, k.type, r, OFF, count, k.type);
                    Object p = k.filled(n * count, i -> i / count == me ? value(me, 0, i % count) : -1);
                    world().allGather(p, count, k.type);
                    for (int j = 0; j < n; j++) {
                        int b = j;
                        k.assertHolds(r, OFF + j * count, count, i -> value(b, 0, i), "Allgather of " + count);
                        k.assertHolds(p, j * count, count, i -> value(b, 0, i), "allGather in place of " + count);
                    }
                    int[] c = vcounts(n, count);
                    int[] d = vdispls(c);
                    Object rv = k.create(OFF + extent(c, d));
                    world().Allgatherv(k.filled(OFF + c[me], i -> value(me, 1, i - OFF)), OFF, c[me], k.type,
                        rv, OFF, c, d, k.type);
                    Object pv = k.create(extent(c, d));
                    for (int i = 0; i < c[me]; i++) {
                        k.set(pv, d[me] + i, value(me, 1, i));
                    }
                    world().allGatherv(pv, c, d, k.type);
                    for (int j = 0; j < n; j++) {
                        int b = j;
                        k.assertHolds(rv, OFF + d[j], c[j], i -> value(b, 1, i), "Allgatherv of " + count);
                        k.assertHolds(pv, d[j], c[j], i -> value(b, 1, i), "allGatherv in place of " + count);
                    }
                }
            }
            return null;
        });
    }

    @Worlds.AllSizes
    void alltoall(World w) {
        w.run(() -> {
            int n = world().Size();
            int me = world().Rank();
            for (Kind k : KINDS) {
                for (int count : counts(k)) {
                    if (count >= LARGE && n > 8) {
                        continue;
                    }
                    Object s = k.filled(OFF + n * count, i -> i < OFF ? -1 : value(me, (i - OFF) / count, (i - OFF) % count));
                    Object r = k.create(OFF + n * count);
                    world().Alltoall(s, OFF, count, k.type, r, OFF, count, k.type);
                    for (int j = 0; j < n; j++) {
                        int b = j;
                        k.assertHolds(r, OFF + j * count, count, i -> value(b, me, i), "Alltoall of " + count);
                    }
                    // Alltoallv: rank j sends (count + j + dest) % 5 + ... elements to dest.
                    int[] sc = IntStream.range(0, n).map(dest -> (me + dest) % 3 == 0 ? 0 : count + dest).toArray();
                    int[] rc = IntStream.range(0, n).map(src -> (src + me) % 3 == 0 ? 0 : count + me).toArray();
                    int[] sd = vdispls(sc);
                    int[] rd = vdispls(rc);
                    Object sv = k.create(extent(sc, sd));
                    for (int dest = 0; dest < n; dest++) {
                        for (int i = 0; i < sc[dest]; i++) {
                            k.set(sv, sd[dest] + i, value(me, dest, i));
                        }
                    }
                    Object rv = k.create(extent(rc, rd));
                    world().allToAllv(sv, sc, sd, k.type, rv, rc, rd, k.type);
                    for (int j = 0; j < n; j++) {
                        int b = j;
                        k.assertHolds(rv, rd[j], rc[j], i -> value(b, me, i), "allToAllv of " + count);
                    }
                }
            }
            return null;
        });
    }

    /** Alltoallw: a datatype per peer (INT or DOUBLE by parity) in one ByteBuffer, displacements in bytes. */
    @Worlds.AllSizes
    void alltoallw(World w) {
        w.run(() -> {
            int n = world().Size();
            int me = world().Rank();
            java.nio.ByteBuffer s = MPI.newByteBuffer(16 * n);
            java.nio.ByteBuffer r = MPI.newByteBuffer(16 * n);
            int[] counts = new int[n];
            int[] displs = new int[n];
            mpi.Datatype[] sendTypes = new mpi.Datatype[n];
            mpi.Datatype[] recvTypes = new mpi.Datatype[n];
            for (int j = 0; j < n; j++) {
                boolean ints = (me + j) % 2 == 0;
                counts[j] = ints ? 2 : 1;
                displs[j] = 16 * j;
                sendTypes[j] = ints ? MPI.INT : MPI.DOUBLE;
                recvTypes[j] = sendTypes[j];
                if (ints) {
                    s.putInt(16 * j, 100 * me + j).putInt(16 * j + 4, -me);
                } else {
                    s.putDouble(16 * j, 100 * me + j + 0.5);
                }
            }
            world().allToAllw(s, counts, displs, sendTypes, r, counts, displs, recvTypes);
            for (int j = 0; j < n; j++) {
                if ((me + j) % 2 == 0) {
                    org.junit.jupiter.api.Assertions.assertEquals(100 * j + me, r.getInt(16 * j));
                    org.junit.jupiter.api.Assertions.assertEquals(-j, r.getInt(16 * j + 4));
                } else {
                    org.junit.jupiter.api.Assertions.assertEquals(100 * j + me + 0.5, r.getDouble(16 * j));
                }
            }
            return null;
        });
    }
}
