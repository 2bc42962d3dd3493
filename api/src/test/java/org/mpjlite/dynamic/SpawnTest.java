package org.mpjlite.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import mpi.Intercomm;
import mpi.MPI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpjlite.JobFailedException;
import org.mpjlite.dynamic.fixtures.DeadlockParent;
import org.mpjlite.dynamic.fixtures.FailingChild;
import org.mpjlite.dynamic.fixtures.FailingChildParent;
import org.mpjlite.dynamic.fixtures.MissingClassParent;
import org.mpjlite.dynamic.fixtures.MultipleParent;
import org.mpjlite.dynamic.fixtures.ShortParent;
import org.mpjlite.dynamic.fixtures.SpawnChild;
import org.mpjlite.dynamic.fixtures.SpawnParent;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.run.Launch;
import org.mpjlite.run.Launch.Outcome;
import org.mpjlite.smpdev.DeadlockException;
import org.mpjlite.smpdev.JobResult;

/**
 * {@code Intracomm.spawn} and {@code spawnMultiple}: children run as ranks of the same job with a
 * COMM_WORLD of their own, talk with their parents through the intercommunicator (both ways, and
 * merged), and fail or deadlock the job like any rank.
 */
class SpawnTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} parents spawn {1} children")
    @CsvSource({"1, 1", "1, 4", "2, 2", "3, 1", "3, 4"})
    void childrenTalkWithTheirParentsAndHaveAWorldOfTheirOwn(int parents, int children) throws Exception {
        Path out = dir.resolve("out.txt");
        JobResult result = Jobs.options().ranks(parents).timeout(Duration.ofSeconds(40))
            .runMain(SpawnParent.class, String.valueOf(children), out.toString(), SpawnChild.class.getName());
        assertTrue(result.succeeded(), () -> String.valueOf(result.failure()));
        int n = parents + children;
        assertEquals("spawned " + parents + " parents, " + children + " children, sum " + n * (n - 1) / 2,
            Files.readString(out));
    }

    @ParameterizedTest(name = "{0} parents under mpjrun")
    @CsvSource({"1, 2", "2, 1", "3, 2"})
    void mpjrunResolvesTheChildOnTheParentsClassPath(int parents, int children) throws Exception {
        Path out = dir.resolve("out.txt");
        Outcome r = Launch.mpjrun("-np", String.valueOf(parents), "-cp", testClasses(), SpawnParent.class.getName(),
            String.valueOf(children), out.toString(), SpawnChild.class.getName());
        assertEquals(0, r.exitCode(), r.err());
        int n = parents + children;
        assertEquals("spawned " + parents + " parents, " + children + " children, sum " + n * (n - 1) / 2,
            Files.readString(out));
    }

    @Test
    void aSourceFileIsCompiledForTheChildren() throws Exception {
        Path source = Path.of("src/test/java/org/mpjlite/dynamic/fixtures/SpawnChild.java").toAbsolutePath();
        assertTrue(Files.isRegularFile(source), source::toString);
        Path out = dir.resolve("out.txt");
        Outcome r = Launch.mpjrun("-np", "2", "-cp", testClasses(), SpawnParent.class.getName(), "3", out.toString(),
            source.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("spawned 2 parents, 3 children, sum 10", Files.readString(out));
    }

    @Test
    void aSourceProgramSpawnsAClassOfItsOwnFile() throws Exception {
        Path out = dir.resolve("out.txt");
        Path src = Files.writeString(dir.resolve("Family.java"), String.join("\n",
            "import mpi.*;",
            "public class Family {",
            "    public static void main(String[] args) throws Exception {",
            "        MPI.Init(args);",
            "        Intercomm kids = MPI.COMM_WORLD.spawn(\"Kid\", new String[] {\"7\"}, 2, MPI.INFO_NULL, 0, null);",
            "        int[] got = new int[1];",
            "        kids.recv(got, 1, MPI.INT, 1, 0);",
            "        if (MPI.COMM_WORLD.getRank() == 0) java.nio.file.Files.writeString(java.nio.file.Path.of(args[0]),",
            "            \"kid said \" + got[0]);",
            "        MPI.Finalize();",
            "    }",
            "}",
            "class Kid {",
            "    public static void main(String[] args) {",
            "        MPI.Init(args);",
            "        Intercomm parent = Intercomm.getParent();",
            "        for (int p = 0; p < parent.getRemoteSize(); p++) {",
            "            parent.send(new int[] {Integer.parseInt(args[0]) * 10 + MPI.COMM_WORLD.getRank()}, 1, MPI.INT, p, 0);",
            "        }",
            "        MPI.Finalize();",
            "    }",
            "}",
            ""));
        Outcome r = Launch.mpjrun("-np", "3", src.toString(), out.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("kid said 71", Files.readString(out));
    }

    @ParameterizedTest(name = "{0} parents, {1}")
    @CsvSource({"1, plain", "3, plain", "2, classpath"})
    void javaWithTheClassAsFirstArgumentAsOpenMpiProgramsSpawn(int parents, String form) {
        List<Integer> sums = Jobs.options().ranks(parents).timeout(Duration.ofSeconds(40)).run(() -> {
            MPI.Init(new String[0]);
            String child = SpawnChild.class.getName();
            String[] argv = form.equals("plain") ? new String[] {child, "a", "b"}
                : new String[] {"-cp", testClasses(), child, "a", "b"};
            String[] given = argv.clone();
            Intercomm ic = MPI.COMM_WORLD.spawn("java", argv, 2, MPI.INFO_NULL, 0, null);
            int sum = SpawnParent.exchange(ic, 2, 2); // the children got "a", "b": the class is not an argument
            assertTrue(java.util.Arrays.equals(given, argv), "the program's argv is left alone");
            MPI.Finalize();
            return sum;
        });
        int n = parents + 2;
        assertEquals(java.util.Collections.nCopies(parents, n * (n - 1) / 2), sums);
    }

    @Test
    void aCommandLineWithAnotherJavaOptionIsErrSpawn() {
        List<String> messages = Jobs.options().ranks(2).run(() -> {
            MPI.Init(new String[0]);
            mpi.MPIException e = assertThrows(mpi.MPIException.class, () -> MPI.COMM_WORLD.spawn(
                "java -Xmx1g " + SpawnChild.class.getName(), null, 1, MPI.INFO_NULL, 0, null));
            assertEquals(MPI.ERR_SPAWN, e.getErrorClass());
            MPI.Finalize();
            return e.getMessage();
        });
        for (String m : messages) {
            assertTrue(m.contains("'-Xmx1g'") && m.contains("-cp PATH"), m);
        }
    }

    @Test
    void parentsRunFromTheCallersClassLoaderSpawnToo() {
        List<Integer> sums = Jobs.options().ranks(2).timeout(Duration.ofSeconds(40)).run(() -> {
            MPI.Init(new String[0]);
            mpi.Info hints = new mpi.Info();
            hints.set("wdir", "/nowhere");
            hints.set("host", "elsewhere");
            Intercomm ic = MPI.COMM_WORLD.spawn(SpawnChild.class.getName(), new String[] {"one"}, 3, hints, 1, null);
            int sum = SpawnParent.exchange(ic, 3, 1);
            MPI.Finalize();
            return sum;
        });
        assertEquals(List.of(10, 10), sums);
    }

    @ParameterizedTest(name = "{0} parents")
    @CsvSource({"1", "2"})
    void theJobEndsWhenItsSpawnedRanksHaveEndedToo(int parents) throws Exception {
        Path out = dir.resolve("late");
        JobResult result = Jobs.options().ranks(parents).runMain(ShortParent.class, out.toString());
        assertTrue(result.succeeded(), () -> String.valueOf(result.failure()));
        assertEquals("child 0 of 2", Files.readString(Path.of(out + "-0")));
        assertEquals("child 1 of 2", Files.readString(Path.of(out + "-1")));
    }

    @Test
    void finalizeOfAProgramRunWithoutALauncherWaitsForItsChildren() throws Exception {
        Path out = dir.resolve("late");
        java.util.concurrent.atomic.AtomicReference<Object> outcome = new java.util.concurrent.atomic.AtomicReference<>();
        Thread main = new Thread(() -> {
            try {
                MPI.Init(new String[0]);
                MPI.COMM_WORLD.spawn(org.mpjlite.dynamic.fixtures.LateChild.class.getName(), new String[] {out.toString()},
                    2, MPI.INFO_NULL, 0, null).disconnect();
                MPI.Finalize();
                outcome.set(Files.readString(Path.of(out + "-0")) + ", " + Files.readString(Path.of(out + "-1")));
            } catch (Throwable t) {
                outcome.set(t);
            }
        }, "plain-main");
        main.start();
        main.join();
        assertEquals("child 0 of 2, child 1 of 2", outcome.get());
    }

    @Test
    void aProgramRunWithoutALauncherDeadlockedWithItsChildGetsTheReport() throws Exception {
        java.util.concurrent.atomic.AtomicReference<Throwable> outcome = new java.util.concurrent.atomic.AtomicReference<>();
        Thread main = new Thread(() -> {
            try {
                MPI.Init(new String[0]);
                Intercomm ic = MPI.COMM_WORLD.spawn(org.mpjlite.dynamic.fixtures.DeadlockChild.class.getName(), null, 1,
                    MPI.INFO_NULL, 0, null);
                ic.recv(new int[1], 1, MPI.INT, 0, 7);
            } catch (Throwable t) {
                outcome.set(t);
            }
        }, "plain-main");
        main.start();
        main.join();
        mpi.MPIException e = assertInstanceOf(mpi.MPIException.class, outcome.get());
        assertEquals(MPI.ERR_PROC_ABORTED, e.getErrorClass(), e.getMessage());
        String report = assertInstanceOf(DeadlockException.class, e.getCause()).getMessage();
        assertTrue(report.contains("rank 0: recv(") && report.contains("rank 1 (rank 0 of the MPI.COMM_WORLD of spawn"),
            report);
    }

    @Test
    void spawnMultipleStartsEveryCommandInOneWorld() throws Exception {
        Path out = dir.resolve("out.txt");
        JobResult result = Jobs.options().ranks(3).timeout(Duration.ofSeconds(40))
            .runMain(MultipleParent.class, out.toString());
        assertTrue(result.succeeded(), () -> String.valueOf(result.failure()));
        assertEquals("0/3 args=1 appnum=0;1/3 args=1 appnum=0;2/3 args=3 appnum=1;", Files.readString(out));
    }

    @Test
    void ranksThatWereNotSpawnedHaveNoParent() {
        List<Boolean> none = Jobs.options().ranks(3).run(() -> {
            MPI.Init(new String[0]);
            Intercomm parent = Intercomm.getParent();
            boolean isNull = parent.isNull();
            int universe = (Integer) MPI.COMM_WORLD.getAttr(MPI.UNIVERSE_SIZE);
            int appnum = (Integer) MPI.COMM_WORLD.getAttr(MPI.APPNUM);
            boolean everywhere = (Integer) MPI.COMM_SELF.getAttr(MPI.UNIVERSE_SIZE) == universe
                && ((int[]) MPI.COMM_WORLD.Attr_get(MPI.UNIVERSE_SIZE))[0] == universe;
            MPI.Finalize();
            return isNull && universe >= 3 && appnum == 0 && everywhere;
        });
        assertEquals(List.of(true, true, true), none);
    }

    @ParameterizedTest(name = "{0} parents")
    @CsvSource({"1", "3"})
    void aMissingClassIsErrSpawnNamingTheCommandAtEveryParent(int parents) throws Exception {
        Path out = dir.resolve("out.txt");
        JobResult result = Jobs.options().ranks(parents).runMain(MissingClassParent.class, out.toString());
        assertTrue(result.succeeded(), () -> String.valueOf(result.failure()));
        String message = Files.readString(out);
        assertTrue(message.startsWith("MPI_ERR_SPAWN: spawn: cannot start 'no.such.Program'"), message);
    }

    @Test
    void aChildThatThrowsEndsTheJobWithItsException() {
        JobResult result = Jobs.options().ranks(1).shutdownGrace(Duration.ofSeconds(2))
            .runMain(FailingChildParent.class);
        assertEquals(1, result.exitCode());
        assertEquals(2, result.failure().rank(), "the job's rank of the child's rank 1");
        assertInstanceOf(IllegalStateException.class, result.failure().cause());
        assertEquals("child boom", result.failure().cause().getMessage());
        assertEquals("rank 2 (rank 1 of the MPI.COMM_WORLD of spawn of " + FailingChild.class.getName()
            + " by rank 0) failed: java.lang.IllegalStateException: child boom", result.failure().describe());
    }

    @Test
    void mpjrunExitsNonZeroWhenAChildThrows() throws Exception {
        Outcome r = Launch.mpjrun("-np", "2", "-cp", testClasses(), FailingChildParent.class.getName());
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().contains("child boom") && r.err().contains("rank 1 of the MPI.COMM_WORLD of spawn of"), r.err());
    }

    @Test
    void aParentAndAChildWaitingForEachOtherAreAReportedDeadlock() {
        JobResult result = Jobs.options().ranks(1).runMain(DeadlockParent.class);
        assertTrue(result.failure() != null && result.failure().isDeadlock(), () -> String.valueOf(result.failure()));
        String report = assertInstanceOf(DeadlockException.class, result.failure().cause()).getMessage();
        assertTrue(report.contains("rank 0: recv(") && report.contains("DeadlockParent.java"), report);
        assertTrue(report.contains("rank 1 (rank 0 of the MPI.COMM_WORLD of spawn of "
            + "org.mpjlite.dynamic.fixtures.DeadlockChild by rank 0): recv(") && report.contains("DeadlockChild.java"),
            report);
        assertTrue(report.contains("cycle: "), report);
    }

    @Test
    void spawnChecksItsArguments() {
        JobFailedException e = assertThrows(JobFailedException.class, () -> Jobs.options().ranks(2).run(() -> {
            MPI.Init(new String[0]);
            try {
                MPI.COMM_WORLD.spawn(SpawnChild.class.getName(), null, 0, MPI.INFO_NULL, 0, null);
            } catch (mpi.MPIException x) {
                assertEquals(MPI.ERR_ARG, x.getErrorClass(), x.getMessage());
                assertTrue(x.getMessage().contains("maxprocs is 0"), x.getMessage());
            }
            MPI.COMM_WORLD.spawn(SpawnChild.class.getName(), null, 1, MPI.INFO_NULL, 2, null);
            return null;
        }));
        assertTrue(e.getMessage().contains("MPI_ERR_ROOT") && e.getMessage().contains("root 2"), e.getMessage());
    }

    private static String testClasses() throws Exception {
        return Path.of(SpawnChild.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
