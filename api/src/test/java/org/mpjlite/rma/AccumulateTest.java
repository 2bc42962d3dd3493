package org.mpjlite.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.rma.Sizes.rank;
import static org.mpjlite.rma.Sizes.size;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.List;
import mpi.MPI;
import mpi.Win;
import org.mpjlite.p2p.Jobs.World;

/**
 * Accumulates from every rank to one target at once: results exact whatever the interleaving,
 * because accumulates to a target are atomic per element; fetch-and-op as a shared counter and
 * compare-and-swap as a lock.
 */
class AccumulateTest {
    private static final int ROUNDS = 200;

    @Sizes.AllSizes
    void sumAndMaxOfIntsAndDoublesFromEveryRankUnderLockAll(World w) {
        w.run(() -> {
            int me = rank();
            int n = size();
            IntBuffer ints = MPI.newIntBuffer(2);
            DoubleBuffer doubles = MPI.newDoubleBuffer(2);
            Win iw = new Win(ints, 2, 1, null, MPI.COMM_WORLD);
            Win dw = new Win(doubles, 2, 1, null, MPI.COMM_WORLD);
            IntBuffer one = MPI.newIntBuffer(2).put(0, 1).put(1, me);
            DoubleBuffer half = MPI.newDoubleBuffer(2).put(0, 0.5).put(1, me + 0.25);
            iw.lockAll(0);
            dw.lockAll(0);
            for (int i = 0; i < ROUNDS; i++) {
                iw.accumulate(one, 1, MPI.INT, 0, 0, 1, MPI.INT, MPI.SUM);
                iw.accumulate(MPI.slice(one, 1), 1, MPI.INT, 0, 1, 1, MPI.INT, MPI.MAX);
                dw.accumulate(half, 1, MPI.DOUBLE, 0, 0, 1, MPI.DOUBLE, MPI.SUM);
                dw.accumulate(MPI.slice(half, 1), 1, MPI.DOUBLE, 0, 1, 1, MPI.DOUBLE, MPI.MAX);
            }
            iw.unlockAll();
            dw.unlockAll();
            MPI.COMM_WORLD.barrier();
            if (me == 0) {
                assertEquals(n * ROUNDS, ints.get(0));
                assertEquals(n - 1, ints.get(1));
                assertEquals(n * ROUNDS * 0.5, doubles.get(0));
                assertEquals(n - 1 + 0.25, doubles.get(1));
            }
            iw.free();
            dw.free();
            return null;
        });
    }

    @Sizes.AllSizes
    void replaceAndNoOpInFenceEpochs(World w) {
        w.run(() -> {
            int me = rank();
            int n = size();
            IntBuffer mem = MPI.newIntBuffer(n);
            Win win = new Win(mem, n, 1, null, MPI.COMM_WORLD);
            win.fence(0);
            IntBuffer v = MPI.newIntBuffer(1).put(0, 10 + me);
            for (int t = 0; t < n; t++) {
                win.accumulate(v, 1, MPI.INT, t, me, 1, MPI.INT, MPI.REPLACE);
            }
            win.fence(0);
            for (int s = 0; s < n; s++) {
                assertEquals(10 + s, mem.get(s));
            }
            // NO_OP leaves the target alone and getAccumulate with it reads.
            IntBuffer got = MPI.newIntBuffer(n);
            win.accumulate(v, 1, MPI.INT, 0, 0, 1, MPI.INT, MPI.NO_OP);
            win.getAccumulate(null, 0, MPI.INT, got, n, MPI.INT, (me + 1) % n, 0, n, MPI.INT, MPI.NO_OP);
            win.fence(0);
            for (int s = 0; s < n; s++) {
                assertEquals(10 + s, got.get(s));
                assertEquals(10 + s, mem.get(s));
            }
            win.free();
            return null;
        });
    }

