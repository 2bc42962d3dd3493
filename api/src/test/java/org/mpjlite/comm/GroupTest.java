package org.mpjlite.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import mpi.Group;
import mpi.MPI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.Tunables;

/**
 * Groups in both dialects: every operation checked against a reference computed here on lists of
 * world ranks, on 1 to 8 ranks, and the errors of bad input.
 */
class GroupTest {
    static Stream<World> worlds() {
        return Jobs.worlds(IntStream.of(1, 2, 3, 4, 7, 8), Tunables.DEFAULT_EAGER_THRESHOLD);
    }

    /** The world ranks of {@code g}'s members, in group order (read through Translate_ranks). */
    static int[] worldRanks(Group g) {
        int[] ranks = IntStream.range(0, g.Size()).toArray();
        return Group.Translate_ranks(g, ranks, MPI.COMM_WORLD.Group());
    }

    // ---- the reference: groups as lists of world ranks -----------------------------------------

    static int[] incl(int[] g, int[] ranks) {
        return Arrays.stream(ranks).map(r -> g[r]).toArray();
    }

    static int[] excl(int[] g, int[] ranks) {
        return IntStream.range(0, g.length).filter(i -> Arrays.stream(ranks).noneMatch(r -> r == i)).map(i -> g[i])
            .toArray();
    }

