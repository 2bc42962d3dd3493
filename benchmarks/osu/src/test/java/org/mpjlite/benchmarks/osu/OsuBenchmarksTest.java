package org.mpjlite.benchmarks.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.run.MpjRun;

/**
 * The OMB-J-compatible point-to-point programs ({@code bench.OSULatency}, {@code OSUBandwidth},
 * {@code OSUBiBandwidth}, {@code OSUMultiLatency}) run in-process as {@code mpjrun} runs them, with
 * tiny sizes and iteration counts: the output must be OMB-J's format line for line (headers, tab
 * separated columns, one line per power-of-two size), validation must pass across the eager and
 * rendezvous protocols, and bad command lines must fail with the usage.
 */
class OsuBenchmarksTest {
    /** Exit code and the two streams of one run. */
    record Run(int exitCode, String out, String err) {
        List<String> lines() {
            return out.lines().toList();
        }

        void assertSucceeded() {
            assertEquals(0, exitCode, () -> "exit code; stdout:\n" + out + "\nstderr:\n" + err);
        }
    }

    /** A data line: size, then one or two numbers with two decimals, then Pass/Fail with -c. */
    private static final Pattern ROW =
        Pattern.compile("(\\d+)\t\t\t(\\d+\\.\\d\\d)(?:\t\t\t(\\d+\\.\\d\\d))?(?:\t\t\t(Pass|Fail))?");

    private static final String LATENCY_COLUMNS = "# Size [B]\t\tLatency [us]\tBandwidth [Gb/s]";
    private static final String BANDWIDTH_COLUMNS = "# Size [B]\t\tBandwidth [MB/s]\tBandwidth [Gb/s]";

    /** Runs {@code mpjrun -np ranks args...} in-process with the program's System.out captured. */
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
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Runs a compiled program of package bench by class name. */
    static Run osu(int ranks, String program, String args) {
        List<String> command = new ArrayList<>(List.of("-cp", classes(), "bench." + program));
        if (!args.isBlank()) {
            command.addAll(List.of(args.trim().split(" +")));
        }
        return mpjrun(ranks, command.toArray(new String[0]));
    }