    /**
     * Two shared counters at once: an int one on the last rank, taken by fetchAndOp under lockAll,
     * and a long one on rank 0, taken by getAccumulate under a shared lock.
     */
    @Sizes.AllSizes
    void fetchAndOpAndGetAccumulateAreSharedCounters(World w) {
        List<long[][]> fetched = w.run(() -> {
            int last = size() - 1;
            IntBuffer ints = MPI.newIntBuffer(1);
            LongBuffer longs = MPI.newLongBuffer(1);
            Win iw = new Win(ints, 1, 1, null, MPI.COMM_WORLD);
            Win lw = new Win(longs, 1, 1, null, MPI.COMM_WORLD);
            IntBuffer oneInt = MPI.newIntBuffer(1).put(0, 1);
            LongBuffer oneLong = MPI.newLongBuffer(1).put(0, 1);
            IntBuffer oldInt = MPI.newIntBuffer(1);
            LongBuffer oldLong = MPI.newLongBuffer(1);
            long[][] seen = new long[2][ROUNDS];
            iw.lockAll(0);
            lw.lock(MPI.LOCK_SHARED, 0, 0);
            for (int i = 0; i < ROUNDS; i++) {
                iw.fetchAndOp(oneInt, oldInt, MPI.INT, last, 0, MPI.SUM);
                lw.getAccumulate(oneLong, 1, MPI.LONG, oldLong, 1, MPI.LONG, 0, 0, 1, MPI.LONG, MPI.SUM);
                seen[0][i] = oldInt.get(0);
                seen[1][i] = oldLong.get(0);
            }
            iw.flushAll();
            iw.unlockAll();
            lw.unlock(0);
            MPI.COMM_WORLD.barrier();
            if (rank() == last) {
                assertEquals(size() * ROUNDS, ints.get(0));
            }
            if (rank() == 0) {
                assertEquals(size() * ROUNDS, longs.get(0));
            }
            iw.free();
            lw.free();
            return seen;
        });
        assertUniqueCounts(fetched.stream().map(s -> s[0]).toList(), w.size());
        assertUniqueCounts(fetched.stream().map(s -> s[1]).toList(), w.size());
    }

    /** Every value 0 .. ranks * ROUNDS - 1 was fetched exactly once, and each rank's rise. */
    private static void assertUniqueCounts(List<long[]> fetched, int ranks) {
        boolean[] hit = new boolean[ranks * ROUNDS];
        for (long[] seen : fetched) {
            for (int i = 0; i < seen.length; i++) {
                assertTrue(!hit[(int) seen[i]], "value fetched twice: " + seen[i]);
                hit[(int) seen[i]] = true;
                assertTrue(i == 0 || seen[i] > seen[i - 1]);
            }
        }
    }

    @Sizes.AllSizes
    void compareAndSwapAsALockAroundAPlainReadModifyWrite(World w) {
        w.run(() -> {
            int me = rank();
            int n = size();
            // Word 0: the lock (-1 free, else the owner); word 1: a counter updated by get + put.
            IntBuffer mem = MPI.newIntBuffer(2);
            if (me == 0) {
                mem.put(0, -1);
            }
            Win win = new Win(mem, 2, 1, null, MPI.COMM_WORLD);
            MPI.COMM_WORLD.barrier();
            IntBuffer mine = MPI.newIntBuffer(1).put(0, me);
            IntBuffer free = MPI.newIntBuffer(1).put(0, -1);
            IntBuffer owner = MPI.newIntBuffer(1);
            IntBuffer counter = MPI.newIntBuffer(1);
            int rounds = 50;
            win.lockAll(0);
            for (int i = 0; i < rounds; i++) {
                do {
                    win.compareAndSwap(mine, free, owner, MPI.INT, 0, 0);
                } while (owner.get(0) != -1);
                win.get(counter, 1, MPI.INT, 0, 1, 1, MPI.INT);
                win.flush(0);
                counter.put(0, counter.get(0) + 1);
                win.put(counter, 1, MPI.INT, 0, 1, 1, MPI.INT);
                win.flush(0);
                win.compareAndSwap(free, mine, owner, MPI.INT, 0, 0);
                assertEquals(me, owner.get(0));
            }
            win.unlockAll();
            MPI.COMM_WORLD.barrier();
            if (me == 0) {
                assertEquals(n * rounds, mem.get(1));
                assertEquals(-1, mem.get(0));
            }
            win.free();
            return null;
        });
    }
}
