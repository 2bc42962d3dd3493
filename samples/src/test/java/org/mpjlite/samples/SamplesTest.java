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
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.run.MpjRun;

/**
 * Runs every sample in-process through {@link MpjRun#run}, as {@code mpjrun} would: by class name
 * from the compiled classes, and once each as a single source file. Asserts the exit code and the
 * output.
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

    /** One OSU latency line: size, latency and bandwidth, tab separated as in OMB-J. */
    private static final Pattern LATENCY_LINE = Pattern.compile("(\\d+)\t\t\t(\\d+\\.\\d\\d)\t\t\t(\\d+\\.\\d\\d)");

    /** Runs {@code mpjrun -np N args...} with the program's System.out captured. */
    private static Run mpjrun(int ranks, String... args) {
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
    private static Run mpjrunClass(int ranks, String mainClass, String... args) {
        List<String> command = new ArrayList<>(List.of("-cp", samplesClasses(), mainClass));
        command.addAll(List.of(args));
        return mpjrun(ranks, command.toArray(new String[0]));
    }

    private static String samplesClasses() {
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

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"mpijava.PingPong|", "ompi.PingPong|-a buffer", "ompi.PingPong|-a arrays"})
    @DisplayName("PingPong on 2 ranks prints the OSU latency table for 1..64 B")
    void pingPong(String mainClass, String extra) {
        List<String> args = new ArrayList<>(List.of("-m", "1:64", "-x", "2", "-i", "20"));
        if (extra != null) {
            args.addAll(List.of(extra.split(" ")));
        }
        Run run = mpjrunClass(2, mainClass, args.toArray(new String[0]));
        run.assertSucceeded();
        List<String> lines = run.lines();
        assertEquals("# OSU Latency Test", lines.get(0));
        assertEquals("# Size [B]\t\tLatency [us]\tBandwidth [Gb/s]", lines.get(1));
        assertEquals(2 + 7, lines.size(), run.out);
        for (int i = 0; i < 7; i++) {
            var m = LATENCY_LINE.matcher(lines.get(2 + i));
            assertTrue(m.matches(), () -> "OSU latency line: " + run.out);
            assertEquals(1 << i, Integer.parseInt(m.group(1)));
            assertTrue(Double.parseDouble(m.group(2)) > 0, lines.get(2 + i));
        }
    }

    @Test
    @DisplayName("PingPong -m MIN:MAX starts at the power of two at or above MIN")
    void pingPongSizeRange() {
        Run run = mpjrunClass(2, "mpijava.PingPong", "-m", "3:16", "-x", "1", "-i", "3");
        run.assertSucceeded();
        List<Integer> sizes = run.lines().stream().skip(2)
            .map(l -> Integer.parseInt(l.substring(0, l.indexOf('\t')))).toList();
        assertEquals(List.of(4, 8, 16), sizes);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 3, 4})
    @DisplayName("PingPong needs exactly 2 ranks: otherwise rank 0 says so and the job exits 0")
    void pingPongNeedsTwoRanks(int ranks) {
        for (String main : List.of("mpijava.PingPong", "ompi.PingPong", "bench.PingPongVsArraycopy")) {
            Run run = mpjrunClass(ranks, main, "-m", "8");
            run.assertSucceeded();
            assertEquals(List.of("This test requires exactly two processes (ranks); run with -np 2."), run.lines());
        }
    }

    @Test
    @DisplayName("PingPong rejects an unknown option with a usage message and a non-zero exit")
    void pingPongBadOption() {
        Run run = mpjrunClass(2, "ompi.PingPong", "-a", "pigeons");
        assertEquals(1, run.exitCode, run.err);
        assertTrue(run.err.contains("Usage: PingPong"), run.err);
    }

    @Test
    @DisplayName("PingPongVsArraycopy prints latency, arraycopy time and the bandwidth ratio per size")
    void pingPongVsArraycopy() {
        Run run = mpjrunClass(2, "bench.PingPongVsArraycopy", "-m", "1:4096", "-x", "5", "-i", "20");
        run.assertSucceeded();
        List<String> lines = run.lines();
        assertEquals("# Size [B]\t\tLatency [us]\tArraycopy [us]\tBandwidth [% of arraycopy]", lines.get(1));
        assertEquals(2 + 13, lines.size(), run.out);
        Pattern row = Pattern.compile("(\\d+)\t\t\t\\d+\\.\\d\\d\t\t\t\\d+\\.\\d{3}\t\t\t\\d+\\.\\d");
        IntStream.range(0, 13).forEach(i -> {
            String line = lines.get(2 + i);
            assertTrue(row.matcher(line).matches(), line);
            assertTrue(line.startsWith((1 << i) + "\t"), line);
        });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "mpijava/Hello.java|", "mpijava/Ring.java|3", "mpijava/PingPong.java|-m 1:8 -x 1 -i 5",
        "ompi/Hello.java|", "ompi/Ring.java|3", "ompi/PingPong.java|-m 1:8 -x 1 -i 5 -a arrays",
        "mpijava/Life.java|12 4", "ompi/Life.java|12 4", "ompi/Tickets.java|20",
        "bench/PingPongVsArraycopy.java|-m 1:8 -x 1 -i 5"})
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
