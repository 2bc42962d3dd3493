package org.mpjlite.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpjlite.run.MpjRun;

/**
 * The OMB-style collective benchmarks in {@code bench}, run in-process as single source files (as
 * {@code ./mpjrun -np N File.java}) with tiny sizes and iteration counts: they finish, exit 0 and
 * print the OMB-J table.
 */
class CollectiveBenchmarksTest {
    private static final Pattern ROW = Pattern.compile("(\\d+)\t\t\\d+\\.\\d\\d\t\t\t\\d+\\.\\d\\d\t\t\t\\d+\\.\\d\\d");

    /** Runs {@code mpjrun -np ranks src/main/java/bench/<name>.java args}; returns what the ranks printed. */
    private static String run(int ranks, String name, String... args) {
        List<String> command = new ArrayList<>(List.of("-np", String.valueOf(ranks),
            Path.of("src", "main", "java", "bench", name + ".java").toString()));
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
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, () -> "exit code; stdout:\n" + printed + "\nstderr:\n" + err);
        return printed;
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @CsvSource({"OSUBcast, 2, 1", "OSUGather, 3, 1", "OSUScatter, 2, 1", "OSUAllgather, 3, 1", "OSUAlltoall, 2, 1",
        "OSUReduce, 3, 4", "OSUAllreduce, 2, 4", "OSUAllreduce, 3, 4"})
    @Timeout(120)
    void sizedBenchmarkPrintsItsTable(String name, int ranks, int minSize) {
        String out = run(ranks, name, "-m", minSize + ":64", "-x", "2", "-i", "5", "-a", ranks == 2 ? "arrays" : "buffer");
        List<String> lines = out.lines().toList();
        assertTrue(lines.get(0).startsWith("# OSU MPI "), out);
        assertEquals("# Size\t\tLat Avg[us]\t\tLat Min[us]\t\tLat Max[us]", lines.get(1));
        int rows = Integer.numberOfTrailingZeros(64) - Integer.numberOfTrailingZeros(minSize) + 1;
        assertEquals(2 + rows, lines.size(), out);
        for (int i = 0; i < rows; i++) {
            var m = ROW.matcher(lines.get(2 + i));
            assertTrue(m.matches(), () -> "OMB row: " + out);
            assertEquals(minSize << i, Integer.parseInt(m.group(1)));
        }
    }

    @Test
    @Timeout(120)
    void barrierPrintsOneLine() {
        String out = run(4, "OSUBarrier", "-x", "2", "-i", "20");
        List<String> lines = out.lines().toList();
        assertEquals(3, lines.size(), out);
        assertEquals("# Avg. Latency [us]\tMin Latency [us]\tMax Latency [us]", lines.get(1));
        assertTrue(lines.get(2).matches("\\d+\\.\\d\\d\t\t\t\\d+\\.\\d\\d\t\t\t\\d+\\.\\d\\d"), out);
    }
}