    static int[] expand(int[][] ranges) {
        List<Integer> out = new ArrayList<>();
        for (int[] t : ranges) {
            for (int k = 0; k <= (t[1] - t[0]) / t[2]; k++) {
                out.add(t[0] + k * t[2]);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    static boolean contains(int[] g, int w) {
        return Arrays.stream(g).anyMatch(x -> x == w);
    }

    static int[] union(int[] a, int[] b) {
        return IntStream.concat(Arrays.stream(a), Arrays.stream(b).filter(w -> !contains(a, w))).toArray();
    }

    static int[] intersection(int[] a, int[] b) {
        return Arrays.stream(a).filter(w -> contains(b, w)).toArray();
    }

    static int[] difference(int[] a, int[] b) {
        return Arrays.stream(a).filter(w -> !contains(b, w)).toArray();
    }

    static int compare(int[] a, int[] b) {
        if (Arrays.equals(a, b)) {
            return MPI.IDENT;
        }
        int[] sa = a.clone();
        int[] sb = b.clone();
        Arrays.sort(sa);
        Arrays.sort(sb);
        return Arrays.equals(sa, sb) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    static int rankOf(int[] g, int w) {
        return IntStream.range(0, g.length).filter(i -> g[i] == w).findFirst().orElse(MPI.UNDEFINED);
    }

    /** {@code k} distinct ranks of 0..n-1 in a random order. */
    static int[] distinct(Random rnd, int n, int k) {
        List<Integer> all = new ArrayList<>();
        IntStream.range(0, n).forEach(all::add);
        java.util.Collections.shuffle(all, rnd);
        return all.subList(0, k).stream().mapToInt(Integer::intValue).toArray();
    }

    /** Disjoint triplets over 0..n-1, some with negative strides. */
    static int[][] ranges(Random rnd, int n) {
        List<int[]> out = new ArrayList<>();
        boolean[] used = new boolean[n];
        for (int t = 0; t < 3; t++) {
            int first = rnd.nextInt(n);
            int stride = (1 + rnd.nextInt(3)) * (rnd.nextBoolean() ? 1 : -1);
            int last = first;
            if (used[first]) {
                continue;
            }
            used[first] = true;
            while (last + stride >= 0 && last + stride < n && !used[last + stride] && rnd.nextInt(4) != 0) {
                last += stride;
                used[last] = true;
            }
            out.add(new int[] {first, last, stride});
        }
        return out.toArray(new int[0][]);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void groupAlgebraMatchesTheReference(World w) {
        List<Integer> out = w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            Group world = MPI.COMM_WORLD.Group();
            int[] ref = IntStream.range(0, n).toArray();
            assertArrayEquals(ref, worldRanks(world));
            Random rnd = new Random(n * 31L + me);
            int checks = 0;
            for (int round = 0; round < 40; round++) {
                int[] ra = distinct(rnd, n, rnd.nextInt(n + 1));
                int[] rb = distinct(rnd, n, rnd.nextInt(n + 1));
                // Alternate the dialects: the same operations under both names.
                boolean open = round % 2 == 1;
                Group a = open ? world.incl(ra) : world.Incl(ra);
                Group b = open ? world.excl(rb) : world.Excl(rb);
                int[] refA = incl(ref, ra);
                int[] refB = excl(ref, rb);
                int[][] rr = ranges(rnd, n);
                Group c = open ? world.rangeIncl(rr) : world.Range_incl(rr);
                Group d = open ? world.rangeExcl(rr) : world.Range_excl(rr);
                int[] refC = incl(ref, expand(rr));
                int[] refD = excl(ref, expand(rr));
                Group[] groups = {a, b, c, d};
                int[][] refs = {refA, refB, refC, refD};
                for (int i = 0; i < groups.length; i++) {
                    Group g = groups[i];
                    assertArrayEquals(refs[i], worldRanks(g), "group " + i + " round " + round);
                    assertEquals(refs[i].length, open ? g.getSize() : g.Size());
                    assertEquals(rankOf(refs[i], me), open ? g.getRank() : g.Rank());
                    for (int j = 0; j < groups.length; j++) {
                        Group h = groups[j];
                        assertArrayEquals(union(refs[i], refs[j]),
                            worldRanks(open ? Group.union(g, h) : Group.Union(g, h)));
                        assertArrayEquals(intersection(refs[i], refs[j]),
                            worldRanks(open ? Group.intersection(g, h) : Group.Intersection(g, h)));
                        assertArrayEquals(difference(refs[i], refs[j]),
                            worldRanks(open ? Group.difference(g, h) : Group.Difference(g, h)));
                        assertEquals(compare(refs[i], refs[j]), open ? Group.compare(g, h) : Group.Compare(g, h));
                        // Translate every rank of g into h, with PROC_NULL mixed in.
                        int[] from = IntStream.rangeClosed(-1, refs[i].length - 1)
                            .map(r -> r < 0 ? MPI.PROC_NULL : r).toArray();
                        int[] in = refs[i];
                        int[] to = refs[j];
                        int[] expected = Arrays.stream(from)
                            .map(r -> r == MPI.PROC_NULL ? MPI.PROC_NULL : rankOf(to, in[r])).toArray();
                        assertArrayEquals(expected,
                            open ? Group.translateRanks(g, from, h) : Group.Translate_ranks(g, from, h));
                        checks++;
                    }
                }
            }
            return checks;
        });
        assertTrue(out.stream().allMatch(c -> c == 40 * 16));
    }

    @Jobs.AnyRanks
    void rangesRunBothWaysAndTheEmptyResultIsGroupEmpty(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            Group world = MPI.COMM_WORLD.Group();
            // From the last rank down to 0 in steps of 2, then the rest upwards.
            int[][] down = {{n - 1, 0, -2}};
            int[] expected = IntStream.iterate(n - 1, r -> r >= 0, r -> r - 2).toArray();
            assertArrayEquals(expected, worldRanks(world.Range_incl(down)));
            int[] rest = IntStream.range(0, n).filter(r -> (n - 1 - r) % 2 != 0).toArray();
            assertArrayEquals(rest, worldRanks(world.Range_excl(down)));
            // A single-rank triplet and a reversed whole range.
            assertArrayEquals(new int[] {0}, worldRanks(world.Range_incl(new int[][] {{0, 0, 5}})));
            assertArrayEquals(IntStream.range(0, n).map(r -> n - 1 - r).toArray(),
                worldRanks(world.rangeIncl(new int[][] {{n - 1, 0, -1}})));
            // Nothing left: MPI_GROUP_EMPTY itself, whatever the operation.
            assertSame(MPI.GROUP_EMPTY, world.Incl(new int[0]));
            assertSame(MPI.GROUP_EMPTY, world.Excl(IntStream.range(0, n).toArray()));
            assertSame(MPI.GROUP_EMPTY, world.Range_excl(new int[][] {{0, n - 1, 1}}));
            assertSame(MPI.GROUP_EMPTY, Group.Difference(world, world));
            assertSame(MPI.GROUP_EMPTY, Group.intersection(world, MPI.GROUP_EMPTY));
            assertEquals(0, MPI.GROUP_EMPTY.Size());
            assertEquals(MPI.UNDEFINED, MPI.GROUP_EMPTY.Rank());
            assertEquals(MPI.IDENT, Group.Compare(MPI.GROUP_EMPTY, world.Incl(new int[0])));
            assertEquals(MPI.UNEQUAL, Group.compare(MPI.GROUP_EMPTY, world));
            assertEquals(MPI.IDENT, Group.Compare(world, Group.Union(world, MPI.GROUP_EMPTY)));
            // Freeing the shared empty group does nothing, for this rank or the others.
            MPI.GROUP_EMPTY.free();
            assertFalse(MPI.GROUP_EMPTY.isNull());
            assertEquals(0, MPI.GROUP_EMPTY.getSize());
            // A group without the caller: Rank is UNDEFINED; with it, its place.
            Group others = world.Excl(new int[] {me});
            assertEquals(MPI.UNDEFINED, others.Rank());
            assertEquals(me, world.Rank());
            assertEquals(0, world.Incl(new int[] {me}).getRank());
            return null;
        });
    }

    @Jobs.AnyRanks
    void translateRanksAndCompareAcrossCommunicators(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            mpi.Intracomm reversed = MPI.COMM_WORLD.Split(0, -me);
            Group world = MPI.COMM_WORLD.Group();
            Group rev = reversed.getGroup();
            assertEquals(n == 1 ? MPI.IDENT : MPI.SIMILAR, Group.Compare(world, rev));
            assertEquals(MPI.IDENT, Group.compare(world, MPI.COMM_WORLD.getGroup()));
            int[] all = IntStream.range(0, n).toArray();
            assertArrayEquals(IntStream.range(0, n).map(r -> n - 1 - r).toArray(), Group.Translate_ranks(world, all, rev));
            Group self = MPI.COMM_SELF.Group();
            int[] mine = Group.translateRanks(world, all, self);
            for (int r = 0; r < n; r++) {
                assertEquals(r == me ? 0 : MPI.UNDEFINED, mine[r]);
            }
            assertArrayEquals(new int[] {MPI.PROC_NULL, me},
                Group.Translate_ranks(self, new int[] {MPI.PROC_NULL, 0}, world));
            return null;
        });
    }

    @Jobs.MultiRanks
    void badInputIsAnErrorNamingTheCallAndTheArgument(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            Group world = MPI.COMM_WORLD.Group();
            Jobs.assertMpiError(MPI.ERR_RANK, () -> world.Incl(new int[] {0, n}), "Incl", "ranks[1]", "" + n);
            Jobs.assertMpiError(MPI.ERR_RANK, () -> world.incl(new int[] {-1}), "incl", "ranks[0]", "-1");
            Jobs.assertMpiError(MPI.ERR_RANK, () -> world.Incl(new int[] {1, 0, 1}), "Incl", "ranks[2]", "twice");
            Jobs.assertMpiError(MPI.ERR_RANK, () -> world.Excl(new int[] {0, 0}), "Excl", "twice");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> world.Incl(null), "Incl", "ranks");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> world.Range_incl(new int[][] {{0, 1, 0}}), "Range_incl",
                "ranges[0]", "stride 0");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> world.rangeIncl(new int[][] {{1, 0, 1}}), "rangeIncl", "ranges[0]",
                "never reaches");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> world.Range_excl(new int[][] {{0, 1}}), "Range_excl", "ranges[0]",
                "triplet");
            Jobs.assertMpiError(MPI.ERR_RANK, () -> world.Range_incl(new int[][] {{0, n, 1}}), "Range_incl",
                "gives rank " + n);
            Jobs.assertMpiError(MPI.ERR_RANK, () -> world.Range_incl(new int[][] {{0, 1, 1}, {1, 1, 1}}),
                "Range_incl", "ranges[1]", "again");
            Jobs.assertMpiError(MPI.ERR_RANK, () -> Group.Translate_ranks(world, new int[] {n}, world),
                "Translate_ranks", "ranks1[0]");
            Jobs.assertMpiError(MPI.ERR_GROUP, () -> Group.Union(world, null), "Union", "group2");
            Jobs.assertMpiError(MPI.ERR_GROUP, () -> MPI.GROUP_NULL.Size(), "Size", "null group");
            assertTrue(MPI.GROUP_NULL.isNull());
            // A freed group is a null group.
            Group g = world.Incl(new int[] {1, 0});
            g.free();
            assertTrue(g.isNull());
            Jobs.assertMpiError(MPI.ERR_GROUP, g::getSize, "getSize", "freed");
            Jobs.assertMpiError(MPI.ERR_GROUP, () -> Group.compare(world, g), "compare", "group2");
            Jobs.assertMpiError(MPI.ERR_GROUP, g::free, "free");
            assertFalse(world.isNull());
            return null;
        });
    }
}
