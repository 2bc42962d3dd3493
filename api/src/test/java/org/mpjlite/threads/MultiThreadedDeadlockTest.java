package org.mpjlite.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;
import mpi.MPI;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mpjlite.JobFailedException;
import org.mpjlite.MpjLite;
import org.mpjlite.RankProgram;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.smpdev.DeadlockException;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.ThreadKind;

/**
 * The deadlock detector and multi-threaded ranks: a rank is stuck only when none of its threads
 * can make progress, and then the report lists every blocked thread with its call and line. A rank
 * with a thread computing, sleeping, or waiting (join, lock) for a computing thread is never
 * reported, however long its other threads stay blocked.
 */
class MultiThreadedDeadlockTest {
    /** Longer than the detector's confirmation time (0.5 s) several times over. */
    private static final long BUSY_MILLIS = 1_500;

    /** Runs on the tests' kind of rank thread ({@link Jobs#threads()}): never a false report. */
    private static <T> List<T> run(int ranks, MatchingKind matching, RankProgram<T> program) {
        return run(ranks, matching, Jobs.threads(), program);
    }

    /**
     * The reports of a rank whose main thread joins its workers, or whose threads wait for each
     * other's locks, need platform rank threads: a virtual thread is not in ThreadMXBean, so what it
     * joins or waits for is unknown, and such a rank is left to --timeout (see RankThreads).
     */
    private static <T> List<T> runOnPlatformThreads(int ranks, MatchingKind matching, RankProgram<T> program) {
        return run(ranks, matching, ThreadKind.PLATFORM, program);
    }

    private static <T> List<T> run(int ranks, MatchingKind matching, ThreadKind threads, RankProgram<T> program) {
        return MpjLite.options().ranks(ranks).matching(matching).threads(threads)
            .shutdownGrace(Duration.ofMillis(500)).run(program);
    }

    private static String deadlockReport(Runnable job) {
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

    @ParameterizedTest(name = "{0}")
    @EnumSource(MatchingKind.class)
    @DisplayName("two threads of rank 0 receive from rank 1, which receives too: reported with every thread")
    void twoThreadsReceivingFromARankThatReceivesIsADeadlock(MatchingKind matching) {
        String report = deadlockReport(() -> runOnPlatformThreads(2, matching, () -> {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            if (MPI.COMM_WORLD.Rank() == 0) {
                Workers.runOn(2, t -> recvFrom(1, 10 + t));
            } else {
                recvFrom(0, 5);
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
        assertTrue(report.contains("    thread 'mpjlite-rank-0': waiting in Thread.join for thread 'worker-"), report);
        assertTrue(report.contains("rank 1: Recv(source=0, tag=5, "), report);
        assertTrue(report.contains("cycle: rank 0 -> rank 1 -> rank 0"), report);
    }

    @Test
    @DisplayName("a thread stuck in MPI while the rank's other thread waits on a lock the stuck one holds")
    void aThreadWaitingForALockHeldByAStuckThreadIsStuckToo() {
        ReentrantLock lock = new ReentrantLock();
        String report = deadlockReport(() -> runOnPlatformThreads(2, MatchingKind.LOCK_FREE, () -> {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            if (MPI.COMM_WORLD.Rank() == 0) {
                CountDownLatch held = new CountDownLatch(1);
                Workers.runOn(2, t -> {
                    if (t == 0) {
                        lock.lock();
                        held.countDown();
                        recvFrom(1, 1);
                    } else {
                        held.await();
                        lock.lock();
                    }
                });
            } else {
                recvFrom(0, 2);
            }
            MPI.Finalize();
            return null;
        }));
        assertTrue(report.contains("    thread 'worker-1': waiting for a lock held by thread 'worker-0'"), report);
        assertTrue(report.contains("    thread 'worker-0': Recv(source=1, tag=1, "), report);
    }

    /** What the thread of rank 0 that is not blocked in MPI does before it sends what rank 1 waits for. */
    enum Busy {
        COMPUTING, SLEEPING, JOINING_A_COMPUTING_THREAD, WAITING_FOR_A_LOCK_OF_A_COMPUTING_THREAD
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Busy.class)
    @DisplayName("a rank with a thread that can still make progress is never reported")
    void busyButFineProgramsAreNotReported(Busy busy) {
        ReentrantLock lock = new ReentrantLock();
        List<Integer> results = run(2, MatchingKind.LOCK_FREE, () -> {
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
}
