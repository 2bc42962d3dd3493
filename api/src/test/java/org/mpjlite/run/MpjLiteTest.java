package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import mpi.MPI;
import mpjbuf.PoolStrategy;
import mpjbuf.StorageKind;
import org.junit.jupiter.api.Test;
import org.mpjlite.JobFailedException;
import org.mpjlite.MpjLite;
import org.mpjlite.run.fixtures.FailingMain;
import org.mpjlite.run.fixtures.NoMain;
import org.mpjlite.run.fixtures.StaticCounterMain;
import org.mpjlite.smpdev.JobResult;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.wait.WaitMode;

/** The embedded API, {@link MpjLite}. */
class MpjLiteTest {

    @Test
    void returnsEachRanksResultInRankOrder() {
        List<Integer> results = MpjLite.run(4, () -> {
            MPI.Init(new String[0]);
            int rank = MPI.COMM_WORLD.Rank();
            MPI.Finalize();
            return rank * 10;
        });
        assertEquals(List.of(0, 10, 20, 30), results);
    }

    @Test
    void appliesEveryOption() {
        List<Integer> sums = MpjLite.options().ranks(3).matching(MatchingKind.LOCK_FREE).eagerThreshold(0)
            .pool(PoolStrategy.UNPOOLED, StorageKind.DIRECT).waitMode(WaitMode.PARK)
            .shutdownGrace(Duration.ofSeconds(1))
            .run(() -> {
                MPI.Init(new String[0]);
                int[] buf = {MPI.COMM_WORLD.getRank()};
                int right = (buf[0] + 1) % MPI.COMM_WORLD.getSize();
                int left = (buf[0] + 2) % MPI.COMM_WORLD.getSize();
                if (buf[0] == 0) {
                    MPI.COMM_WORLD.Send(buf, 0, 1, MPI.INT, right, 0);
                    MPI.COMM_WORLD.Recv(buf, 0, 1, MPI.INT, left, 0);
                } else {
                    int mine = buf[0];
                    MPI.COMM_WORLD.Recv(buf, 0, 1, MPI.INT, left, 0);
                    buf[0] += mine;
                    MPI.COMM_WORLD.Send(buf, 0, 1, MPI.INT, right, 0);
                }
                MPI.Finalize();
                return buf[0];
            });
        assertEquals(List.of(3, 1, 3), sums, "a ring of rendezvous sends adds up the ranks");
    }

    @Test
    void aFailingRankThrowsWithItsCauseAndRank() {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        JobFailedException e = assertThrows(JobFailedException.class, () -> MpjLite.run(3, () -> {
            MPI.Init(new String[0]);
            if (MPI.COMM_WORLD.Rank() == 2) {
                IllegalStateException boom = new IllegalStateException("boom");
                thrown.set(boom);
                throw boom;
            }
            MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 2, 0);
            return null;
        }));
        assertEquals(2, e.rank());
        assertEquals(1, e.exitCode());
        assertSame(thrown.get(), e.getCause());
        assertTrue(e.getMessage().contains("rank 2"), e.getMessage());
        assertTrue(e.getMessage().contains("boom"), e.getMessage());
    }

    @Test
    void abortThrowsWithTheAbortCode() {
        JobFailedException e = assertThrows(JobFailedException.class, () -> MpjLite.run(2, () -> {
            MPI.Init(new String[0]);
            if (MPI.COMM_WORLD.Rank() == 1) {
                MPI.COMM_WORLD.Abort(5);
            }
            MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 1, 0);
            return null;
        }));
        assertEquals(1, e.rank());
        assertEquals(5, e.exitCode());
        assertTrue(e.failure().isAbort());
    }

    @Test
    void runMainGivesEachRankItsOwnStatics() {
        JobResult result = MpjLite.options().ranks(4).runMain(StaticCounterMain.class);
        assertTrue(result.succeeded(), () -> "job failed: " + result.failure().describe());
        assertEquals(0, result.exitCode());
    }

    @Test
    void runMainReportsFailuresInTheResult() {
        JobResult result = MpjLite.options().ranks(3).runMain(FailingMain.class);
        assertEquals(1, result.exitCode());
        assertEquals(1, result.failure().rank());
        assertEquals("rank 1 fails on purpose", result.failure().cause().getMessage());
    }

    @Test
    void runMainRejectsWhatIsNotAPerRankProgram() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> MpjLite.options().runMain(NoMain.class));
        assertTrue(e.getMessage().contains("no method public static void main"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> MpjLite.options().runMain(MpjRun.class));
        assertTrue(e.getMessage().contains("shared by all ranks"), e.getMessage());
    }
}
