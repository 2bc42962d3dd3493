package org.mpjlite.smpdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.smpdev.error.DeviceException;
import org.mpjlite.smpdev.error.ErrorClass;
import org.mpjlite.smpdev.wait.WaitMode;

class JobTest {
    private static JobConfig config(int ranks) {
        return JobConfig.builder().ranks(ranks).shutdownGrace(Duration.ofMillis(500)).build();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 8})
    void everyRankRunsOnItsOwnBoundThreadAndResultsComeInRankOrder(int n) {
        JobResult r = Job.run(config(n), rank -> {
            assertSame(rank, Rank.current());
            assertTrue(Thread.currentThread().isDaemon());
            return rank.id() * 10;
        });
        assertTrue(r.succeeded());
        assertEquals(0, r.exitCode());
        for (int i = 0; i < n; i++) {
            assertEquals(i * 10, r.results().get(i));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 5})
    void ranksAddedWhileTheJobRunsHaveAWorldOfTheirOwnAndTheJobWaitsForThem(int added) {
        AtomicInteger finished = new AtomicInteger();
        JobResult r = Job.run(config(2), rank -> {
            rank.init(Rank.THREAD_SINGLE, "Init");
            if (rank.id() == 0) {
                Job job = rank.job();
                World w = job.addRanks(added, job.allocateContexts(2), "test spawn");
                assertEquals(2 + added, job.size());
                for (int i = 0; i < added; i++) {
                    Rank child = w.members().rank(i);
                    assertEquals(2 + i, child.id());
                    assertSame(w, child.world());
                    job.start(child, c -> {
                        Thread.sleep(50);
                        c.init(Rank.THREAD_SINGLE, "Init"); // waits for its siblings only
                        return finished.incrementAndGet();
                    });
                }
            }
            return rank.world().members().size();
        });
        assertTrue(r.succeeded(), () -> String.valueOf(r.failure()));
        assertEquals(List.of(2, 2), r.results(), "the first ranks' results only");
        assertEquals(added, finished.get(), "the job ended after the added ranks");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void anAddedRankThatThrowsFailsTheJobNamingItsPlace(int added) {
        IllegalStateException boom = new IllegalStateException("boom");
        JobResult r = Job.run(config(1), rank -> {
            Job job = rank.job();
            World w = job.addRanks(added, job.allocateContexts(2), "test spawn");
            for (Rank child : w.members().ranks()) {
                job.start(child, c -> {
                    if (c == w.members().rank(added - 1)) {
                        throw boom;
                    }
                    return null;
                });
            }
            rank.init(Rank.THREAD_SINGLE, "Init");
            rank.await(() -> false, "Recv"); // released by the failure
            return null;
        });
        assertSame(boom, r.failure().cause());
        assertEquals(added, r.failure().rank());
        assertEquals("rank " + added + " (rank " + (added - 1) + " of the MPI.COMM_WORLD of test spawn)",
            r.failure().who());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 8})
    void noRankLeavesInitBeforeAllHaveRegistered(int n) {
        JobResult r = Job.run(config(n), rank -> {
            if (rank.id() == n - 1) {
                Thread.sleep(100);
            }
            rank.init(Rank.THREAD_SINGLE, "Init");
            return rank.job().registeredRanks();
        });
        assertTrue(r.succeeded(), () -> String.valueOf(r.failure()));
        for (Object seen : r.results()) {
            assertEquals(n, seen);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 8})
    void aThrowingRankFailsTheJobAndReleasesRanksBlockedInInit(int n) {
        IllegalStateException boom = new IllegalStateException("boom");
        JobResult r = Job.run(config(n), rank -> {
            if (rank.id() == 1) {
                throw boom;
            }
            rank.init(Rank.THREAD_SINGLE, "Init");
            return "passed Init";
        });
        assertEquals(RankFailure.EXCEPTION_EXIT_CODE, r.exitCode());
        assertEquals(1, r.failure().rank());
        assertSame(boom, r.failure().cause());
        assertNull(r.results().get(0), "rank 0 was released with an error, not let through");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void abortEndsTheJobWithItsCode(int n) {
        JobResult r = Job.run(config(n), rank -> {
            rank.init(Rank.THREAD_SINGLE, "Init");
            if (rank.id() == n - 1) {
                throw rank.job().abort(rank, 7);
            }
            rank.await(() -> false, "Recv");
            return null;
        });
        assertEquals(7, r.exitCode());
        assertTrue(r.failure().isAbort());
        assertEquals("rank " + (n - 1) + " called Abort(7)", r.failure().describe());
    }

    @ParameterizedTest
    @ValueSource(strings = {"SPIN", "PARK"})
    void aWaitHonoursInterruptsAndKeepsTheFlag(String mode) throws Exception {
        Job job = Job.create(JobConfig.builder().ranks(1).waitMode(WaitMode.parse(mode)).build());
        Rank rank = job.rank(0);
        AtomicInteger errorClass = new AtomicInteger(-1);
        boolean[] flagKept = new boolean[1];
        Thread t = new Thread(() -> {
            try {
                rank.await(() -> false, "Recv");
            } catch (DeviceException e) {
                errorClass.set(e.errorClass());
                flagKept[0] = Thread.currentThread().isInterrupted();
            }
        });
        t.start();
        Thread.sleep(100);
        t.interrupt();
        t.join(5_000);
        assertEquals(ErrorClass.ERR_OTHER, errorClass.get());
        assertTrue(flagKept[0], "the interrupt flag is restored for the caller");
    }

    @ParameterizedTest
    @ValueSource(strings = {"SPIN", "PARK"})
    void aParkedWaiterIsWokenByTheConditionAndDoesNotBurnCpu(String mode) throws Exception {
        Job job = Job.create(JobConfig.builder().ranks(1).waitMode(WaitMode.parse(mode)).build());
        Rank rank = job.rank(0);
        boolean[] go = new boolean[1];
        long[] cpuNanos = new long[1];
        Thread t = new Thread(() -> {
            long cpu0 = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            rank.await(() -> {
                synchronized (go) {
                    return go[0];
                }
            }, "Wait");
            cpuNanos[0] = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0;
        });
        t.start();
        Thread.sleep(500);
        synchronized (go) {
            go[0] = true;
        }
        rank.wake();
        t.join(5_000);
        assertTrue(!t.isAlive(), "woken");
        assertTrue(cpuNanos[0] < 100_000_000L, "waited 500 ms using " + cpuNanos[0] / 1_000_000 + " ms of CPU");
    }

    @ParameterizedTest
    @ValueSource(strings = {"SPIN", "PARK"})
    void aJobFailureWakesEveryParkedWaiterWithAnErrorNamingTheFailedRank(String mode) throws Exception {
        Job job = Job.create(JobConfig.builder().ranks(3).waitMode(WaitMode.parse(mode)).build());
        String[] messages = new String[2];
        List<Thread> waiters = List.of(0, 1).stream().map(i -> new Thread(() -> {
            try {
                job.rank(i).await(() -> false, "Recv");
            } catch (DeviceException e) {
                messages[i] = e.getMessage();
            }
        })).toList();
        waiters.forEach(Thread::start);
        Thread.sleep(200);
        job.fail(2, new IllegalStateException("boom"));
        for (Thread t : waiters) {
            t.join(5_000);
        }
        for (int i = 0; i < 2; i++) {
            assertTrue(messages[i].startsWith("MPI_ERR_PROC_ABORTED: Recv on rank " + i), messages[i]);
            assertTrue(messages[i].contains("rank 2 failed: java.lang.IllegalStateException: boom"), messages[i]);
        }
    }

    @org.junit.jupiter.api.Test
    void theFirstFailureWins() {
        Job job = Job.create(JobConfig.builder().ranks(2).build());
        RuntimeException first = new RuntimeException("first");
        job.fail(0, first);
        job.fail(1, new RuntimeException("second"));
        assertSame(first, job.failure().cause());
        assertInstanceOf(RuntimeException.class, job.failure().cause());
    }
}
