package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import mpjbuf.PoolStrategy;
import mpjbuf.StorageKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.JobTimeoutException;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.ThreadKind;
import org.mpjlite.smpdev.wait.WaitMode;

class LaunchOptionsTest {

    @Test
    void defaultsAreOneRankAndTheJobDefaults() throws Exception {
        LaunchOptions o = LaunchOptions.parse("Hello");
        JobConfig defaults = JobConfig.builder().build();
        assertEquals(LaunchOptions.Action.RUN, o.action());
        assertEquals(1, o.config().ranks());
        assertEquals(defaults.matching(), o.config().matching());
        assertEquals(defaults.eagerThreshold(), o.config().eagerThreshold());
        assertEquals(defaults.poolStrategy(), o.config().poolStrategy());
        assertEquals(defaults.storageKind(), o.config().storageKind());
        assertEquals(defaults.waitMode(), o.config().waitMode());
        assertTrue(o.classpath().isEmpty());
        assertEquals("Hello", o.program());
        assertEquals(List.of(), o.programArgs());
    }

    @Test
    void parsesEveryOption() throws Exception {
        String cp = "lib/a.jar" + File.pathSeparator + "classes";
        LaunchOptions o = LaunchOptions.parse("-np", "8", "-cp", cp, "--matching", "lockfree",
            "--eager-threshold", "64k", "--pool", "buddy2", "--storage", "direct", "--wait", "park",
            "Life.java", "-np", "3", "--help");
        assertEquals(8, o.config().ranks());
        assertEquals(List.of(Path.of("lib/a.jar"), Path.of("classes")), o.classpath().orElseThrow());
        assertEquals(MatchingKind.LOCK_FREE, o.config().matching());
        assertEquals(64 * 1024, o.config().eagerThreshold());
        assertEquals(PoolStrategy.BUDDY2, o.config().poolStrategy());
        assertEquals(StorageKind.DIRECT, o.config().storageKind());
        assertEquals(WaitMode.PARK, o.config().waitMode());
        assertEquals("Life.java", o.program());
        assertEquals(List.of("-np", "3", "--help"), o.programArgs(), "arguments after the program are the program's");
    }

    @Test
    void acceptsSynonymsAndInlineValues() throws Exception {
        assertEquals(5, LaunchOptions.parse("-n", "5", "X").config().ranks());
        assertEquals(List.of(Path.of("d")), LaunchOptions.parse("-classpath", "d", "X").classpath().orElseThrow());
        assertEquals(List.of(Path.of("d")), LaunchOptions.parse("--class-path", "d", "X").classpath().orElseThrow());
        LaunchOptions o = LaunchOptions.parse("--matching=locked", "--pool=unpooled", "--storage=HEAP",
            "--wait=spin", "--eager-threshold=0", "X");
        assertEquals(MatchingKind.LOCKED, o.config().matching());
        assertEquals(PoolStrategy.UNPOOLED, o.config().poolStrategy());
        assertEquals(StorageKind.HEAP, o.config().storageKind());
        assertEquals(WaitMode.SPIN, o.config().waitMode());
        assertEquals(0, o.config().eagerThreshold());
    }

    @Test
    void parsesTraceAndStats() throws Exception {
        LaunchOptions o = LaunchOptions.parse("--trace", "run.json", "--trace-limit=500", "--stats", "X");
        assertEquals(Path.of("run.json"), o.config().trace());
        assertEquals(500, o.config().traceLimit());
        assertTrue(o.config().stats());
        assertEquals(null, o.statsImage());
        LaunchOptions image = LaunchOptions.parse("--stats=m.png", "X");
        assertTrue(image.config().stats());
        assertEquals(Path.of("m.png"), image.statsImage());
        LaunchOptions none = LaunchOptions.parse("X");
        assertEquals(null, none.config().trace());
        assertEquals(1_000_000, none.config().traceLimit());
        assertFalse(none.config().stats());
        assertThrows(UsageException.class, () -> LaunchOptions.parse("--stats=m.txt", "X"));
        assertThrows(UsageException.class, () -> LaunchOptions.parse("--trace-limit", "0", "X"));
        assertThrows(UsageException.class, () -> LaunchOptions.parse("--trace=", "X"));
    }

