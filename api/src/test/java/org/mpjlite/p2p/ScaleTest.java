package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.left;
import static org.mpjlite.p2p.Jobs.rank;
import static org.mpjlite.p2p.Jobs.right;
import static org.mpjlite.p2p.Jobs.size;

import java.util.List;
import java.util.function.Supplier;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;

/**
 * 64 ranks (on however few cores the machine has) finish a ring and an all-to-all of
 * point-to-point messages in well under a second. The assertion is generous (5 s for the whole
 * job, start-up included); the measured times are printed.
 */
@Timeout(60)
class ScaleTest {
    private static final int RANKS = 64;
    private static final int LAPS = 10;
    private static final long LIMIT_MS = 5000;

    @ParameterizedTest(name = "{0}")
    @EnumSource(MatchingKind.class)
    @DisplayName("64 ranks pass a token 10 times around the ring, each adding its rank")
    void ringOf64(MatchingKind kind) {
        World w = new World(RANKS, kind, Tunables.DEFAULT_EAGER_THRESHOLD);
        List<Integer> tokens = timed("ring of " + RANKS + " ranks, " + LAPS + " laps, " + kind, () -> w.run(() -> {
            int[] token = {0};
            for (int lap = 0; lap < LAPS; lap++) {
                if (rank() == 0) {
                    token[0] += rank();
                    MPI.COMM_WORLD.Send(token, 0, 1, MPI.INT, right(), lap);
                    MPI.COMM_WORLD.Recv(token, 0, 1, MPI.INT, left(), lap);
                } else {
                    MPI.COMM_WORLD.Recv(token, 0, 1, MPI.INT, left(), lap);
                    token[0] += rank();
                    MPI.COMM_WORLD.Send(token, 0, 1, MPI.INT, right(), lap);
                }
            }
            return token[0];
        }));
        assertEquals(LAPS * RANKS * (RANKS - 1) / 2, tokens.get(0));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(MatchingKind.class)
    @DisplayName("64 ranks exchange a message with every other rank (Isend/Irecv/Waitall), 5 rounds")
    void allToAllOf64(MatchingKind kind) {
        World w = new World(RANKS, kind, Tunables.DEFAULT_EAGER_THRESHOLD);
        List<Long> sums = timed("all-to-all of " + RANKS + " ranks, 5 rounds, " + kind, () -> w.run(() -> {
            int n = size();
            long sum = 0;
            for (int round = 0; round < 5; round++) {
                int[] in = new int[n];
                int[] out = new int[n];
                Request[] r = new Request[2 * n];
                for (int p = 0; p < n; p++) {
                    out[p] = rank() * 1000 + p;
                    r[p] = MPI.COMM_WORLD.Irecv(in, p, 1, MPI.INT, p, round);
                    r[n + p] = MPI.COMM_WORLD.Isend(out, p, 1, MPI.INT, p, round);
                }
                Request.Waitall(r);
                for (int p = 0; p < n; p++) {
                    assertEquals(p * 1000 + rank(), in[p], "from rank " + p);
                    sum += in[p];
                }
            }
            return sum;
        }));
        for (int r = 0; r < RANKS; r++) {
            assertEquals(5L * (1000L * RANKS * (RANKS - 1) / 2 + (long) RANKS * r), sums.get(r), "rank " + r);
        }
    }

    private static <T> T timed(String what, Supplier<T> job) {
        long start = System.nanoTime();
        T result = job.get();
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("%s: %d ms (job start to end, %d cores)%n", what, ms,
            Runtime.getRuntime().availableProcessors());
        assertTrue(ms < LIMIT_MS, what + " took " + ms + " ms");
        return result;
    }
}