    /** The compiled programs' class directory, for {@code mpjrun -cp}. */
    static String classes() {
        try {
            return Path.of(bench.OSULatency.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Asserts the two header lines and one well-formed line per size; returns the data lines' matches. */
    private static List<Matcher> assertTable(Run run, String title, String columns, List<Integer> sizes,
                                             boolean twoValues, boolean validated) {
        run.assertSucceeded();
        List<String> lines = run.lines();
        assertEquals(title, lines.get(0), run.out);
        assertEquals(columns + (validated ? "\tValidation" : ""), lines.get(1), run.out);
        assertEquals(2 + sizes.size(), lines.size(), run.out);
        List<Matcher> rows = new ArrayList<>();
        for (int i = 0; i < sizes.size(); i++) {
            String line = lines.get(2 + i);
            Matcher m = ROW.matcher(line);
            assertTrue(m.matches(), () -> "OSU line: '" + line + "' in\n" + run.out);
            assertEquals(sizes.get(i), Integer.parseInt(m.group(1)), line);
            assertEquals(twoValues, m.group(3) != null, line);
            assertEquals(validated ? "Pass" : null, m.group(4), line);
            rows.add(m);
        }
        return rows;
    }

    private static List<Integer> powersOfTwo(int from, int to) {
        List<Integer> sizes = new ArrayList<>();
        for (int s = from; s <= to; s *= 2) {
            sizes.add(s);
        }
        return sizes;
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {"", "-a buffer", "-a arrays", "-c", "-a arrays -c"})
    @DisplayName("OSULatency prints OMB-J's latency table, with a Validation column under -c")
    void latency(String extra) {
        Run run = osu(2, "OSULatency", "-m 1:64 -x 2 -i 5 " + extra);
        List<Matcher> rows = assertTable(run, "# OSU Latency Test", LATENCY_COLUMNS, powersOfTwo(1, 64), true,
            extra.contains("-c"));
        for (Matcher m : rows) {
            assertTrue(Double.parseDouble(m.group(2)) > 0, m.group());
            // Bandwidth [Gb/s] is size * 8 bits over the one-way latency, as OMB-J prints it.
            double expected = Integer.parseInt(m.group(1)) * 8 / (Double.parseDouble(m.group(2)) * 1e3);
            assertEquals(expected, Double.parseDouble(m.group(3)), 0.006 + expected * 0.03, m.group());
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"OSUBandwidth, # OSU Bandwidth Test", "OSUBiBandwidth, # OSU Bi-Directional Bandwidth Test"})
    @DisplayName("OSUBandwidth and OSUBiBandwidth print OMB-J's bandwidth table; -W sets the window")
    void bandwidth(String program, String title) {
        for (String extra : List.of("", "-a arrays", "-W 3 -c", "-a arrays -W 1 -c")) {
            Run run = osu(2, program, "-m 2:32 -x 1 -i 3 " + extra);
            List<Matcher> rows = assertTable(run, title, BANDWIDTH_COLUMNS, powersOfTwo(2, 32), true,
                extra.contains("-c"));
            for (Matcher m : rows) {
                double mbps = Double.parseDouble(m.group(2));
                assertEquals(mbps * 8 / 1e3, Double.parseDouble(m.group(3)), 0.006 + mbps * 8e-5, m.group());
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"OSULatency, Latency [us], ''", "OSULatency, Latency [us], -c", "OSUBandwidth, Bandwidth [MB/s], ''",
        "OSUBandwidth, Bandwidth [MB/s], -a arrays -c"})
    @DisplayName("-s prints each timed segment: size, start and end in nanoseconds, back to back, and its value")
    void segments(String program, String column, String extra) {
        Run run = osu(2, program, "-m 4:8 -x 3 -i 4 -s 3 " + extra);
        run.assertSucceeded();
        List<String> lines = run.lines();
        assertEquals("# Size [B]\tStart [ns]\tEnd [ns]\t" + column, lines.get(1), run.out);
        boolean validated = extra.contains("-c");
        assertEquals(2 + 2 * (1 + 3 + (validated ? 1 : 0)), lines.size(), run.out);
        Pattern segment = Pattern.compile("(\\d+)\t(\\d+)\t(\\d+)\t(\\d+\\.\\d+)");
        for (int size : List.of(4, 8)) {
            int at = 2 + (size == 4 ? 0 : 4 + (validated ? 1 : 0));
            assertEquals("# Warm-up done, 3 segments follow", lines.get(at), run.out);
            long previousEnd = -1;
            for (int k = 1; k <= 3; k++) {
                Matcher m = segment.matcher(lines.get(at + k));
                assertTrue(m.matches(), () -> "segment line in\n" + run.out);
                assertEquals(size, Integer.parseInt(m.group(1)), run.out);
                long start = Long.parseLong(m.group(2));
                long end = Long.parseLong(m.group(3));
                assertTrue(end > start, run.out);
                if (previousEnd >= 0) {
                    assertEquals(previousEnd, start, "segments follow each other: " + run.out);
                }
                previousEnd = end;
                assertTrue(Double.parseDouble(m.group(4)) > 0, run.out);
            }
            if (validated) {
                assertEquals("# Validation Pass", lines.get(at + 4), run.out);
            }
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    @DisplayName("OSUMultiLatency prints one mean latency per size for n/2 pairs")
    void multiLatency(int ranks) {
        Run run = osu(ranks, "OSUMultiLatency", "-m 1:16 -x 2 -i 5 -c");
        assertTable(run, "# OSU Multi Latency Test", "# Size [B]\t\tLatency [us]", powersOfTwo(1, 16), false, true);
    }

    @Test
    @DisplayName("OSUMultiLatency needs an even number of ranks")
    void multiLatencyOddRanks() {
        Run run = osu(3, "OSUMultiLatency", "-m 8");
        run.assertSucceeded();
        assertEquals(List.of("This test requires an even number of processes (ranks)."), run.lines());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"OSULatency, buffer", "OSULatency, arrays", "OSUBandwidth, buffer", "OSUBandwidth, arrays",
        "OSUBiBandwidth, buffer", "OSUBiBandwidth, arrays", "OSUMultiLatency, arrays"})
    @DisplayName("-c passes across the eager threshold (16 KB): eager and rendezvous messages arrive intact")
    void validationAcrossProtocols(String program, String kind) {
        String window = program.contains("Bandwidth") ? " -W 4" : "";
        Run run = osu(2, program, "-m 4096:65536 -x 1 -i 3 -c -a " + kind + window);
        run.assertSucceeded();
        List<String> rows = run.lines().subList(2, run.lines().size());
        assertEquals(5, rows.size(), run.out);
        rows.forEach(line -> assertTrue(line.endsWith("\t\t\tPass"), line));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"OSULatency", "OSUBandwidth", "OSUBiBandwidth", "PingPongVsArraycopy", "LatencyPercentiles"})
    @DisplayName("the two-rank programs say so on another rank count, and exit 0")
    void needTwoRanks(String program) {
        for (int ranks : new int[] {1, 3, 4}) {
            Run run = osu(ranks, program, "-m 8");
            run.assertSucceeded();
            assertEquals(List.of("This test requires exactly two processes (ranks); run with -np 2."), run.lines());
        }
    }

    @ParameterizedTest(name = "as a source file: {0}")
    @ValueSource(booleans = {false, true})
    @Timeout(120)
    @DisplayName("LatencyPercentiles prints ordered percentiles and a slow share per size")
    void latencyPercentiles(boolean sourceFile) {
        Run run = sourceFile
            ? mpjrun(2, Path.of("src", "main", "java", "bench", "LatencyPercentiles.java").toString(),
                "-m", "1:1024", "-x", "5", "-i", "200")
            : osu(2, "LatencyPercentiles", "-m 1:1024 -x 5 -i 200");
        run.assertSucceeded();
        List<String> lines = run.lines();
        assertEquals("# Size [B]\tMean [us]\tMedian [us]\tP90 [us]\tP99 [us]\tP99.9 [us]\tMax [us]\tSlow share [%]",
            lines.get(1));
        assertEquals(2 + 11, lines.size(), run.out);
        String number = "(\\d+\\.\\d\\d)";
        Pattern row = Pattern.compile("(\\d+)" + ("\t\t" + number).repeat(6) + "\t\t(\\d+\\.\\d)");
        for (int i = 0; i < 11; i++) {
            String line = lines.get(2 + i);
            Matcher m = row.matcher(line);
            assertTrue(m.matches(), line);
            assertEquals(1 << i, Integer.parseInt(m.group(1)), line);
            for (int g = 4; g <= 7; g++) { // median <= P90 <= P99 <= P99.9 <= max, and the mean at most the max
                assertTrue(Double.parseDouble(m.group(g - 1)) <= Double.parseDouble(m.group(g)), line);
            }
            assertTrue(Double.parseDouble(m.group(2)) <= Double.parseDouble(m.group(7)), line);
            double slow = Double.parseDouble(m.group(8));
            assertTrue(slow >= 0 && slow <= 100, line);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pingpong", "stream"})
    @Timeout(120)
    @DisplayName("ThreadLevelCost prints the confined and the locked time and their ratio, and needs two ranks")
    void threadLevelCost(String test) {
        Run run = osu(2, "ThreadLevelCost", "-t " + test + " -s 3 -x 1 -i 640");
        run.assertSucceeded();
        List<String> lines = run.lines();
        assertEquals(3, lines.size(), run.out);
        assertTrue(lines.get(0).startsWith("# " + test + ", 8 B, 3 pairs of segments of 640 messages"), lines.get(0));
        assertEquals("# Confined [ns]\tLocked [ns]\tConfined/locked (q1, q3)", lines.get(1));
        Matcher m = Pattern.compile("(\\d+\\.\\d)\t\t(\\d+\\.\\d)\t\t(\\d+\\.\\d{3}) \\((\\d+\\.\\d{3}), (\\d+\\.\\d{3})\\)")
            .matcher(lines.get(2));
        assertTrue(m.matches(), lines.get(2));
        for (int g = 1; g <= 5; g++) {
            assertTrue(Double.parseDouble(m.group(g)) > 0, lines.get(2));
        }
        assertTrue(Double.parseDouble(m.group(4)) <= Double.parseDouble(m.group(3))
            && Double.parseDouble(m.group(3)) <= Double.parseDouble(m.group(5)), lines.get(2));
        Run three = osu(3, "ThreadLevelCost", "-t " + test);
        three.assertSucceeded();
        assertEquals(List.of("This test requires exactly two processes (ranks); run with -np 2."), three.lines());
    }

    @ParameterizedTest(name = "as a source file: {0}")
    @ValueSource(booleans = {false, true})
    @Timeout(120)
    @DisplayName("PingPongVsArraycopy prints latency, arraycopy time and the bandwidth ratio per size")
    void pingPongVsArraycopy(boolean sourceFile) {
        Run run = sourceFile
            ? mpjrun(2, Path.of("src", "main", "java", "bench", "PingPongVsArraycopy.java").toString(),
                "-m", "1:4096", "-x", "5", "-i", "20")
            : osu(2, "PingPongVsArraycopy", "-m 1:4096 -x 5 -i 20");
        run.assertSucceeded();
        List<String> lines = run.lines();
        assertEquals("# Size [B]\t\tLatency [us]\tArraycopy [us]\tBandwidth [% of arraycopy]", lines.get(1));
        assertEquals(2 + 13, lines.size(), run.out);
        Pattern row = Pattern.compile("(\\d+)\t\t\t\\d+\\.\\d\\d\t\t\t\\d+\\.\\d{3}\t\t\t\\d+\\.\\d");
        for (int i = 0; i < 13; i++) {
            String line = lines.get(2 + i);
            assertTrue(row.matcher(line).matches(), line);
            assertTrue(line.startsWith((1 << i) + "\t"), line);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"OSULatency", "OSUBandwidth", "OSUBiBandwidth", "OSUMultiLatency"})
    @DisplayName("-h prints the usage, -v the version, once (rank 0), and nothing runs")
    void helpAndVersion(String program) {
        Run help = osu(2, program, "-h");
        help.assertSucceeded();
        assertEquals(1, help.lines().size(), help.out);
        assertTrue(help.out.startsWith("Usage: " + program + " [-m [MIN:]MAX]"), help.out);
        assertEquals(program.contains("Bandwidth"), help.out.contains("[-W WINDOW]"), help.out);
        Run version = osu(2, program, "-v");
        version.assertSucceeded();
        assertEquals(List.of("# " + program + " (MPJ Lite, OMB-J options and output)"), version.lines());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {"OSULatency|-a pigeons", "OSULatency|-W 4", "OSUBandwidth|-W 0",
        "OSUBiBandwidth|-m 8:4", "OSUMultiLatency|-x", "OSUBandwidth|-i 0", "OSULatency|-s -1", "OSUBandwidth|-s"})
    @DisplayName("a bad command line fails the job with the usage")
    void badOptions(String program, String args) {
        Run run = osu(2, program, args);
        assertEquals(1, run.exitCode, run.err);
        assertTrue(run.err.contains("Usage: " + program), run.err);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"OSULatency", "OSUBandwidth", "OSUBiBandwidth", "OSUMultiLatency"})
    @Timeout(120)
    @DisplayName("each program runs as a single source file: ./mpjrun -np 2 benchmarks/osu/src/main/java/bench/X.java")
    void runsAsSourceFile(String program) {
        Run run = mpjrun(2, Path.of("src", "main", "java", "bench", program + ".java").toString(),
            "-m", "1:4", "-x", "1", "-i", "3", "-c");
        run.assertSucceeded();
        assertEquals(2 + 3, run.lines().size(), run.out);
        assertTrue(run.lines().get(0).startsWith("# OSU "), run.out);
    }
}