    @Test
    void parsesByteSizes() throws Exception {
        assertEquals(4096, LaunchOptions.parseSize("x", "4096"));
        assertEquals(16 * 1024, LaunchOptions.parseSize("x", "16k"));
        assertEquals(16 * 1024, LaunchOptions.parseSize("x", "16KB"));
        assertEquals(1 << 20, LaunchOptions.parseSize("x", "1m"));
        assertEquals(1 << 30, LaunchOptions.parseSize("x", "1g"));
        assertThrows(UsageException.class, () -> LaunchOptions.parseSize("x", "2g"));
        assertThrows(UsageException.class, () -> LaunchOptions.parseSize("x", "99999999999999999999999"));
        assertThrows(UsageException.class, () -> LaunchOptions.parseSize("x", "-1"));
        assertThrows(UsageException.class, () -> LaunchOptions.parseSize("x", "16q"));
    }

    @Test
    void helpAndVersionNeedNoProgram() throws Exception {
        assertEquals(LaunchOptions.Action.HELP, LaunchOptions.parse("-h").action());
        assertEquals(LaunchOptions.Action.HELP, LaunchOptions.parse("-np", "2", "--help").action());
        assertEquals(LaunchOptions.Action.VERSION, LaunchOptions.parse("--version").action());
    }

    @Test
    void helpListsEveryOption() {
        Launch.Outcome r = Launch.mpjrun("--help");
        assertEquals(0, r.exitCode());
        for (String option : List.of("-np", "-n ", "-cp", "-classpath", "--class-path", "--matching", "locked",
                "lockfree", "--eager-threshold", "--pool", "buddy1", "buddy2", "unpooled", "--storage", "heap",
                "direct", "--wait", "auto", "spin", "park", "--sync-sends", "--timeout", "--threads", "virtual", "platform", "--stack-size", "--no-deadlock-detection", "-h", "--help", "--version",
                "File.java", "app.jar")) {
            assertTrue(r.out().contains(option), "help should mention " + option + ":\n" + r.out());
        }
        assertEquals("", r.err());
    }

    @Test
    void syncSendsMeanAnEagerThresholdOfZeroAndTimeoutIsInSeconds() throws Exception {
        LaunchOptions o = LaunchOptions.parse("--sync-sends", "--timeout", "2.5", "-np", "3", "Main");
        assertEquals(0, o.config().eagerThreshold());
        assertEquals(java.time.Duration.ofMillis(2500), o.config().timeout());
        assertEquals(3, o.config().ranks());
        assertEquals(null, LaunchOptions.parse("Main").config().timeout());
    }

    @Test
    void threadsAreVirtualFromJdk21OnAndAUsageErrorBefore() throws Exception {
        ThreadKind expected = Runtime.version().feature() >= 21 ? ThreadKind.VIRTUAL : ThreadKind.PLATFORM;
        assertEquals(expected, LaunchOptions.parse("Main").config().threads());
        assertEquals(ThreadKind.PLATFORM, LaunchOptions.parse("--threads", "platform", "Main").config().threads());
        UsageException bad = assertThrows(UsageException.class, () -> LaunchOptions.parse("--threads=green", "Main"));
        assertTrue(bad.getMessage().contains("--threads must be one of virtual, platform, not 'green'"), bad.getMessage());
        if (expected == ThreadKind.VIRTUAL) {
            assertEquals(ThreadKind.VIRTUAL, LaunchOptions.parse("--threads=virtual", "Main").config().threads());
        } else {
            UsageException e = assertThrows(UsageException.class, () -> LaunchOptions.parse("--threads", "virtual", "Main"));
            assertTrue(e.getMessage().startsWith("--threads virtual needs JDK 21 or later"), e.getMessage());
        }
    }

