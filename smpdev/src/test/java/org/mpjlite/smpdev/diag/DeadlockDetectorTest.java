package org.mpjlite.smpdev.diag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.smpdev.DeadlockException;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.JobResult;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.p2p.PointToPoint;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.mpjlite.smpdev.p2p.SendMode;

/** A stuck job ends within about a second with a report; a slow but live one is left alone. */
class DeadlockDetectorTest {
    private static final int CONTEXT = 0;

    private static JobConfig.Builder config(int ranks) {
        return JobConfig.builder().ranks(ranks).shutdownGrace(Duration.ofMillis(500));
    }

    private static void recv(Rank me, int source, int tag) {
        RecvRequest r = PointToPoint.irecv(me, CONTEXT, source, tag, new int[1], 0, 1, BasicType.INT, "Recv");
        r.await("Recv");
    }

    private static void send(Rank me, int dest, int tag, int count) {
        PointToPoint.isend(me, me.job().rank(dest), CONTEXT, me.id(), tag, new int[count], 0, count, BasicType.INT,
            SendMode.STANDARD, "Send").await("Send");
    }

    private static String deadlockReport(JobResult result) {
        assertFalse(result.succeeded(), "the job must not succeed");
        assertTrue(result.failure().isDeadlock(), () -> "not a deadlock: " + result.failure().describe());
        assertEquals(DeadlockException.EXIT_CODE, result.exitCode());
        assertInstanceOf(DeadlockException.class, result.failure().cause());
        return result.failure().cause().getMessage();
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 8})
    void aReceiveCycleIsReportedWithEveryCallAndTheCycle(int n) {
        long t0 = System.nanoTime();
        JobResult result = Job.run(config(n).build(), me -> {
            me.init(Rank.THREAD_SINGLE, "Init");
            recv(me, (me.id() + 1) % n, 7);
            return null;
        });
        long millis = (System.nanoTime() - t0) / 1_000_000;
        String report = deadlockReport(result);
        for (int i = 0; i < n; i++) {
            assertTrue(report.contains("rank " + i + ": Recv(source=" + (i + 1) % n + ", tag=7, "), report);
        }
        StringBuilder cycle = new StringBuilder("cycle: rank 0");
        for (int i = 1; i <= n; i++) {
            cycle.append(" -> rank ").append(i % n);
        }
        assertTrue(report.contains(cycle), report);
        assertTrue(millis < 5_000, "detected after " + millis + " ms");
    }

    @ParameterizedTest
    @EnumSource(MatchingKind.class)
    void rendezvousSendsToEachOtherDeadlock(MatchingKind matching) {
        JobResult result = Job.run(config(2).matching(matching).eagerThreshold(0).build(), me -> {
            me.init(Rank.THREAD_SINGLE, "Init");
            send(me, 1 - me.id(), 3, 4);
            recv(me, 1 - me.id(), 3);
            return null;
        });
        String report = deadlockReport(result);
        assertTrue(report.contains("rank 0: Send(dest=1, tag=3, comm="), report);
        assertTrue(report.contains("rank 1: Send(dest=0, tag=3, comm="), report);
        assertTrue(report.contains("waiting for a matching receive"), report);
        assertTrue(report.contains("cycle: rank 0 -> rank 1 -> rank 0"), report);
    }

    @Test
    void aReceiveFromAFinishedRankIsReportedWithoutACycle() {
        JobResult result = Job.run(config(2).build(), me -> {
            me.init(Rank.THREAD_SINGLE, "Init");
            if (me.id() == 0) {
                recv(me, 1, 0);
            }
            return null;
        });
        String report = deadlockReport(result);
        assertTrue(report.contains("rank 0: Recv(source=1, tag=0"), report);
        assertTrue(report.contains("rank 1: finished"), report);
        assertFalse(report.contains("cycle"), report);
    }

    @Test
    void aRankThatNeverCallsInitIsNamed() {
        JobResult result = Job.run(config(3).build(), me -> {
            if (me.id() != 2) {
                me.init(Rank.THREAD_SINGLE, "Init");
            }
            return null;
        });
        String report = deadlockReport(result);
        assertTrue(report.contains("rank 0: Init(waiting for every rank to call it)"), report);
        assertTrue(report.contains("rank 2: finished without calling MPI.Init"), report);
    }

    @ParameterizedTest
    @EnumSource(MatchingKind.class)
    void messagesThatMatchNothingAreListed(MatchingKind matching) {
        JobResult result = Job.run(config(2).matching(matching).build(), me -> {
            me.init(Rank.THREAD_SINGLE, "Init");
            if (me.id() == 1) {
                send(me, 0, 3, 2);
                recv(me, 0, 9);
            } else {
                recv(me, 1, 7);
            }
            return null;
        });
        String report = deadlockReport(result);
        assertTrue(report.contains("rank 0: Recv(source=1, tag=7"), report);
        assertTrue(report.contains("messages waiting for it that no posted receive matches: (source=1, tag=3, comm="), report);
        assertTrue(report.contains("8 bytes)"), report);
    }

    /**
     * Rank 0 sleeps or computes for 1.5 s before it sends. At every thread level the detector's
     * quick look takes a main thread that runs outside MPI for a rank that can progress.
     */
    @ParameterizedTest
    @CsvSource({"2, 0, true", "5, 0, true", "2, 3, true", "2, 3, false", "3, 3, false"})
    void aSlowButLiveRankIsNotADeadlock(int n, int threadLevel, boolean sleeps) {
        JobResult result = Job.run(config(n).build(), me -> {
            me.init(threadLevel, "Init");
            if (me.id() == 0) {
                if (sleeps) {
                    Thread.sleep(1_500);
                } else {
                    long until = System.nanoTime() + 1_500_000_000L;
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                }
                for (int d = 1; d < n; d++) {
                    send(me, d, 1, 1);
                }
            } else {
                recv(me, 0, 1);
            }
            return null;
        });
        assertTrue(result.succeeded(), () -> result.failure().describe());
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void aReceiveCycleAtThreadMultipleIsReported(int n) {
        JobResult result = Job.run(config(n).build(), me -> {
            me.init(Rank.THREAD_MULTIPLE, "Init");
            recv(me, (me.id() + 1) % n, 7);
            return null;
        });
        String report = deadlockReport(result);
        for (int r = 0; r < n; r++) {
            assertTrue(report.contains("rank " + r + ": Recv(source=" + (r + 1) % n + ", tag=7"), report);
        }
    }
}
