package org.mpjlite.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ThreadLocalRandom;
import mpi.MPI;
import org.mpjlite.p2p.Jobs.World;

/**
 * Collectives called back to back in loops, with ranks skewed by random pauses, so that a rank
 * enters the next collective (and runs far ahead, wrapping around the engine's slots) while others
 * are still leaving the last; and on COMM_SELF next to COMM_WORLD.
 */
class BackToBackTest {
    @Worlds.AllSizes
    void mixedCollectivesInALoop(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            ThreadLocalRandom rnd = ThreadLocalRandom.current();
            int[] a = new int[1];
            long[] big = new long[3000];
            for (int it = 0; it < 300; it++) {
                if (rnd.nextInt(50) == 0) {
                    Thread.sleep(1);
                }
                MPI.COMM_WORLD.Allreduce(new int[] {me + it}, 0, a, 0, 1, MPI.INT, MPI.SUM);
                assertEquals(n * (n - 1) / 2 + n * it, a[0], "Allreduce " + it);
                int root = it % n;
                if (me == root) {
                    java.util.Arrays.fill(big, it);
                }
                MPI.COMM_WORLD.Bcast(big, 0, big.length, MPI.LONG, root);
                assertEquals(it, big[big.length - 1], "Bcast " + it);
                if (it % 7 == 0) {
                    MPI.COMM_WORLD.Barrier();
                }
                int[] self = {me};
                MPI.COMM_SELF.allReduce(self, 1, MPI.INT, MPI.SUM);
                assertEquals(me, self[0], "COMM_SELF allReduce " + it);
            }
            return null;
        });
    }

    /**
     * No rank leaves a Barrier before every rank has entered it: each rank notes when it entered and
     * left each of 400 Barriers, some after a pause, some right after a small Allreduce (in the
     * lines, as the Barrier), an iBarrier (in the slot) or a Bcast, and every rank's exit comes
     * after every rank's entry ({@code System.nanoTime} is one clock for all threads of the JVM).
     */
    @Worlds.AllSizes
    void noRankLeavesABarrierBeforeEveryRankEnteredIt(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int rounds = 400;
            long[] entered = new long[rounds];
            long[] left = new long[rounds];
            ThreadLocalRandom rnd = ThreadLocalRandom.current();
            int[] sum = new int[1];
            int[] message = new int[16];
            for (int it = 0; it < rounds; it++) {
                switch (it % 4) {
                    case 1 -> {
                        MPI.COMM_WORLD.allReduce(new int[] {me}, sum, 1, MPI.INT, MPI.SUM);
                        assertEquals(n * (n - 1) / 2, sum[0], "Allreduce before Barrier " + it);
                    }
                    case 2 -> MPI.COMM_WORLD.iBarrier().waitFor();
                    case 3 -> MPI.COMM_WORLD.bcast(message, message.length, MPI.INT, it % n);
                    default -> {
                    }
                }
                if (rnd.nextInt(20) == 0) {
                    Thread.sleep(1);
                }
                entered[it] = System.nanoTime();
                MPI.COMM_WORLD.barrier();
                left[it] = System.nanoTime();
            }
            long[] allEntered = new long[rounds * n];
            long[] allLeft = new long[rounds * n];
            MPI.COMM_WORLD.allGather(entered, rounds, MPI.LONG, allEntered, rounds, MPI.LONG);
            MPI.COMM_WORLD.allGather(left, rounds, MPI.LONG, allLeft, rounds, MPI.LONG);
            for (int it = 0; it < rounds; it++) {
                long lastIn = Long.MIN_VALUE;
                long firstOut = Long.MAX_VALUE;
                for (int r = 0; r < n; r++) {
                    lastIn = Math.max(lastIn, allEntered[r * rounds + it]);
                    firstOut = Math.min(firstOut, allLeft[r * rounds + it]);
                }
                assertTrue(firstOut >= lastIn, "Barrier " + it + ": a rank left " + (lastIn - firstOut)
                    + " ns before the last rank entered");
            }
            return null;
        });
    }

    /** Barriers only: the fast path, many in a row. */
    @Worlds.AllSizes
    void barriers(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int[] shared = new int[1];
            for (int it = 0; it < 2000; it++) {
                MPI.COMM_WORLD.barrier();
            }
            MPI.COMM_WORLD.Allreduce(new int[] {me}, 0, shared, 0, 1, MPI.INT, MPI.MAX);
            assertEquals(MPI.COMM_WORLD.Size() - 1, shared[0]);
            return null;
        });
    }
}
