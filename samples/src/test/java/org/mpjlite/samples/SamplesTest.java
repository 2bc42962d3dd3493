package org.mpjlite.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpjlite.run.MpjRun;

/**
 * Runs every sample in-process through {@link MpjRun#run}, as {@code mpjrun} would: by class name
 * from the compiled classes, once each as a single source file, and under {@code --check} (which
 * must report nothing). Asserts the exit code and the output.
 */
class SamplesTest {
    /** Exit code, the program's standard output (what the ranks print) and the launcher's error stream. */
    record Run(int exitCode, String out, String err) {
        List<String> lines() {
            return out.lines().toList();
        }

        void assertSucceeded() {
            assertEquals(0, exitCode, () -> "exit code; stdout:\n" + out + "\nstderr:\n" + err);
        }
    }

    /** Runs {@code mpjrun -np N args...} with the program's System.out captured. */
    static Run mpjrun(int ranks, String... args) {
        List<String> command = new ArrayList<>(List.of("-np", String.valueOf(ranks)));
        command.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        int code;
        try (PrintStream capture = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            code = MpjRun.run(command.toArray(new String[0]), capture, errors);
        } finally {
            System.setOut(stdout);
        }
        Run run = new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        stdout.print(run.out);
        return run;
    }

    /** Runs a compiled sample by class name, with the samples' classes directory as the class path. */
    static Run mpjrunClass(int ranks, String mainClass, String... args) {
        List<String> command = new ArrayList<>(List.of("-cp", samplesClasses(), mainClass));
        command.addAll(List.of(args));
        return mpjrun(ranks, command.toArray(new String[0]));
    }

