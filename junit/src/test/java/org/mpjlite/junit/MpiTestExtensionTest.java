package org.mpjlite.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import mpi.MPI;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;
import org.mpjlite.smpdev.MatchingKind;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Runs classes of {@link MpiTest} methods through the JUnit Platform test kit and asserts what
 * JUnit reports for them: names, outcomes, failure messages. The nested classes are the subjects,
 * run only from here ({@link Subject}).
 */
class MpiTestExtensionTest {

    private static EngineExecutionResults run(Class<?> subject) {
        return EngineTestKit.engine("junit-jupiter").configurationParameter(Subject.PARAMETER, "true")
            .selectors(selectClass(subject)).execute();
    }

    private static List<String> names(Events events) {
        return events.stream().map(e -> e.getTestDescriptor().getDisplayName()).collect(Collectors.toList());
    }

    /**
     * Runs {@code subject}, which has one test, and returns why it failed; a failure must come
     * promptly, not from JUnit's own timeout.
     */
    private static Throwable onlyFailure(Class<?> subject) {
        long start = System.nanoTime();
        Events tests = run(subject).testEvents();
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        tests.assertStatistics(s -> s.started(1).succeeded(0).failed(1));
        assertTrue(took.compareTo(Duration.ofSeconds(15)) < 0, "took " + took);
        return failure(tests.failed().list().get(0));
    }

    private static Throwable failure(Event event) {
        return event.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
            .getThrowable().orElseThrow();
    }

    // ---- passing ---------------------------------------------------------------------------

    @Subject
    static class Passing {
        @MpiTest(ranks = {1, 2, 3, 4})
        void allreduceOfRanks() {
            int size = MPI.COMM_WORLD.Size();
            int[] sum = new int[1];
            MPI.COMM_WORLD.Allreduce(new int[] {MPI.COMM_WORLD.Rank()}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
            assertEquals(size * (size - 1) / 2, sum[0]);
        }
    }

    @Test
    @DisplayName("a passing body is one successful test per rank count, named by it")
    void passing() {
        Events tests = run(Passing.class).testEvents();
        tests.assertStatistics(s -> s.started(4).succeeded(4).failed(0));
        assertEquals(List.of("1 rank", "2 ranks", "3 ranks", "4 ranks"), names(tests.succeeded()));
    }

    // ---- failing rank ----------------------------------------------------------------------

    @Subject
    static class FailingRank {
        @MpiTest(ranks = {3})
        void rankTwoFails(int rank) {
            MPI.COMM_WORLD.Barrier();
            assertNotEquals(2, rank, "rank two disagrees");
        }
    }

    @Test
    @DisplayName("an assertion failing on one rank fails the test, naming the rank, with the assertion as cause")
    void failingRank() {
        Throwable t = onlyFailure(FailingRank.class);
        assertInstanceOf(AssertionFailedError.class, t);
        assertTrue(t.getMessage().startsWith("rank 2 failed: "), t.getMessage());
        assertTrue(t.getMessage().contains("rank two disagrees"), t.getMessage());
        assertInstanceOf(AssertionFailedError.class, t.getCause());
        assertTrue(t.getCause().getMessage().startsWith("rank two disagrees"), t.getCause().getMessage());
    }

    // ---- deadlock --------------------------------------------------------------------------

    @Subject
    static class Deadlocking {
        @MpiTest(ranks = {2}, timeout = "0")
        void everybodyReceivesFirst(int rank) {
            int[] x = new int[1];
            MPI.COMM_WORLD.Recv(x, 0, 1, MPI.INT, 1 - rank, 0);
            MPI.COMM_WORLD.Send(x, 0, 1, MPI.INT, 1 - rank, 0);
        }
    }

    @Test
    @DisplayName("a deadlock fails the test promptly with the report of every rank, even without a time limit")
    void deadlock() {
        String report = onlyFailure(Deadlocking.class).getMessage();
        assertTrue(report.startsWith("deadlock: "), report);
        assertTrue(report.contains("rank 0: Recv(source=1, tag=0"), report);
        assertTrue(report.contains("rank 1: Recv(source=0, tag=0"), report);
        assertTrue(report.contains("MpiTestExtensionTest$Deadlocking.everybodyReceivesFirst"), report);
    }

    // ---- timeout ---------------------------------------------------------------------------

    @Subject
    static class Hanging {
        @MpiTest(ranks = {2}, timeout = "300ms")
        void rankZeroNeverComes(int rank) throws InterruptedException {
            if (rank == 0) {
                Thread.sleep(60_000);
            }
            MPI.COMM_WORLD.Barrier();
        }
    }

    @Test
    @DisplayName("a job past its time limit is stopped and fails the test with the report of where every rank stood")
    void timeout() {
        String report = onlyFailure(Hanging.class).getMessage();
        assertTrue(report.startsWith("timeout: the job ran longer than 0.3 s"), report);
        assertTrue(report.contains("rank 0: running, not blocked in MPI"), report);
        assertTrue(report.contains("MpiTestExtensionTest$Hanging.rankZeroNeverComes(MpiTestExtensionTest.java:"), report);
    }

