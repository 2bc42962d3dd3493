package org.mpjlite.collective;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToLongFunction;
import java.util.function.LongBinaryOperator;
import java.util.stream.IntStream;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import org.mpjlite.p2p.Jobs.World;

/**
 * Reduce, Allreduce, Reduce_scatter, Scan and Exscan of both dialects with every predefined
 * operation on every buffer kind it applies to, against a sequential reference computed with the
 * type's own arithmetic; in-place variants; every root for small counts.
 */
class ReductionTest {
    private static final int OFF = 2;

    /** A predefined operation and its reference on values as the type stores them. */
    record Case(String name, Op op, LongBinaryOperator ref) {
        boolean appliesTo(Kind k) {
            boolean logical = name.startsWith("L") || name.startsWith("B");
            if (k.isBoolean()) {
                return logical;
            }
            return !(k.isFloating() && logical);
        }

        /** Rank r's input at element i: small values keep float sums and products exact. */
        long input(int r, int i) {
            if (op == MPI.PROD) {
                return 1 + (r + i) % 2;
            }
            if (name.startsWith("L") || name.startsWith("B")) {
                return (r * 7 + i * 3) % 5;
            }
            return (r * 37 + i * 11) % 61 - 30;
        }
    }

    static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        c.add(new Case("MAX", MPI.MAX, Math::max));
        c.add(new Case("MIN", MPI.MIN, Math::min));
        c.add(new Case("SUM", MPI.SUM, Long::sum));
        c.add(new Case("PROD", MPI.PROD, (a, b) -> a * b));
        c.add(new Case("LAND", MPI.LAND, (a, b) -> a != 0 && b != 0 ? 1 : 0));
        c.add(new Case("LOR", MPI.LOR, (a, b) -> a != 0 || b != 0 ? 1 : 0));
        c.add(new Case("LXOR", MPI.LXOR, (a, b) -> (a != 0) != (b != 0) ? 1 : 0));
        c.add(new Case("BAND", MPI.BAND, (a, b) -> a & b));
        c.add(new Case("BOR", MPI.BOR, (a, b) -> a | b));
        c.add(new Case("BXOR", MPI.BXOR, (a, b) -> a ^ b));
        return c;
    }

    private static Intracomm world() {
        return MPI.COMM_WORLD;
    }

    /** Counts from empty to beyond the eager limit; a large one for three kinds on up to 8 ranks. */
    static int[] counts(Kind k, int n) {
        return n <= 8 && (k == Kind.INT_ARRAY || k == Kind.FLOAT_DIRECT || k == Kind.DOUBLE_ARRAY)
            ? new int[] {0, 1, 7, 1030, 20_000} : new int[] {0, 1, 7, 1030};
    }

    /** The reduction of ranks {@code from..to-1} at element i, in the type's arithmetic. */
    static IntToLongFunction reference(Kind k, Case c, int from, int to) {
        return i -> {
            long acc = k.normalize(c.input(from, i));
            for (int r = from + 1; r < to; r++) {
                acc = k.normalize(c.ref().applyAsLong(acc, k.normalize(c.input(r, i))));
            }
            return acc;
        };
    }

    @Worlds.AllSizes
    void allreduceAndReduce(World w) {
        w.run(() -> {
            int n = world().Size();
            int me = world().Rank();
            for (Kind k : Kind.values()) {
                for (Case c : cases()) {
                    if (!c.appliesTo(k)) {
                        continue;
                    }
                    for (int count : counts(k, n)) {
                        String what = c.name() + " of " + count;
                        IntToLongFunction all = reference(k, c, 0, n);
                        Object s = k.filled(count, i -> c.input(me, i));
                        Object r = k.create(count);
                        world().allReduce(s, r, count, k.type, c.op());
                        k.assertHolds(r, 0, count, all, "allReduce " + what);
                        k.assertHolds(s, 0, count, i -> c.input(me, i), "allReduce send buffer unchanged");
                        Object p = k.filled(count, i -> c.input(me, i));
                        world().allReduce(p, count, k.type, c.op());
                        k.assertHolds(p, 0, count, all, "allReduce in place " + what);
                        if (!k.isBuffer()) {
                            Object so = k.filled(OFF + count, i -> c.input(me, i - OFF));
                            Object ro = k.create(OFF + count);
                            world().Allreduce(so, OFF, ro, OFF, count, k.type, c.op());
                            k.assertHolds(ro, OFF, count, all, "Allreduce " + what);
                        }
                        int[] roots = count > 1000 || n > 4 ? IntStream.of(0, n / 2, n - 1).distinct().toArray()
                            : IntStream.range(0, n).toArray();
                        for (int root : roots) {
                            Object rr = k.create(count);
                            world().reduce(s, rr, count, k.type, c.op(), root);
                            Object rp = k.filled(count, i -> c.input(me, i));
                            world().reduce(rp, count, k.type, c.op(), root);
                            if (me == root) {
                                k.assertHolds(rr, 0, count, all, "reduce to " + root + " " + what);
                                k.assertHolds(rp, 0, count, all, "reduce in place to " + root + " " + what);
                            }
                        }
                    }
                }
            }
            return null;
        });
    }

    @Worlds.AllSizes
    void scansAndReduceScatter(World w) {
        w.run(() -> {
            int n = world().Size();
            int me = world().Rank();
            for (Kind k : Kind.values()) {
                for (Case c : cases()) {
                    if (!c.appliesTo(k)) {
                        continue;
                    }
                    for (int count : counts(k, n)) {
                        String what = c.name() + " of " + count;
                        Object s = k.filled(OFF + count, i -> c.input(me, i - OFF));
                        Object r = k.create(OFF + count);
                        world().Scan(s, OFF, r, OFF, count, k.type, c.op());
                        k.assertHolds(r, OFF, count, reference(k, c, 0, me + 1), "Scan " + what);
                        Object p = k.filled(count, i -> c.input(me, i));
                        world().scan(p, count, k.type, c.op());
                        k.assertHolds(p, 0, count, reference(k, c, 0, me + 1), "scan in place " + what);
                        Object x = k.filled(count, i -> 5);
                        world().exScan(k.filled(count, i -> c.input(me, i)), x, count, k.type, c.op());
                        k.assertHolds(x, 0, count, me == 0 ? i -> 5 : reference(k, c, 0, me), "exScan " + what);
                        Object xp = k.filled(count, i -> c.input(me, i));
                        world().exScan(xp, count, k.type, c.op());
                        if (me > 0) {
                            k.assertHolds(xp, 0, count, reference(k, c, 0, me), "exScan in place " + what);
                        }
                        // Reduce_scatter: rank j gets (count + j) % 4 elements; block form: count each.
                        int[] rc = IntStream.range(0, n).map(j -> (count + j) % 4).toArray();
                        int total = IntStream.of(rc).sum();
                        int lo = IntStream.range(0, me).map(j -> rc[j]).sum();
                        IntToLongFunction ref = reference(k, c, 0, n);
                        Object rs = k.filled(OFF + total, i -> c.input(me, i - OFF));
                        Object rr = k.create(OFF + rc[me]);
                        world().Reduce_scatter(rs, OFF, rr, OFF, rc, k.type, c.op());
                        k.assertHolds(rr, OFF, rc[me], i -> ref.applyAsLong(lo + i), "Reduce_scatter " + what);
                        Object rp = k.filled(total, i -> c.input(me, i));
                        world().reduceScatter(rp, rc, k.type, c.op());
                        k.assertHolds(rp, 0, rc[me], i -> ref.applyAsLong(lo + i), "reduceScatter in place " + what);
                        Object bs = k.filled(n * count, i -> c.input(me, i));
                        Object br = k.create(count);
                        world().reduceScatterBlock(bs, br, count, k.type, c.op());
                        k.assertHolds(br, 0, count, i -> ref.applyAsLong(me * count + i), "reduceScatterBlock " + what);
                    }
                }
            }
            return null;
        });
    }
}
