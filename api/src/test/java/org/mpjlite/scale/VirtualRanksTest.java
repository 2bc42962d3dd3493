package org.mpjlite.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import mpi.Comm;
import mpi.Group;
import mpi.Intercomm;
import mpi.MPI;
import mpi.Message;
import mpi.Request;
import mpi.Status;
import mpi.Win;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.mpjlite.JobFailedException;
import org.mpjlite.MpjLite;
import org.mpjlite.smpdev.JobTimeoutException;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.ThreadKind;

/**
 * Ranks on virtual threads (JDK 21 and later): every wait of a rank unmounts instead of pinning its
 * carrier, and the job's supervision (deadlock report, time limit, failure) works as with platform
 * threads, polls let the ranks they wait for run, and an overflowing stack is reported with what
 * bounds it. The deadlock tests of multi-threaded ranks (MultiThreadedDeadlockTest) and the
 * launcher's stack test (StackSizeLaunchTest) run on virtual ranks too when the build's JDK is 21
 * or later, and the whole suite runs on virtual ranks with {@code -Dmpjlite.test.threads=virtual}
 * ({@link org.mpjlite.p2p.Jobs#THREADS_PROPERTY}); on JDK 17 this class checks only that virtual
 * ranks are refused.
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
        assertEquals(ThreadKind.PLATFORM, ThreadKind.defaultFor(100_000, 0));
    }

    /**
     * The default kind: virtual only where it is the faster one and keeps the stack a rank is
     * promised: more ranks than cores, JDK 24 or later, and a JVM thread stack (-Xss, which bounds
     * a virtual rank) at least the rank's stack size. This JVM has the test runner's -Xss.
     */
    @Test
    void theDefaultIsVirtualOnlyForMoreRanksThanCoresOnJdk24WithTheStackPromised() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(ThreadKind.PLATFORM, ThreadKind.defaultFor(cores, 0));
        assertEquals(ThreadKind.PLATFORM, ThreadKind.defaultFor(1, 0));
        boolean virtualFits = Runtime.version().feature() >= 24;
        assertEquals(virtualFits ? ThreadKind.VIRTUAL : ThreadKind.PLATFORM, ThreadKind.defaultFor(cores + 1, 0));
        assertEquals(ThreadKind.PLATFORM, ThreadKind.defaultFor(cores + 1, 1L << 40)); // no JVM has a 1 TiB -Xss
        JobConfig defaulted = JobConfig.builder().ranks(cores + 1).stackSize(0).build();
        assertEquals(ThreadKind.defaultFor(cores + 1, 0), defaulted.threads());
        assertEquals(ThreadKind.defaultFor(1, 0), defaulted.toBuilder().ranks(1).build().threads()); // still a default
        assertEquals(ThreadKind.PLATFORM, JobConfig.builder().ranks(cores + 1).stackSize(0)
            .threads(ThreadKind.PLATFORM).build().threads());
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

    /**
     * The polls of MPI: each is repeated, with nothing else in the loop, until the last rank has
     * done its side; then the poller returns what it received ({@code 100 + rank}, or for the
     * reductions the last rank's contribution plus what the world's reduction adds).
     */
    enum Poll {
        TEST, TEST_ANY, TEST_ALL, TEST_SOME, GET_STATUS, IPROBE, IMPROBE, WIN_TEST, IALLREDUCE, INTERCOMM_IALLREDUCE
    }

    /**
     * As many ranks as the virtual-thread scheduler has carriers poll in a loop while the last rank
     * sleeps (off its carrier); once awake, it sends to each of them, or joins their non-blocking
     * collective (and waits for it), or ends their exposure epoch. Virtual threads are not preempted: each poll that
     * finds nothing must yield its carrier for the last rank to run again (before it did, the job
     * ran into its time limit, as non-blocking intercommunicator collectives did).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Poll.class)
    void ranksPollingOnEveryCarrierLetTheRanksTheyWaitForRun(Poll poll) {
        assumeTrue(ThreadKind.VIRTUAL.available(), "JDK 21 or later");
        int pollers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
            Runtime.getRuntime().availableProcessors());
        int n = pollers + 1;
        List<Integer> got = MpjLite.options().ranks(n).threads(ThreadKind.VIRTUAL).timeout(Duration.ofSeconds(20))
            .run(() -> {
                MPI.Init(new String[0]);
                int result = MPI.COMM_WORLD.getRank() < pollers ? pollFor(poll) : answerAfterASleep(poll, pollers);
                MPI.Finalize();
                return result;
            });
        int sumOfPollers = pollers * (pollers - 1) / 2;
        List<Integer> expected = IntStream.range(0, n).mapToObj(r -> switch (poll) {
            case IALLREDUCE -> sumOfPollers + 100;
            case INTERCOMM_IALLREDUCE -> r < pollers ? 100 : sumOfPollers;
            default -> r < pollers ? 100 + r : 0;
        }).collect(Collectors.toList());
        assertEquals(expected, got);
    }

    /** A poller's side: a loop of {@code poll} until the last rank has done its part. */
    private static int pollFor(Poll poll) throws Exception {
        Comm world = MPI.COMM_WORLD;
        int me = world.getRank();
        int last = world.getSize() - 1;
        IntBuffer buf = MPI.newIntBuffer(1).put(0, -1);
        switch (poll) {
            case IPROBE -> {
                while (world.iProbe(last, 0) == null) {
                    Thread.onSpinWait();
                }
                world.recv(buf, 1, MPI.INT, last, 0);
            }
            case IMPROBE -> {
                Message m = new Message();
                while (m.imProbe(last, 0, world) == null) {
                    Thread.onSpinWait();
                }
                m.mRecv(buf, 1, MPI.INT);
            }
            case WIN_TEST -> {
                Win win = new Win(buf, 1, 1, null, world);
                win.post(win.getGroup().incl(new int[] {last}), 0);
                while (!win.test()) {
                    Thread.onSpinWait();
                }
                win.free();
            }
            case IALLREDUCE -> pollUntilComplete(Poll.TEST, world.iAllReduce(MPI.newIntBuffer(1).put(0, me), buf, 1,
                MPI.INT, MPI.SUM));
            case INTERCOMM_IALLREDUCE -> {
                Intercomm ic = withTheLastRank(me, last);
                pollUntilComplete(Poll.TEST, ic.iAllReduce(MPI.newIntBuffer(1).put(0, me), buf, 1, MPI.INT, MPI.SUM));
                ic.free();
            }
            default -> pollUntilComplete(poll, world.iRecv(buf, 1, MPI.INT, last, 0));
        }
        return buf.get(0);
    }

    /** Polls {@code r} with {@code poll}, one of the request tests, until it has completed. */
    private static void pollUntilComplete(Poll poll, Request r) {
        Request[] rs = {r};
        switch (poll) {
            case TEST_ANY -> {
                while (Request.testAny(rs) == MPI.UNDEFINED) {
                    Thread.onSpinWait();
                }
            }
            case TEST_ALL -> {
                while (!Request.testAll(rs)) {
                    Thread.onSpinWait();
                }
            }
            case TEST_SOME -> {
                while (Request.testSome(rs).length == 0) {
                    Thread.onSpinWait();
                }
            }
            case GET_STATUS -> {
                while (r.getStatus() == null) {
                    Thread.onSpinWait();
                }
                r.waitFor();
            }
            default -> {
                while (!r.test()) {
                    Thread.onSpinWait();
                }
            }
        }
    }

    /** The last rank's side: it sleeps, then completes what the pollers poll for. */
    private static int answerAfterASleep(Poll poll, int pollers) throws Exception {
        Comm world = MPI.COMM_WORLD;
        int me = world.getRank();
        IntBuffer buf = MPI.newIntBuffer(1);
        Win win = poll == Poll.WIN_TEST ? new Win(MPI.newIntBuffer(1), 1, 1, null, world) : null;
        Intercomm ic = poll == Poll.INTERCOMM_IALLREDUCE ? withTheLastRank(me, me) : null;
        Thread.sleep(50); // the pollers are in their loops by now, on every carrier
        switch (poll) {
            case WIN_TEST -> {
                Group all = win.getGroup();
                win.start(all.incl(IntStream.range(0, pollers).toArray()), 0);
                for (int p = 0; p < pollers; p++) {
                    win.put(MPI.newIntBuffer(1).put(0, 100 + p), 1, MPI.INT, p, 0, 1, MPI.INT);
                }
                win.complete();
                win.free();
                return 0;
            }
            case IALLREDUCE -> {
                world.iAllReduce(MPI.newIntBuffer(1).put(0, 100), buf, 1, MPI.INT, MPI.SUM).waitFor();
                return buf.get(0);
            }
            case INTERCOMM_IALLREDUCE -> {
                ic.iAllReduce(MPI.newIntBuffer(1).put(0, 100), buf, 1, MPI.INT, MPI.SUM).waitFor();
                ic.free();
                return buf.get(0);
            }
            default -> {
                for (int p = 0; p < pollers; p++) {
                    world.send(MPI.newIntBuffer(1).put(0, 100 + p), 1, MPI.INT, p, 0);
                }
                return 0;
            }
        }
    }

    /** The intercommunicator between the pollers (ranks below {@code last}) and the last rank alone. */
    private static Intercomm withTheLastRank(int me, int last) {
        boolean alone = me == last;
        return MPI.COMM_WORLD.createIntercomm(MPI.COMM_WORLD.split(alone ? 1 : 0, me), 0, alone ? 0 : last, 7);
    }
}