    // ---- parameters and collection ---------------------------------------------------------

    @Subject
    static class Parameters {
        @MpiTest(ranks = {3})
        void injected(int rank, MpiContext mpi, TestInfo info) {
            assertEquals(MPI.COMM_WORLD.Rank(), rank);
            assertEquals(rank, mpi.rank());
            assertEquals(3, mpi.size());
            assertEquals("3 ranks", info.getDisplayName());
        }

        @MpiTest(ranks = {1, 2, 3, 4, 7})
        void gathered(MpiContext mpi) {
            List<Integer> squares = mpi.gather(mpi.rank() * mpi.rank());
            List<Integer> expected = IntStream.range(0, mpi.size()).map(r -> r * r).boxed().collect(Collectors.toList());
            assertEquals(mpi.rank() == 0 ? expected : List.of(), squares);
            // A second collection uses slots of its own: the first one's values are not seen again.
            List<String> names = mpi.allGather("r" + mpi.rank());
            assertEquals(IntStream.range(0, mpi.size()).mapToObj(r -> "r" + r).collect(Collectors.toList()), names);
        }

        @MpiTest(ranks = 2, matching = {MatchingKind.LOCKED, MatchingKind.LOCK_FREE}, threadLevel = MPI.THREAD_MULTIPLE)
        void options() {
            assertEquals(MPI.THREAD_MULTIPLE, MPI.Query_thread());
        }
    }

    @Test
    @DisplayName("rank, MpiContext and JUnit's own parameters are injected; gather and allGather collect every rank's value")
    void parametersAndCollection() {
        Events tests = run(Parameters.class).testEvents();
        tests.assertStatistics(s -> s.started(8).succeeded(8));
        assertTrue(names(tests.succeeded()).containsAll(List.of("2 ranks, locked", "2 ranks, lock-free", "7 ranks")),
            names(tests.succeeded()).toString());
    }

    @Test
    @DisplayName("a collection that some rank never joins is a deadlock, reported as such")
    void collectionMissedByARank() {
        String report = onlyFailure(MissedCollection.class).getMessage();
        assertTrue(report.startsWith("deadlock: "), report);
        assertTrue(report.contains("rank 1: finished"), report);
    }

    @Subject
    static class MissedCollection {
        @MpiTest(ranks = 2)
        void onlyRankZeroGathers(MpiContext mpi) {
            if (mpi.rank() == 0) {
                mpi.gather(1);
            }
        }
    }

    @Subject
    static class Checked {
        @MpiTest(ranks = 2, check = true)
        void sendBufferWrittenTooEarly(int rank) {
            double[] field = {1.0, 2.0, 3.0};
            if (rank == 0) {
                mpi.Request sent = MPI.COMM_WORLD.Isend(field, 0, 3, MPI.DOUBLE, 1, 0);
                field[0] = 10.0;
                sent.Wait();
            } else {
                MPI.COMM_WORLD.Recv(field, 0, 3, MPI.DOUBLE, 0, 0);
            }
        }
    }

    @Test
    @DisplayName("check = true turns on the misuse checks of mpjrun --check: a send buffer written while pending fails the test")
    void checks() {
        Throwable t = onlyFailure(Checked.class);
        assertTrue(t.getMessage().startsWith("rank 0 failed: mpi.MPIException: MPI_ERR_BUFFER: Isend"), t.getMessage());
    }

    // ---- aborted and misconfigured ---------------------------------------------------------

    @Subject
    static class Assuming {
        @MpiTest(ranks = 2)
        void rankOneAssumes(int rank) {
            assumeTrue(rank != 1, "not on rank 1");
        }
    }

    @Test
    @DisplayName("an assumption failing on a rank aborts the test, naming the rank")
    void assumption() {
        Events tests = run(Assuming.class).testEvents();
        tests.assertStatistics(s -> s.started(1).aborted(1));
        Throwable t = failure(tests.aborted().list().get(0));
        assertInstanceOf(TestAbortedException.class, t);
        assertTrue(t.getMessage().startsWith("rank 1 failed: "), t.getMessage());
    }

    @Subject
    static class Misconfigured {
        @MpiTest(ranks = {2, 0})
        void noRanks() {
        }

        @MpiTest(timeout = "soon")
        void badTimeout() {
        }
    }

    @Test
    @DisplayName("a rank count below 1 or an unreadable timeout fails the method with a message naming the attribute")
    void misconfigured() {
        Events containers = run(Misconfigured.class).containerEvents();
        List<Throwable> failures = containers.failed().stream().map(MpiTestExtensionTest::failure).collect(Collectors.toList());
        assertEquals(2, failures.size(), failures.toString());
        failures.forEach(t -> assertInstanceOf(ExtensionConfigurationException.class, t));
        String messages = failures.stream().map(Throwable::getMessage).collect(Collectors.joining("\n"));
        assertTrue(messages.contains("@MpiTest(ranks) of noRanks has 0"), messages);
        assertTrue(messages.contains("@MpiTest(timeout) of badTimeout is 'soon'"), messages);
    }
}
