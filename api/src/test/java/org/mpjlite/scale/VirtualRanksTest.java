package org.mpjlite.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.JobFailedException;
import org.mpjlite.MpjLite;
import org.mpjlite.smpdev.JobTimeoutException;
import org.mpjlite.smpdev.ThreadKind;

/**
 * Ranks on virtual threads (JDK 21 and later): every wait of a rank unmounts instead of pinning its
 * carrier, and the job's supervision (deadlock report, time limit, failure) works as with platform
 * threads, and an overflowing stack is reported with what bounds it. The deadlock tests of
 * multi-threaded ranks (MultiThreadedDeadlockTest) and the launcher's stack test
 * (StackSizeLaunchTest) run on virtual ranks too when the build's JDK is 21 or later; on JDK 17
 * this class checks only that virtual ranks are refused.
 */
class VirtualRanksTest {
    @TempDir
    Path dir;

    @Test
    void virtualRanksAreAUsageErrorBeforeJdk21() {
        assumeFalse(ThreadKind.VIRTUAL.available(), "JDK 21 or later");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> MpjLite.options().threads(ThreadKind.VIRTUAL));
        assertTrue(e.getMessage().contains("virtual threads need JDK 21 or later"), e.getMessage());
        assertEquals(ThreadKind.PLATFORM, ThreadKind.DEFAULT);
    }

    /**
     * Every kind of wait, on 5 ranks, while JFR records each park of a pinned virtual thread
     * ({@code jdk.VirtualThreadPinned}, threshold 0; on JDK 21 to 23 this includes waits inside
     * {@code synchronized}, from 24 on waits under native frames and in class initialization):
     * none may be recorded for a rank thread.
     */
    @Test
    void noWaitOfAVirtualRankPinsItsCarrier() throws Exception {
        assumeTrue(ThreadKind.VIRTUAL.available(), "JDK 21 or later");
        Path file = dir.resolve("pinned.jfr");
        // First use of a class may pin (class loading and initialization hold monitors under native
        // frames): that happens once per JVM, not at each wait, so a first job warms the classes up.
        MpjLite.options().ranks(5).threads(ThreadKind.VIRTUAL).run(VirtualRanksTest::everyKindOfWait);
        List<Integer> sums;
        try (Recording recording = new Recording()) {
            recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            recording.start();
            sums = MpjLite.options().ranks(5).threads(ThreadKind.VIRTUAL).run(VirtualRanksTest::everyKindOfWait);
            recording.stop();
            recording.dump(file);
        }
        assertEquals(List.of(10, 10, 10, 10, 10), sums);
        List<RecordedEvent> pinned = RecordingFile.readAllEvents(file).stream()
            .filter(e -> e.getThread() != null && e.getThread().getJavaName() != null
                && e.getThread().getJavaName().startsWith("mpjlite-rank-"))
            .collect(Collectors.toList());
        assertTrue(pinned.isEmpty(), () -> "pinned rank threads:\n" + pinned);
        assertTrue(Files.size(file) > 0);
    }

    /** Blocking point-to-point (eager, rendezvous, synchronous, buffered), probes, waits, collectives. */
    private static int everyKindOfWait() throws Exception {
        MPI.Init(new String[0]);
        int me = MPI.COMM_WORLD.Rank();
        int n = MPI.COMM_WORLD.Size();
        int right = (me + 1) % n;
        int left = (me + n - 1) % n;
        int[] big = new int[64 * 1024]; // above the eager threshold: rendezvous
        int[] got = new int[big.length];
        Request r = MPI.COMM_WORLD.Irecv(got, 0, got.length, MPI.INT, left, 1);
        MPI.COMM_WORLD.Send(big, 0, big.length, MPI.INT, right, 1);
        r.Wait();
        int[] one = {me};
        int[] in = new int[1];
        MPI.COMM_WORLD.Sendrecv(one, 0, 1, MPI.INT, right, 2, in, 0, 1, MPI.INT, left, 2);
        Request s = MPI.COMM_WORLD.Issend(one, 0, 1, MPI.INT, right, 3);
        Status st = MPI.COMM_WORLD.Probe(left, 3);
        MPI.COMM_WORLD.Recv(in, 0, st.Get_count(MPI.INT), MPI.INT, left, 3);
        s.Wait();
        MPI.Buffer_attach(java.nio.ByteBuffer.allocateDirect(1 << 16));
        MPI.COMM_WORLD.Bsend(one, 0, 1, MPI.INT, right, 4);
        MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, left, 4);
        MPI.Buffer_detach();
        MPI.COMM_WORLD.Barrier();
        int[] root = {me == 0 ? 7 : 0};
        MPI.COMM_WORLD.Bcast(root, 0, 1, MPI.INT, 0);
        int[] sum = new int[1];
        MPI.COMM_WORLD.Allreduce(one, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        MPI.Finalize();
        return root[0] == 7 && in[0] == left ? sum[0] : -1;
    }

    @Test
    void aDeadlockOfVirtualRanksIsReportedWithItsCycle() {
        assumeTrue(ThreadKind.VIRTUAL.available(), "JDK 21 or later");
        JobFailedException e = assertThrows(JobFailedException.class,
            () -> MpjLite.options().ranks(3).threads(ThreadKind.VIRTUAL).run(() -> {
                MPI.Init(new String[0]);
                int me = MPI.COMM_WORLD.Rank();
                MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, (me + 1) % 3, 0);
                return null;
            }));
        assertTrue(e.failure().isDeadlock(), e.getMessage());
        assertTrue(e.getMessage().contains("  rank 1: Recv(source=2, tag=0, comm=MPI.COMM_WORLD"), e.getMessage());
        assertTrue(e.getMessage().contains("cycle: rank 0 -> rank 1 -> rank 2 -> rank 0"), e.getMessage());
        assertTrue(e.getMessage().contains("at org.mpjlite.scale.VirtualRanksTest."), e.getMessage());
    }

    @Test
    void theTimeLimitStopsVirtualRanksWithAReport() {
        assumeTrue(ThreadKind.VIRTUAL.available(), "JDK 21 or later");
        JobFailedException e = assertThrows(JobFailedException.class,
            () -> MpjLite.options().ranks(2).threads(ThreadKind.VIRTUAL).timeout(Duration.ofMillis(700)).run(() -> {
                MPI.Init(new String[0]);
                if (MPI.COMM_WORLD.Rank() == 0) {
                    Thread.sleep(60_000); // computing, as far as MPI knows: no deadlock
                }
                MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 0, 0);
                return null;
            }));
        assertTrue(e.getCause() instanceof JobTimeoutException, e.getMessage());
        assertTrue(e.getMessage().contains("  rank 1: Recv(source=0, tag=0"), e.getMessage());
    }

    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }

    /**
     * A virtual rank recurses as deep as the JVM's -Xss lets its carrier thread, whatever stack size
     * the job asks for (here 1g, more than any -Xss the JVM takes): the report of its overflow says so.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 3})
    void aVirtualRankOverflowingItsStackIsToldWhatBoundsIt(int ranks) {
        assumeTrue(ThreadKind.VIRTUAL.available(), "JDK 21 or later");
        JobFailedException e = assertThrows(JobFailedException.class,
            () -> MpjLite.options().ranks(ranks).threads(ThreadKind.VIRTUAL).stackSize(1L << 30).run(() -> {
                MPI.Init(new String[0]);
                if (MPI.COMM_WORLD.Rank() == ranks - 1) {
                    recurse(0);
                }
                MPI.COMM_WORLD.Barrier();
                return null;
            }));
        assertEquals(ranks - 1, e.rank());
        assertTrue(e.getCause() instanceof StackOverflowError, e.getMessage());
        assertTrue(e.getMessage().startsWith("rank " + (ranks - 1) + " failed: java.lang.StackOverflowError (a virtual"
            + " rank's stack is bounded by the JVM's default thread stack, -Xss"), e.getMessage());
        assertTrue(e.getMessage().endsWith(", not by the stack size asked for (1g): mpjrun starts the JVM with -Xss"
            + " set to --stack-size; a job run in-process needs the JVM started with -Xss1g, or platform ranks)"),
            e.getMessage());
    }

    @Test
    void aFailingVirtualRankReleasesTheOthers() {
        assumeTrue(ThreadKind.VIRTUAL.available(), "JDK 21 or later");
        IllegalStateException boom = new IllegalStateException("boom");
        JobFailedException e = assertThrows(JobFailedException.class,
            () -> MpjLite.options().ranks(4).threads(ThreadKind.VIRTUAL).run(() -> {
                MPI.Init(new String[0]);
                if (MPI.COMM_WORLD.Rank() == 2) {
                    throw boom;
                }
                MPI.COMM_WORLD.Barrier();
                return null;
            }));
        assertEquals(2, e.rank());
        assertEquals(boom, e.getCause());
    }
}
