package org.mpjlite.benchmarks.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The OMB-style collective benchmarks in {@code bench}, run in-process as single source files (as
 * {@code ./mpjrun -np N File.java}) with tiny sizes and iteration counts: they finish, exit 0 and
 * print the OMB-J table; the vector collectives' {@code -c} validation passes on 2, 3 and 4 ranks.
 */
class CollectiveBenchmarksTest {
    private static final Pattern ROW = Pattern.compile("(\\d+)\t\t\\d+\\.\\d\\d\t\t\t\\d+\\.\\d\\d\t\t\t\\d+\\.\\d\\d");

    /** Runs {@code mpjrun -np ranks src/main/java/bench/<name>.java args}; returns what the ranks printed. */
    private static String run(int ranks, String name, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of("src", "main", "java", "bench", name + ".java").toString()));
        command.addAll(List.of(args));
        OsuBenchmarksTest.Run run = OsuBenchmarksTest.mpjrun(ranks, command.toArray(new String[0]));
        run.assertSucceeded();
        return run.out();
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @CsvSource({"OSUBcast, 2, 1", "OSUGather, 3, 1", "OSUScatter, 2, 1", "OSUAllgather, 3, 1", "OSUAlltoall, 2, 1",
        "OSUReduce, 3, 4", "OSUAllreduce, 2, 4", "OSUAllreduce, 3, 4", "OSUGatherv, 2, 1", "OSUScatterv, 3, 1",
        "OSUAllgatherv, 2, 1", "OSUAlltoallv, 3, 1", "OSUReduceScatter, 2, 4"})
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

    @ParameterizedTest(name = "{0} on {1} ranks, -a {2}")
    @CsvSource({"OSUGatherv, 2, arrays", "OSUGatherv, 3, buffer", "OSUGatherv, 4, arrays",
        "OSUScatterv, 2, buffer", "OSUScatterv, 3, arrays", "OSUScatterv, 4, buffer",
        "OSUAllgatherv, 2, arrays", "OSUAllgatherv, 3, buffer", "OSUAllgatherv, 4, arrays",
        "OSUAlltoallv, 2, buffer", "OSUAlltoallv, 3, arrays", "OSUAlltoallv, 4, buffer",
        "OSUReduceScatter, 2, arrays", "OSUReduceScatter, 3, buffer", "OSUReduceScatter, 4, arrays"})
    @Timeout(120)
    @DisplayName("-c checks every received byte (every sum) and passes, across the eager threshold")
    void validationPasses(String name, int ranks, String kind) {
        // 8 B to 32 KB: below and above the eager threshold (16 KB); Reduce_scatter's 8 B vector
        // (two FLOATs) leaves some ranks of 3 and 4 without a share.
        OsuBenchmarksTest.Run run = OsuBenchmarksTest.osu(ranks, name, "-m 8:32768 -x 1 -i 3 -c -a " + kind);
        run.assertSucceeded();
        List<String> lines = run.lines();
        assertEquals("# Size\t\tLat Avg[us]\t\tLat Min[us]\t\tLat Max[us]\tValidation", lines.get(1), run.out());
        assertEquals(2 + 13, lines.size(), run.out());
        for (int i = 0; i < 13; i++) {
            String line = lines.get(2 + i);
            assertTrue(line.startsWith((8 << i) + "\t\t") && line.endsWith("\t\tPass")
                && ROW.matcher(line.substring(0, line.length() - "\t\tPass".length())).matches(), line);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"OSUGatherv", "OSUScatterv", "OSUAllgatherv", "OSUAlltoallv", "OSUReduceScatter"})
    @DisplayName("-h prints the usage and -v the version once; a bad option fails the job with the usage")
    void helpVersionAndBadOptions(String name) {
        OsuBenchmarksTest.Run help = OsuBenchmarksTest.osu(3, name, "-h");
        help.assertSucceeded();
        assertEquals(List.of("Usage: " + name + " [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS] [-a buffer|arrays] [-c] [-h] [-v]"),
            help.lines());
        OsuBenchmarksTest.Run version = OsuBenchmarksTest.osu(2, name, "-v");
        version.assertSucceeded();
        assertEquals(List.of("# " + name + " (MPJ Lite, OMB-J options and output)"), version.lines());
        for (String bad : List.of("-a pigeons", "-m 8:4", "-i 0", "-x", "-W 4")) {
            OsuBenchmarksTest.Run run = OsuBenchmarksTest.osu(2, name, bad);
            assertEquals(1, run.exitCode(), bad + ": " + run.err());
            assertTrue(run.err().contains("Usage: " + name), run.err());
        }
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @CsvSource({"OSUAllreduce, 2", "OSUAllreduce, 3", "OSUBcast, 2", "OSUBcast, 5"})
    @Timeout(120)
    @DisplayName("-s prints each timed segment: size, rank 0's start and end in nanoseconds, back to back, and the average time")
    void segments(String name, int ranks) {
        String out = run(ranks, name, "-m", "4:8", "-x", "3", "-i", "4", "-s", "3");
        List<String> lines = out.lines().toList();
        assertTrue(lines.get(0).startsWith("# OSU MPI "), out);
        assertEquals("# Size [B]\tStart [ns]\tEnd [ns]\tLat Avg[us]", lines.get(1));
        assertEquals(2 + 2 * 4, lines.size(), out);
        Pattern segment = Pattern.compile("(\\d+)\t(\\d+)\t(\\d+)\t(\\d+\\.\\d+)");
        for (int size : List.of(4, 8)) {
            int at = 2 + (size == 4 ? 0 : 4);
            assertEquals("# Warm-up done, 3 segments follow", lines.get(at), out);
            long previousEnd = -1;
            for (int k = 1; k <= 3; k++) {
                var m = segment.matcher(lines.get(at + k));
                assertTrue(m.matches(), () -> "segment line: " + out);
                assertEquals(size, Integer.parseInt(m.group(1)), out);
                long start = Long.parseLong(m.group(2));
                assertTrue(Long.parseLong(m.group(3)) > start, out);
                if (previousEnd >= 0) {
                    assertEquals(previousEnd, start, out);
                }
                previousEnd = Long.parseLong(m.group(3));
                assertTrue(Double.parseDouble(m.group(4)) > 0, out);
            }
        }
    }

    @Test
    @DisplayName("OSUReduceScatter sums FLOATs: its sizes start at 4 B")
    void reduceScatterNeedsAtLeastOneFloat() {
        OsuBenchmarksTest.Run run = OsuBenchmarksTest.osu(2, "OSUReduceScatter", "-m 2:8");
        assertEquals(1, run.exitCode(), run.err());
        assertTrue(run.err().contains("bad sizes or counts"), run.err());
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
