package org.mpjlite.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.ReentrantLock;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.JobFailedException;
import org.mpjlite.MpjLite;
import org.mpjlite.RankProgram;
import org.mpjlite.smpdev.DeadlockException;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.ThreadKind;

/**
 * The deadlock detector and multi-threaded ranks: a rank is stuck only when none of its threads
 * can make progress, and then the report lists every blocked thread with its call and line. A rank
 * with a thread computing, sleeping, or waiting (join, lock) for a computing thread is never
 * reported, however long its other threads stay blocked. Every scenario runs on platform and on
 * virtual rank threads (JDK 21 and later): what a virtual thread joins or waits for cannot be seen,
 * so a virtual main thread that waits while the rank's other threads are blocked in MPI counts as
 * waiting for them, and is reported with the call it waits in.
 */
class MultiThreadedDeadlockTest {
    /** Longer than the detector's confirmation time (0.5 s) several times over. */
    private static final long BUSY_MILLIS = 1_500;

    private static <T> List<T> run(ThreadKind threads, int ranks, MatchingKind matching, RankProgram<T> program) {
        assumeTrue(threads.available(), "JDK 21 or later");
        return MpjLite.options().ranks(ranks).matching(matching).threads(threads)
            .shutdownGrace(Duration.ofMillis(500)).run(program);
    }

    /** How the report names what rank 0's main thread ('mpjlite-rank-0') waits in, when it waits for thread {@code on}. */
    private static String mainWaits(ThreadKind threads, String virtualWait, String platformWait, String on) {
        return "    thread 'mpjlite-rank-0': " + (threads == ThreadKind.VIRTUAL
            ? virtualWait + ", a virtual thread (what it waits for cannot be seen), while every other thread of its"
                + " rank is blocked in MPI\n"
            : platformWait + " thread '" + on + "'\n");
    }

    /** {@code rank 0 -> rank 1 -> ... -> rank 0}. */
    private static String ring(int ranks) {
        StringBuilder s = new StringBuilder("cycle: rank 0");
        for (int r = 1; r <= ranks; r++) {
            s.append(" -> rank ").append(r % ranks);
        }
        return s.toString();
    }

    /** The report of {@code job} run on {@code threads}, which must deadlock. */
    private static String deadlockReport(ThreadKind threads, Runnable job) {
        assumeTrue(threads.available(), "JDK 21 or later"); // here: assertThrows would catch it
        JobFailedException e = assertThrows(JobFailedException.class, job::run);
        assertTrue(e.failure().isDeadlock(), () -> "not a deadlock: " + e.failure().describe());
        assertEquals(DeadlockException.EXIT_CODE, e.exitCode());
        return e.getMessage();
    }

