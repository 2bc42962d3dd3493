package org.mpjlite.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report tools, on made-up runs: {@link CompareTable}'s medians, CSV and ratio direction, and
 * {@link PlotResults}' PNG files from those medians and from a JMH result. (The JMH benchmarks
 * themselves are only compiled by the build, never run.)
 */
class ReportToolsTest {
    private static final String LATENCY = "# OSU Latency Test\n# Size [B]\t\tLatency [us]\tBandwidth [Gb/s]\n";
    private static final String BANDWIDTH = "# OSU Bandwidth Test\n# Size [B]\t\tBandwidth [MB/s]\tBandwidth [Gb/s]\n";

    @TempDir
    Path dir;

    private void run(String test, String system, int run, String text) throws IOException {
        Files.writeString(dir.resolve(test + "__" + system + "__" + run + ".txt"), text);
    }

    private void someRuns() throws IOException {
        // mine: latency 1, 3, 2 (median 2) at 8 B; other: 4 at 8 B. Bandwidth: mine 900, other 300.
        run("latency", "mine", 1, LATENCY + "8\t\t\t1.00\t\t\t0.06\n16\t\t\t5.00\t\t\t0.03\n");
        run("latency", "mine", 2, LATENCY + "8\t\t\t3.00\t\t\t0.02\n");
        run("latency", "mine", 3, LATENCY + "8\t\t\t2.00\t\t\t0.03\n16\t\t\t7.00\t\t\t0.02\n");
        run("latency", "other", 1, LATENCY + "8\t\t\t4.00\t\t\t0.02\n");
        run("bandwidth", "mine", 1, BANDWIDTH + "1024\t\t\t900.00\t\t\t7.20\n");
        run("bandwidth", "other", 1, BANDWIDTH + "1024\t\t\t300.00\t\t\t2.40\n");
        Files.writeString(dir.resolve("notes.txt"), "not a run");
    }

    @Test
    @DisplayName("CompareTable writes medians per test, system (in the given order) and size, with min, max and run count")
    void medians() throws IOException {
        someRuns();
        Path csv = dir.resolve("medians.csv");
        CompareTable.writeCsv(CompareTable.read(dir), List.of("other", "mine"), csv);
        assertEquals(List.of(
            "test,unit,system,size,median,min,max,runs",
            "bandwidth,MB/s,other,1024,300.0000,300.0000,300.0000,1",
            "bandwidth,MB/s,mine,1024,900.0000,900.0000,900.0000,1",
            "latency,us,other,8,4.0000,4.0000,4.0000,1",
            "latency,us,mine,8,2.0000,1.0000,3.0000,3",
            "latency,us,mine,16,6.0000,5.0000,7.0000,2"), Files.readAllLines(csv));
    }

    @Test
    @DisplayName("CompareTable's ratio is a speed-up of the first system: other/first latency, first/other bandwidth")
    void ratios() throws IOException {
        someRuns();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CompareTable.printTables(CompareTable.read(dir), List.of("mine", "other", "absent"),
            new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("| size [B] | mine [us] | other [us] | mine vs other |"), out);
        assertTrue(out.contains("| 8 | 2.00 | 4.00 | 2.00 |"), out);
        assertTrue(out.contains("| 16 | 6.00 |  |  |"), out);
        assertTrue(out.contains("| 1024 | 900 | 300 | 3.00 |"), out);
    }

    @Test
    @DisplayName("PlotResults draws one PNG per test from the medians")
    void plots() throws IOException {
        someRuns();
        Path csv = dir.resolve("medians.csv");
        CompareTable.writeCsv(CompareTable.read(dir), List.of("other", "mine"), csv);
        Path img = dir.resolve("img");
        PlotResults.main(new String[] {csv.toString(), img.toString()});
        for (String test : List.of("latency", "bandwidth")) {
            assertPng(img.resolve(test + ".png"));
        }
    }

    @Test
    @DisplayName("PlotResults draws a JMH result: one PNG per benchmark with a size parameter, in microseconds")
    void plotsJmh() throws IOException {
        Path csv = dir.resolve("jmh.csv");
        String header = "\"Benchmark\",\"Mode\",\"Threads\",\"Samples\",\"Score\",\"Score Error (99.9%)\",\"Unit\","
            + "\"Param: allocator\",\"Param: depth\",\"Param: size\"";
        Files.write(csv, List.of(header,
            "\"x.AllocationBenchmark.allocateAndFree\",\"avgt\",1,3,36.19,45.77,\"ns/op\",BUDDY1_DIRECT,,128",
            "\"x.AllocationBenchmark.allocateAndFree\",\"avgt\",1,3,29.53,124.31,\"ns/op\",BUDDY1_DIRECT,,1024",
            "\"x.AllocationBenchmark.allocateAndFree\",\"avgt\",1,3,617.43,553.56,\"ns/op\",ALLOCATE_DIRECT,,128",
            "\"x.AllocationBenchmark.allocateAndFree\",\"avgt\",1,3,1503.53,531.92,\"ns/op\",ALLOCATE_DIRECT,,1024",
            "\"x.MatchingBenchmark.match\",\"avgt\",1,3,40.1,2.0,\"ns/op\",,64,"));
        Map<String, PlotResults.Chart> charts = PlotResults.read(csv);
        assertEquals(List.of("AllocationBenchmark.allocateAndFree"), List.copyOf(charts.keySet()));
        PlotResults.Chart allocation = charts.get("AllocationBenchmark.allocateAndFree");
        assertEquals(List.of("BUDDY1_DIRECT", "ALLOCATE_DIRECT"), List.copyOf(allocation.lines().keySet()));
        Map<Double, Double> direct = allocation.lines().get("ALLOCATE_DIRECT");
        assertEquals(List.of(128.0, 1024.0), List.copyOf(direct.keySet()));
        assertEquals(0.61743, direct.get(128.0), 1e-12);
        assertEquals(1.50353, direct.get(1024.0), 1e-12);
        Path img = dir.resolve("img");
        PlotResults.main(new String[] {csv.toString(), img.toString()});
        assertPng(img.resolve("AllocationBenchmark.allocateAndFree.png"));
        assertEquals(List.of(img.resolve("AllocationBenchmark.allocateAndFree.png")), list(img));
    }

    private static List<Path> list(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.toList();
        }
    }

    private static void assertPng(Path file) throws IOException {
        byte[] png = Files.readAllBytes(file);
        assertTrue(png.length > 1000, file.toString());
        assertEquals((byte) 0x89, png[0]);
        assertEquals("PNG", new String(png, 1, 3, StandardCharsets.US_ASCII));
    }
}