    @Test
    void stackSizeIsEightMegabytesUnlessSet() throws Exception {
        assertEquals(8L << 20, LaunchOptions.parse("Main").config().stackSize());
        assertEquals(16L << 20, LaunchOptions.parse("--stack-size", "16m", "Main").config().stackSize());
        assertEquals(512L << 10, LaunchOptions.parse("--stack-size=512k", "Main").config().stackSize());
        UsageException e = org.junit.jupiter.api.Assertions.assertThrows(UsageException.class,
            () -> LaunchOptions.parse("--stack-size", "big", "Main"));
        assertTrue(e.getMessage().contains("--stack-size"), e.getMessage());
    }

    @Test
    void deadlockDetectionIsOnUnlessTurnedOff() throws Exception {
        assertTrue(LaunchOptions.parse("Main").config().deadlockDetection());
        LaunchOptions o = LaunchOptions.parse("--no-deadlock-detection", "-np", "2", "Main", "--no-deadlock-detection");
        assertFalse(o.config().deadlockDetection());
        assertEquals(2, o.config().ranks());
        assertEquals(List.of("--no-deadlock-detection"), o.programArgs(), "after the program it is the program's");
        UsageException e = assertThrows(UsageException.class,
            () -> LaunchOptions.parse("--no-deadlock-detection=yes", "Main"));
        assertTrue(e.getMessage().contains("--no-deadlock-detection takes no value"), e.getMessage());
    }

    @Test
    void withoutDeadlockDetectionADeadlockedJobRunsUntilTheTimeout(@TempDir Path dir) throws Exception {
        Path src = Sources.write(dir, "HeadToHead.java", String.join("\n",
            "import mpi.*;",
            "public class HeadToHead {",
            "    public static void main(String[] args) {",
            "        MPI.Init(args);",
            "        int[] buf = new int[1];",
            "        MPI.COMM_WORLD.Recv(buf, 0, 1, MPI.INT, 1 - MPI.COMM_WORLD.Rank(), 5);",
            "        MPI.Finalize();",
            "    }",
            "}",
            ""));
        long start = System.nanoTime();
        Launch.Outcome r = Launch.mpjrun("-np", "2", "--no-deadlock-detection", "--timeout", "2", src.toString());
        assertEquals(JobTimeoutException.EXIT_CODE, r.exitCode(), r.toString());
        assertTrue(r.err().startsWith("mpjrun: timeout: the job ran longer than 2.0 s\n"), r.err());
        assertTrue(System.nanoTime() - start >= 2_000_000_000L, "stopped by the timeout, not by the detector");
    }

    @Test
    void versionNamesTheProject() {
        Launch.Outcome r = Launch.mpjrun("--version");
        assertEquals(0, r.exitCode());
        assertTrue(r.out().startsWith("MPJ Lite "), r.out());
        assertFalse(r.out().contains("${"), "version resource not filtered: " + r.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "-np 0 X", "-np -2 X", "-np many X", "-n", "--matching fast X", "--pool buddy3 X", "--storage disk X",
        "--wait sleep X", "--eager-threshold lots X", "--frobnicate X", "-np 2", "", "-cp", "--timeout 0 X",
        "--timeout soon X", "--timeout -3 X"
    })
    void usageErrorsExitWithTwoAndNoStackTrace(String line) {
        String[] args = line.isEmpty() ? new String[0] : line.split(" ");
        Launch.Outcome r = Launch.mpjrun(args);
        assertEquals(UsageException.EXIT_CODE, r.exitCode(), r.toString());
        assertTrue(r.err().startsWith("mpjrun: "), r.toString());
        assertTrue(r.err().contains("--help"), "should point to --help: " + r);
        assertFalse(r.err().contains("\tat "), "no stack trace for a usage error: " + r);
    }

    @Test
    void errorMessagesSayWhatIsWrong() {
        assertTrue(Launch.mpjrun("-np", "0", "X").err().contains("-np needs a number of ranks of at least 1"));
        assertTrue(Launch.mpjrun("--frobnicate", "X").err().contains("unknown option '--frobnicate'"));
        assertTrue(Launch.mpjrun("-np", "2").err().contains("no program given"));
        assertTrue(Launch.mpjrun("--wait", "sleep", "X").err().contains("--wait must be one of auto, spin, park"));
        assertTrue(Launch.mpjrun("-cp").err().contains("option -cp needs a value"));
    }
}
