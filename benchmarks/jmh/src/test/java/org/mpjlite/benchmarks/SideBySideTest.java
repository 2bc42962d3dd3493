package org.mpjlite.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SideBySide} on this build against itself (tiny segments: it checks the tool, it measures
 * nothing): both copies of the ping-pong run, each in its own class loader, and the report gives
 * both medians and the ratio.
 */
class SideBySideTest {
    @ParameterizedTest
    @ValueSource(strings = {"pingpong", "allreduce", "bcast", "stream"})
    void comparesABuildWithItself(String loop) throws Exception {
        String classPath = System.getProperty("java.class.path");
        SideBySide.Settings settings = SideBySide.Settings.parse(
            List.of("--size", "8", "--segments", "3", "--round-trips", "200", "--warmup", "1", "--loop", loop));
        double[][] times = SideBySide.compare(classPath, classPath, settings);
        assertEquals(3, times[0].length);
        for (double[] build : times) {
            for (double t : build) {
                assertTrue(t > 0 && Double.isFinite(t), "one-way time " + t);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SideBySide.report(times, settings, new PrintStream(out, true, StandardCharsets.UTF_8));
        String line = out.toString(StandardCharsets.UTF_8);
        assertTrue(line.matches(loop + ", size 8 B, 3 segments of 200 iterations: A [0-9.]+ ns \\(q1 [0-9.]+\\), "
            + "B [0-9.]+ ns \\(q1 [0-9.]+\\), B/A [0-9.]+ \\(q1 [0-9.]+, q3 [0-9.]+\\)\\R"), line);
    }

    @ParameterizedTest
    @ValueSource(strings = {"pingpong", "stream"})
    void comparesUnconfinedMailboxesAtThreadLevelMultiple(String loop) throws Exception {
        String classPath = System.getProperty("java.class.path");
        SideBySide.Settings settings = SideBySide.Settings.parse(List.of("--segments", "2", "--round-trips", "200",
            "--warmup", "1", "--loop", loop, "--thread-level", "multiple"));
        double[][] times = SideBySide.compare(classPath, classPath, settings);
        for (double[] build : times) {
            for (double t : build) {
                assertTrue(t > 0 && Double.isFinite(t), "one-way time " + t);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SideBySide.report(times, settings, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith(loop + " (owner lock), size 8 B, 2 segments"),
            out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void threadLevelsMapToConfinedOrNot() {
        assertFalse(SideBySide.Settings.parse(List.of()).multiple());
        assertFalse(SideBySide.Settings.parse(List.of("--thread-level", "single")).multiple());
        assertFalse(SideBySide.Settings.parse(List.of("--thread-level", "funneled")).multiple());
        assertTrue(SideBySide.Settings.parse(List.of("--thread-level", "serialized")).multiple());
        assertTrue(SideBySide.Settings.parse(List.of("--thread-level", "multiple")).multiple());
        assertThrows(IllegalArgumentException.class,
            () -> SideBySide.Settings.parse(List.of("--thread-level", "MULTIPLE_ISH")));
    }

    @Test
    void theRatioIsBOverAPerPair() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SideBySide.report(new double[][] {{100, 200, 100}, {50, 100, 100}}, SideBySide.Settings.parse(List.of()),
            new PrintStream(out, true, StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("A 100.0 ns (q1 100.0), B 100.0 ns (q1 100.0),"
            + " B/A 0.500 (q1 0.500, q3 1.000)"), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void badOptionsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> SideBySide.Settings.parse(List.of("--size")));
        assertThrows(IllegalArgumentException.class, () -> SideBySide.Settings.parse(List.of("--sizes", "8")));
        assertThrows(IllegalArgumentException.class, () -> SideBySide.Settings.parse(List.of("--segments", "0")));
        assertThrows(Exception.class, () -> SideBySide.compare(System.getProperty("java.class.path"),
            System.getProperty("java.class.path"), SideBySide.Settings.parse(List.of("--loop", "scan"))));
    }
}