    static String samplesClasses() {
        try {
            return Path.of(mpijava.Hello.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @CsvSource({"mpijava.Hello, 1", "mpijava.Hello, 2", "mpijava.Hello, 3", "mpijava.Hello, 4",
        "ompi.Hello, 1", "ompi.Hello, 2", "ompi.Hello, 3", "ompi.Hello, 4"})
    @DisplayName("Hello: rank 0 prints every rank's greeting, in rank order")
    void hello(String mainClass, int ranks) {
        Run run = mpjrunClass(ranks, mainClass);
        run.assertSucceeded();
        List<String> lines = run.lines();
        assertEquals(ranks, lines.size(), run.out);
        for (int r = 0; r < ranks; r++) {
            assertTrue(lines.get(r).startsWith("Hello from rank " + r + " of " + ranks + " on "), lines.get(r));
        }
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @CsvSource({"mpijava.Ring, 1", "mpijava.Ring, 2", "mpijava.Ring, 3", "mpijava.Ring, 4",
        "ompi.Ring, 1", "ompi.Ring, 2", "ompi.Ring, 3", "ompi.Ring, 4"})
    @DisplayName("Ring: the token after 7 laps is 7 * n(n+1)/2, printed by rank 0")
    void ring(String mainClass, int ranks) {
        Run run = mpjrunClass(ranks, mainClass, "7");
        run.assertSucceeded();
        int expected = 7 * ranks * (ranks + 1) / 2;
        assertEquals(1, run.lines().size(), run.out);
        assertTrue(run.out.startsWith("Ring of " + ranks + " ranks, 7 laps: token = " + expected
            + " (expected " + expected + ")"), run.out);
    }

    @ParameterizedTest(name = "ompi.BlockIo on {0} ranks")
    @CsvSource({"1", "2", "3", "4", "7"})
    @DisplayName("BlockIo: interleaved blocks written through a file view read back in place; the file is deleted")
    void blockIo(int ranks, @org.junit.jupiter.api.io.TempDir Path dir) {
        Path file = dir.resolve("blocks.bin");
        Run run = mpjrunClass(ranks, "ompi.BlockIo", "5", file.toString());
        run.assertSucceeded();
        assertEquals(List.of("BlockIo (ompi.BlockIo): " + ranks + " ranks wrote 5 blocks of 4 ints each, interleaved;"
            + " read back " + ranks * 20 + " ints (" + ranks * 80 + " bytes): every block in place"), run.lines());
        assertTrue(!java.nio.file.Files.exists(file), "deleted on close");
    }

    @ParameterizedTest(name = "ompi.Ripple on {0} ranks")
    @CsvSource({"1", "2", "3", "4", "7"})
    @DisplayName("Ripple: neighbourhood exchanges on a ring and a matched-probe gather give the serial ring")
    void ripple(int ranks) {
        Run run = mpjrunClass(ranks, "ompi.Ripple", "60", "40");
        run.assertSucceeded();
        // 60 cells, 40 steps: the sum computed alone is 23963331, whatever the number of ranks.
        assertEquals(List.of("Ripple: 60 cells on " + ranks + (ranks == 1 ? " rank, " : " ranks, ")
            + "40 steps: sum 23963331 (expected 23963331)"), run.lines());
    }

    @ParameterizedTest(name = "ompi.Tickets on {0} ranks")
    @CsvSource({"1", "2", "3", "7"})
    @DisplayName("Tickets: fetchAndOp hands every ticket of rank 0's counter out exactly once")
    void tickets(int ranks) {
        Run run = mpjrunClass(ranks, "ompi.Tickets", "50");
        run.assertSucceeded();
        long n = 50L * ranks;
        assertEquals(List.of("Tickets of " + ranks + " ranks: counter = " + n + " (expected " + n
            + "), sum of tickets = " + n * (n - 1) / 2 + " (expected " + n * (n - 1) / 2 + ")"), run.lines());
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @CsvSource({"mpijava.Life, 1, 1x1", "mpijava.Life, 4, 2x2", "mpijava.Life, 6, 3x2",
        "ompi.Life, 1, 1x1", "ompi.Life, 4, 2x2", "ompi.Life, 6, 3x2"})
    @DisplayName("Life: the population after the halo exchanges on a periodic grid of ranks is the serial one")
    void life(String mainClass, int ranks, String grid) {
        Run run = mpjrunClass(ranks, mainClass, "20", "25");
        run.assertSucceeded();
        // 20x20 board, 25 generations: 14 cells alive (computed independently), whatever the grid of ranks.
        assertEquals(List.of("Life: 20x20 board on a " + grid + " grid of ranks, 25 generations: 14 alive (expected 14)"),
            run.lines());
    }

    @ParameterizedTest(name = "{0} {2} on {1} ranks")
    @CsvSource(delimiter = '|', value = {
        "mpijava.Hello|2|", "mpijava.Hello|3|", "mpijava.Hello|8|",
        "ompi.Hello|2|", "ompi.Hello|3|", "ompi.Hello|8|",
        "mpijava.Ring|2|3", "mpijava.Ring|3|3", "mpijava.Ring|8|3",
        "ompi.Ring|2|3", "ompi.Ring|3|3", "ompi.Ring|8|3",
        "ompi.Ripple|3|60 40", "ompi.Ripple|8|60 40"})
    @DisplayName("no false reports: with the deadlock detector and --check, exit 0 and nothing on the error stream")
    void runsCleanUnderCheck(String mainClass, int ranks, String args) {
        List<String> command = new ArrayList<>(List.of("--check", "-cp", samplesClasses(), mainClass));
        if (args != null) {
            command.addAll(List.of(args.split(" ")));
        }
        Run run = mpjrun(ranks, command.toArray(new String[0]));
        run.assertSucceeded();
        assertEquals("", run.err, "no warning, error or report");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "mpijava/Hello.java|", "mpijava/Ring.java|3", "ompi/Hello.java|", "ompi/Ring.java|3",
        "mpijava/Life.java|12 4", "ompi/Life.java|12 4", "ompi/Tickets.java|20"})
    @Timeout(120)
    @DisplayName("every sample runs as a single source file on 2 ranks, as ./mpjrun -np 2 File.java")
    void runsAsSourceFile(String file, String args) {
        List<String> command = new ArrayList<>(List.of(Path.of("src", "main", "java", file).toString()));
        if (args != null) {
            command.addAll(List.of(args.split(" ")));
        }
        Run run = mpjrun(2, command.toArray(new String[0]));
        run.assertSucceeded();
        assertTrue(!run.out.isBlank(), "the sample printed something");
    }
}
