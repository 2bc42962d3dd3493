package org.mpjlite.scale;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.JobFailedException;
import org.mpjlite.MpjLite;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.smpdev.ThreadKind;
import org.mpjlite.smpdev.Tunables;

/**
 * Jobs above {@link Tunables#LARGE_TEAM} ranks, where collectives count arrivals in a shared
 * counter, decide once whether calls match and reduce each element once; and jobs of ten thousand
 * ranks on virtual threads (JDK 21 and later).
 */
class ManyRanksTest {
    /** Every collective the large-team paths change, with results checked on every rank. */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {Tunables.LARGE_TEAM + 1, 100, 257})
    void collectivesOfALargeTeamGiveTheRightResults(int n) {
        List<Integer> ok = Jobs.options().ranks(n).run(() -> {
            MPI.Init(new String[0]);
            int me = MPI.COMM_WORLD.Rank();
            MPI.COMM_WORLD.Barrier();
            int[] b = {me == 3 ? 42 : -1};
            MPI.COMM_WORLD.Bcast(b, 0, 1, MPI.INT, 3);
            assertEquals(42, b[0]);
            long[] mine = {me, 2L * me, 1};
            long[] sum = new long[3];
            MPI.COMM_WORLD.Allreduce(mine, 0, sum, 0, 3, MPI.LONG, MPI.SUM);
            long total = (long) n * (n - 1) / 2;
            assertArrayEquals(new long[] {total, 2 * total, n}, sum);
            double[] big = new double[1000]; // past the eager size: each member reduces its share
            java.util.Arrays.fill(big, me);
            double[] max = new double[big.length];
            MPI.COMM_WORLD.Allreduce(big, 0, max, 0, big.length, MPI.DOUBLE, MPI.MAX);
            assertEquals(n - 1, max[999]);
            int[] inPlace = {1};
            MPI.COMM_WORLD.Allreduce(inPlace, 0, inPlace, 0, 1, MPI.INT, MPI.SUM);
            assertEquals(n, inPlace[0]);
            int[] reduced = new int[1];
            MPI.COMM_WORLD.Reduce(new int[] {me}, 0, reduced, 0, 1, MPI.INT, MPI.MAX, n - 1);
            assertEquals(me == n - 1 ? n - 1 : 0, reduced[0]);
            int[] gathered = new int[me == 0 ? n : 0];
            MPI.COMM_WORLD.Gather(new int[] {me * 3}, 0, 1, MPI.INT, gathered, 0, 1, MPI.INT, 0);
            for (int i = 0; i < gathered.length; i++) {
                assertEquals(i * 3, gathered[i]);
            }
            int[] toScatter = new int[n];
            for (int i = 0; i < n; i++) {
                toScatter[i] = i + 1000;
            }
            int[] piece = new int[1];
            MPI.COMM_WORLD.Scatter(toScatter, 0, 1, MPI.INT, piece, 0, 1, MPI.INT, n / 2);
            assertEquals(me + 1000, piece[0]);
            int[] nb = new int[1];
            Request r = MPI.COMM_WORLD.iAllReduce(new int[] {2}, nb, 1, MPI.INT, MPI.SUM);
            r.Wait();
            assertEquals(2 * n, nb[0]);
            for (int i = 0; i < 3 * Tunables.COLLECTIVE_SLOTS; i++) { // every slot, reused
                int[] x = {i};
                MPI.COMM_WORLD.Allreduce(x, 0, x, 0, 1, MPI.INT, MPI.MIN);
                assertEquals(i, x[0]);
            }
            MPI.Finalize();
            return 1;
        });
        assertEquals(n, ok.stream().mapToInt(Integer::intValue).sum());
    }

    @Test
    void aMismatchInALargeTeamFailsEveryMember() {
        int n = 100;
        List<String> errors = Jobs.options().ranks(n).run(() -> {
            MPI.Init(new String[0]);
            String error = null;
            try {
                if (MPI.COMM_WORLD.Rank() == 77) {
                    MPI.COMM_WORLD.Bcast(new int[1], 0, 1, MPI.INT, 0);
                } else {
                    MPI.COMM_WORLD.Barrier();
                }
            } catch (MPIException e) {
                error = e.getMessage();
            }
            MPI.Finalize();
            return error;
        });
        for (String e : errors) {
            assertTrue(e != null && e.contains("collective calls do not match") && e.contains("on rank 77"), e);
        }
    }

    /**
     * Ten thousand ranks on virtual threads: 5 to 8 s each on two busy cores. On JDK 17 to 20
     * (platform threads only: ten thousand OS threads) these tests are skipped.
     */
    private static MpjLite.Options tenThousand() {
        assumeTrue(ThreadKind.VIRTUAL.available(), "virtual threads (JDK 21 or later)");
        return MpjLite.options().ranks(10_000).threads(ThreadKind.VIRTUAL).shutdownGrace(Duration.ofSeconds(5));
    }

    /** Init, Barrier, Allreduce, a ring exchange, Finalize: ten thousand ranks, results checked. */
    @Test
    @Timeout(120)
    void tenThousandRanksRunAndExchange() {
        int n = 10_000;
        List<Integer> left = tenThousand().run(() -> {
            MPI.Init(new String[0]);
            int me = MPI.COMM_WORLD.Rank();
            MPI.COMM_WORLD.Barrier();
            int[] sum = new int[1];
            MPI.COMM_WORLD.Allreduce(new int[] {me}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
            assertEquals(n * (n - 1) / 2, sum[0]);
            int[] got = new int[1];
            MPI.COMM_WORLD.Sendrecv(new int[] {me}, 0, 1, MPI.INT, (me + 1) % n, 0,
                got, 0, 1, MPI.INT, (me + n - 1) % n, 0);
            MPI.Finalize();
            return got[0];
        });
        for (int r = 0; r < n; r++) {
            assertEquals((r + n - 1) % n, left.get(r));
        }
    }

    /** Two ranks receive from each other while the rest wait in a Barrier: the cycle is named. */
    @Test
    @Timeout(120)
    void aDeadlockAmongTenThousandRanksNamesTheCycle() {
        MpjLite.Options job = tenThousand();
        JobFailedException e = assertThrows(JobFailedException.class, () -> job.run(() -> {
            MPI.Init(new String[0]);
            int me = MPI.COMM_WORLD.Rank();
            if (me == 4711 || me == 9000) {
                MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, me == 4711 ? 9000 : 4711, 0);
            }
            MPI.COMM_WORLD.Barrier();
            return null;
        }));
        assertTrue(e.failure().isDeadlock(), e::getMessage);
        assertTrue(e.getMessage().contains("cycle: rank 4711 -> rank 9000 -> rank 4711"), e::getMessage);
        assertTrue(e.getMessage().contains("  ranks 0-")
            && e.getMessage().contains(": Barrier(waiting for ranks 4711, 9000 of the communicator)"), e::getMessage);
        assertTrue(e.getMessage().contains("  rank 4711: Recv(source=9000, tag=0"), e::getMessage);
        assertTrue(e.getMessage().lines().count() < 50, e::getMessage);
    }

    /** One rank throws while the others wait in a Barrier: the job ends promptly, naming it. */
    @Test
    @Timeout(120)
    void aFailingRankAmongTenThousandEndsTheJob() {
        IllegalStateException boom = new IllegalStateException("boom");
        MpjLite.Options job = tenThousand();
        JobFailedException e = assertThrows(JobFailedException.class, () -> job.run(() -> {
            MPI.Init(new String[0]);
            if (MPI.COMM_WORLD.Rank() == 6789) {
                throw boom;
            }
            MPI.COMM_WORLD.Barrier();
            return null;
        }));
        assertEquals(6789, e.rank());
        assertEquals(boom, e.getCause());
    }
}