    private static void recvFrom(int source, int tag) {
        MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, source, tag);
    }

    private static void busyFor(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        double x = 0;
        while (System.nanoTime() < end) {
            x += Math.sqrt(x + 1);
        }
        if (x < 0) {
            throw new AssertionError();
        }
    }

    static Stream<Arguments> kindsMatchingsAndSizes() {
        return Stream.of(
            Arguments.of(ThreadKind.PLATFORM, MatchingKind.LOCKED, 2),
            Arguments.of(ThreadKind.PLATFORM, MatchingKind.LOCK_FREE, 3),
            Arguments.of(ThreadKind.VIRTUAL, MatchingKind.LOCKED, 3),
            Arguments.of(ThreadKind.VIRTUAL, MatchingKind.LOCK_FREE, 2));
    }

    /** Rank 0's two threads receive from rank 1 while its main thread joins them; every other rank receives from the next. */
    @ParameterizedTest(name = "{0} threads, {1}, {2} ranks")
    @MethodSource("kindsMatchingsAndSizes")
    @DisplayName("two threads of rank 0 receive from rank 1, which receives too: reported with every thread")
    void twoThreadsReceivingFromARankThatReceivesIsADeadlock(ThreadKind threads, MatchingKind matching, int ranks) {
        String report = deadlockReport(threads, () -> run(threads, ranks, matching, () -> {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            int me = MPI.COMM_WORLD.Rank();
            if (me == 0) {
                Workers.runOn(2, t -> recvFrom(1, 10 + t));
            } else {
                recvFrom((me + 1) % ranks, 5);
            }
            MPI.Finalize();
            return null;
        }));
        assertTrue(report.startsWith("deadlock: every rank is blocked in MPI"), report);
        assertTrue(report.contains("rank 0: 2 threads blocked in MPI\n"), report);
        for (int t = 0; t < 2; t++) {
            assertTrue(report.contains("    thread 'worker-" + t + "': Recv(source=1, tag=" + (10 + t) + ", "), report);
        }
        assertTrue(report.contains("at org.mpjlite.threads.MultiThreadedDeadlockTest.recvFrom("
            + "MultiThreadedDeadlockTest.java:"), report);
        assertTrue(report.contains(mainWaits(threads, "waiting in Thread.join", "waiting in Thread.join for", "worker-0")
            + "            at org.mpjlite.threads.Workers.runOn(Workers.java:"), report);
        assertTrue(report.contains("rank 1: Recv(source=" + 2 % ranks + ", tag=5, "), report);
        assertTrue(report.contains(ring(ranks)), report);
    }

    @ParameterizedTest(name = "{0} threads, {1} ranks")
    @CsvSource({"PLATFORM, 2", "PLATFORM, 3", "VIRTUAL, 2", "VIRTUAL, 3"})
    @DisplayName("a thread stuck in MPI while the rank's other thread waits on a lock the stuck one holds")
    void aThreadWaitingForALockHeldByAStuckThreadIsStuckToo(ThreadKind threads, int ranks) {
        ReentrantLock lock = new ReentrantLock();
        String report = deadlockReport(threads, () -> run(threads, ranks, MatchingKind.LOCK_FREE, () -> {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            int me = MPI.COMM_WORLD.Rank();
            if (me == 0) {
                CountDownLatch held = new CountDownLatch(1);
                Workers.runOn(2, t -> {
                    if (t == 1) {
                        held.await();
                    }
                    // Each thread lets the lock go when the job's end releases it: a thread left
                    // waiting would outlive the job.
                    lock.lock();
                    try {
                        if (t == 0) {
                            held.countDown();
                            recvFrom(1, 1);
                        }
                    } finally {
                        lock.unlock();
                    }
                });
            } else {
                recvFrom((me + 1) % ranks, 2);
            }
            MPI.Finalize();
            return null;
        }));
        assertTrue(report.contains("    thread 'worker-1': waiting for a lock held by thread 'worker-0'"), report);
        assertTrue(report.contains("    thread 'worker-0': Recv(source=1, tag=1, "), report);
        assertTrue(report.contains(mainWaits(threads, "waiting in Thread.join", "waiting in Thread.join for", "worker-")
            .replace("'\n", "")), report);
        assertTrue(report.contains(ring(ranks)), report);
    }

    /** What rank 0's main thread waits for that its thread blocked in MPI holds. */
    enum Held {
        LOCK, MONITOR
    }

    @ParameterizedTest(name = "{0} threads, {1}, {2} ranks")
    @CsvSource({"PLATFORM, LOCK, 3", "PLATFORM, MONITOR, 2", "VIRTUAL, LOCK, 2", "VIRTUAL, MONITOR, 3"})
    @DisplayName("the main thread waits for a lock or monitor of its thread blocked in MPI: reported with the wait")
    void aMainThreadWaitingForWhatAThreadBlockedInMpiHoldsIsStuck(ThreadKind threads, Held held, int ranks) {
        ReentrantLock lock = new ReentrantLock();
        Object monitor = new Object();
        String report = deadlockReport(threads, () -> run(threads, ranks, MatchingKind.LOCK_FREE, () -> {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            int me = MPI.COMM_WORLD.Rank();
            if (me != 0) {
                recvFrom((me + 1) % ranks, 2);
                return null;
            }
            CountDownLatch taken = new CountDownLatch(1);
            Thread worker = new Thread(() -> {
                try {
                    if (held == Held.LOCK) {
                        lock.lock();
                        try {
                            taken.countDown();
                            recvFrom(1, 1);
                        } finally {
                            lock.unlock();
                        }
                    } else {
                        synchronized (monitor) {
                            taken.countDown();
                            recvFrom(1, 1);
                        }
                    }
                } catch (MPIException e) {
                    // the job ended: the report is the main thread's to check
                }
            }, "worker-0");
            worker.start();
            taken.await();
            int[] entered = new int[1];
            if (held == Held.LOCK) {
                lock.lock();
                entered[0]++;
                lock.unlock();
            } else {
                synchronized (monitor) {
                    entered[0]++;
                }
            }
            worker.join();
            return entered[0];
        }));
        assertTrue(report.contains("rank 0: 1 thread blocked in MPI\n    thread 'worker-0': Recv(source=1, tag=1, "),
            report);
        assertTrue(report.contains(mainWaits(threads,
            held == Held.LOCK ? "waiting in ReentrantLock.lock" : "blocked on a monitor",
            "waiting for a lock held by", "worker-0")), report);
        assertTrue(report.contains(ring(ranks)), report);
    }

    /** What the thread of rank 0 that is not blocked in MPI does before it sends what rank 1 waits for. */
    enum Busy {
        COMPUTING, SLEEPING, JOINING_A_COMPUTING_THREAD, WAITING_FOR_A_LOCK_OF_A_COMPUTING_THREAD
    }

    static Stream<Arguments> kindsAndBusyness() {
        return Stream.of(ThreadKind.values()).flatMap(k -> Stream.of(Busy.values()).map(b -> Arguments.of(k, b)));
    }

    @ParameterizedTest(name = "{0} threads, {1}")
    @MethodSource("kindsAndBusyness")
    @DisplayName("a rank with a thread that can still make progress is never reported")
    void busyButFineProgramsAreNotReported(ThreadKind threads, Busy busy) {
        ReentrantLock lock = new ReentrantLock();
        List<Integer> results = run(threads, 2, MatchingKind.LOCK_FREE, () -> {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            int[] got = new int[1];
            if (MPI.COMM_WORLD.Rank() == 1) {
                // Blocked the whole time rank 0 is busy.
                MPI.COMM_WORLD.Recv(got, 0, 1, MPI.INT, 0, 0);
                MPI.COMM_WORLD.Send(new int[] {got[0] + 1}, 0, 1, MPI.INT, 0, 1);
                MPI.Finalize();
                return got[0];
            }
            CountDownLatch locked = new CountDownLatch(1);
            Workers.runOn(2, t -> {
                if (t == 0) {
                    // Blocked in MPI until thread 1's work reaches rank 1.
                    MPI.COMM_WORLD.Recv(got, 0, 1, MPI.INT, 1, 1);
                    return;
                }
                switch (busy) {
                    case COMPUTING -> busyFor(BUSY_MILLIS);
                    case SLEEPING -> Thread.sleep(BUSY_MILLIS);
                    case JOINING_A_COMPUTING_THREAD -> {
                        Thread helper = new Thread(() -> busyFor(BUSY_MILLIS), "helper");
                        helper.start();
                        helper.join();
                    }
                    case WAITING_FOR_A_LOCK_OF_A_COMPUTING_THREAD -> {
                        Thread holder = new Thread(() -> {
                            lock.lock();
                            try {
                                locked.countDown();
                                busyFor(BUSY_MILLIS);
                            } finally {
                                lock.unlock();
                            }
                        }, "holder");
                        holder.start();
                        locked.await();
                        lock.lock();
                        lock.unlock();
                        holder.join();
                    }
                    default -> throw new AssertionError(busy);
                }
                MPI.COMM_WORLD.Send(new int[] {41}, 0, 1, MPI.INT, 1, 0);
            });
            MPI.Finalize();
            return got[0];
        });
        assertEquals(List.of(42, 41), results);
    }

    /**
     * What rank 0's main thread waits in while its other thread, which has blocked in MPI before,
     * computes; or, for POOL_TASK, while a task of the common pool computes and its other thread is
     * blocked in MPI.
     */
    enum MainWait {
        QUEUE_TAKE, JOIN, LOCK, MONITOR, POOL_TASK
    }

    static Stream<Arguments> kindsWaitsAndSizes() {
        return Stream.of(ThreadKind.values()).flatMap(k -> Stream.of(MainWait.values())
            .map(w -> Arguments.of(k, w, w.ordinal() % 2 == 0 ? 3 : 2)));
    }

    /**
     * Rank 0's main thread waits (untimed, outside MPI) for its worker, which blocked in MPI once
     * (so a virtual rank knows it) and then computes, or for a task of the common pool (no rank's
     * thread), while rank 1 and any others wait in MPI for rank 0: a virtual main thread that cannot
     * be seen waiting for the thread that will wake it is still not stuck. Never reported.
     */
    @ParameterizedTest(name = "{0} threads, {1}, {2} ranks")
    @MethodSource("kindsWaitsAndSizes")
    @DisplayName("a main thread waiting for a thread that computes is never reported")
    void aMainThreadWaitingForAComputingThreadIsNotReported(ThreadKind threads, MainWait wait, int ranks) {
        ReentrantLock lock = new ReentrantLock();
        Object monitor = new Object();
        List<Integer> results = run(threads, ranks, MatchingKind.LOCK_FREE, () -> {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            int me = MPI.COMM_WORLD.Rank();
            int[] got = new int[1];
            if (me == 1) {
                Thread.sleep(200); // rank 0's worker blocks in its receive meanwhile
                MPI.COMM_WORLD.Send(new int[] {40}, 0, 1, MPI.INT, 0, 0);
                MPI.COMM_WORLD.Recv(got, 0, 1, MPI.INT, 0, 1); // blocked while rank 0 computes
                if (wait == MainWait.POOL_TASK) {
                    MPI.COMM_WORLD.Send(got, 0, 1, MPI.INT, 0, 2);
                }
            } else if (me == 0) {
                BlockingQueue<Integer> queue = new LinkedBlockingQueue<>();
                CountDownLatch taken = new CountDownLatch(1);
                Thread worker = new Thread(() -> {
                    int[] in = new int[1];
                    MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, 1, 0);
                    if (wait == MainWait.LOCK) {
                        lock.lock();
                        taken.countDown();
                        busyFor(BUSY_MILLIS);
                        lock.unlock();
                    } else if (wait == MainWait.MONITOR) {
                        synchronized (monitor) {
                            taken.countDown();
                            busyFor(BUSY_MILLIS);
                        }
                    } else {
                        taken.countDown();
                        if (wait != MainWait.POOL_TASK) {
                            busyFor(BUSY_MILLIS);
                        }
                    }
                    queue.add(in[0] + 1);
                    if (wait == MainWait.POOL_TASK) {
                        MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, 1, 2); // blocked while the pool computes
                    }
                }, "worker-0");
                worker.start();
                taken.await();
                switch (wait) {
                    case QUEUE_TAKE -> got[0] = queue.take();
                    case JOIN -> {
                        worker.join();
                        got[0] = queue.take();
                    }
                    case LOCK -> {
                        lock.lock();
                        got[0] = queue.take();
                        lock.unlock();
                    }
                    case MONITOR -> {
                        synchronized (monitor) {
                            got[0] = queue.take();
                        }
                    }
                    case POOL_TASK -> {
                        CompletableFuture.runAsync(() -> busyFor(BUSY_MILLIS)).join();
                        got[0] = queue.take();
                    }
                    default -> throw new AssertionError(wait);
                }
                MPI.COMM_WORLD.Send(got, 0, 1, MPI.INT, 1, 1);
                worker.join();
            }
            MPI.COMM_WORLD.Barrier();
            MPI.Finalize();
            return got[0];
        });
        assertEquals(41, results.get(0));
        assertEquals(41, results.get(1));
    }
}
