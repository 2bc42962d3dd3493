package org.mpjlite.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.samples.SamplesTest.Run;

/**
 * The programs of docs/TUTORIAL.md, in both dialects, on 1, 2, 3, 4 and 7 ranks: each must end
 * normally and print the result of the serial computation (each sample also checks itself against
 * its serial computation, and ends with an exception when they differ).
 */
class TutorialSamplesTest {

    /** Both dialects on 1, 2, 3, 4 and 7 ranks. */
    static Stream<Arguments> dialectsAndRanks() {
        return Stream.of("mpijava", "ompi")
            .flatMap(dialect -> Stream.of(1, 2, 3, 4, 7).map(ranks -> Arguments.of(dialect, ranks)));
    }

    private static String onlyLine(Run run) {
        run.assertSucceeded();
        List<String> lines = run.lines();
        assertEquals(1, lines.size(), run.out());
        return lines.get(0);
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @MethodSource("dialectsAndRanks")
    @DisplayName("Pi: the reduced midpoint sum is the serial one up to rounding, and close to pi")
    void pi(String dialect, int ranks) {
        String line = onlyLine(SamplesTest.mpjrunClass(ranks, dialect + ".Pi", "200000"));
        Matcher m = Pattern.compile("Pi: 200000 intervals on " + ranks + " ranks: (\\d\\.\\d{12}) \\(serial (\\d\\.\\d{12})\\), "
            + "error \\S+").matcher(line);
        assertTrue(m.matches(), line);
        double h = 1.0 / 200000;
        double serial = 0;
        for (int i = 0; i < 200000; i++) {
            double x = h * (i + 0.5);
            serial += 4.0 / (1.0 + x * x);
        }
        serial *= h;
        assertEquals(serial, Double.parseDouble(m.group(1)), 1e-11);
        assertEquals(serial, Double.parseDouble(m.group(2)), 1e-12);
        assertEquals(Math.PI, Double.parseDouble(m.group(1)), 1e-9);
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @MethodSource("dialectsAndRanks")
    @DisplayName("Mandelbrot: the image assembled from the workers' rows has the serial image's checksum")
    void mandelbrot(String dialect, int ranks) {
        assertEquals("Mandelbrot: 400x300, 256 iterations, " + (ranks - 1) + " workers: "
                + "checksum 3ccf04e2555c9391 (expected 3ccf04e2555c9391)",
            onlyLine(SamplesTest.mpjrunClass(ranks, dialect + ".Mandelbrot")));
    }

    @ParameterizedTest(name = "{0} on 7 ranks")
    @MethodSource("dialects")
    @DisplayName("Mandelbrot: with more workers than rows, the idle workers are told to stop at once")
    void mandelbrotMoreWorkersThanRows(String dialect) {
        assertEquals("Mandelbrot: 20x2, 50 iterations, 6 workers: checksum 0341bd0d99c99de7 (expected 0341bd0d99c99de7)",
            onlyLine(SamplesTest.mpjrunClass(7, dialect + ".Mandelbrot", "20", "2", "50")));
    }

    /** Grids of ranks Dims_create chooses: 1, 2, 3, 4, 6 and 7 ranks. */
    static Stream<Arguments> dialectsAndGrids() {
        return Stream.of("mpijava", "ompi").flatMap(dialect -> Stream.of(
            Arguments.of(dialect, 1, "1x1"), Arguments.of(dialect, 2, "2x1"), Arguments.of(dialect, 3, "3x1"),
            Arguments.of(dialect, 4, "2x2"), Arguments.of(dialect, 6, "3x2"), Arguments.of(dialect, 7, "7x1")));
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @MethodSource("dialectsAndGrids")
    @DisplayName("Jacobi: the halo-exchanging plate converges in the serial number of steps, to the serial total heat")
    void jacobi(String dialect, int ranks, String grid) {
        String line = onlyLine(SamplesTest.mpjrunClass(ranks, dialect + ".Jacobi"));
        Matcher m = Pattern.compile("Jacobi: 32x32 plate on a " + grid + " grid of ranks: 1149 steps, total heat (\\S+) "
            + "\\(expected 1149 steps, (\\S+)\\)").matcher(line);
        assertTrue(m.matches(), line);
        // 1149 steps and 25503.044123 degrees: the plate computed alone (the sample's serial path).
        assertEquals(25503.044123, Double.parseDouble(m.group(2)), 1e-6);
        assertEquals(Double.parseDouble(m.group(2)), Double.parseDouble(m.group(1)), 1e-6);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    @DisplayName("Jacobi stops after MAX_ITERATIONS steps when the plate has not converged yet")
    void jacobiIterationLimit(String dialect) {
        assertEquals("Jacobi: 12x12 plate on a 3x2 grid of ranks: 100 steps, total heat 3457.358768 "
            + "(expected 100 steps, 3457.358768)", onlyLine(SamplesTest.mpjrunClass(6, dialect + ".Jacobi", "12", "100")));
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @MethodSource("dialectsAndRanks")
    @DisplayName("MatMul: C gathered from the ranks' rows is the serial product (240 rows, padded when the ranks do not divide them)")
    void matMul(String dialect, int ranks) {
        int rowsEach = (240 + ranks - 1) / ranks;
        assertEquals("MatMul: 240x240 on " + ranks + " ranks, " + rowsEach + " rows each: "
                + "checksum bd29ccbdbd3ffbf7 (expected bd29ccbdbd3ffbf7)",
            onlyLine(SamplesTest.mpjrunClass(ranks, dialect + ".MatMul")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    @DisplayName("MatMul with more ranks than rows: the extra ranks multiply zero rows of padding")
    void matMulMoreRanksThanRows(String dialect) {
        assertEquals("MatMul: 3x3 on 7 ranks, 1 rows each: checksum c47993436b7e6ae1 (expected c47993436b7e6ae1)",
            onlyLine(SamplesTest.mpjrunClass(7, dialect + ".MatMul", "3")));
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @MethodSource("dialectsAndRanks")
    @DisplayName("SampleSort: the runs gathered from the ranks are the keys sorted alone, in balanced runs")
    void sampleSort(String dialect, int ranks) {
        String line = onlyLine(SamplesTest.mpjrunClass(ranks, dialect + ".SampleSort"));
        Matcher m = Pattern.compile("SampleSort: 200000 keys on " + ranks + " ranks, largest run (\\d+) \\(\\d\\.\\d\\d x even\\): "
            + "checksum bca6934682ae9334 \\(expected bca6934682ae9334\\)").matcher(line);
        assertTrue(m.matches(), line);
        // Regular sampling bounds the largest run by twice the even share.
        int largest = Integer.parseInt(m.group(1));
        assertTrue(largest >= 200000 / ranks && largest < 2 * 200000 / ranks, line);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    @DisplayName("SampleSort with fewer keys than ranks: empty shares and empty buckets are sent and received")
    void sampleSortFewerKeysThanRanks(String dialect) {
        assertEquals("SampleSort: 5 keys on 7 ranks, largest run 2 (2.80 x even): checksum 627a57c493b46aa4 "
            + "(expected 627a57c493b46aa4)", onlyLine(SamplesTest.mpjrunClass(7, dialect + ".SampleSort", "5")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "mpijava/Pi.java|100000", "mpijava/Mandelbrot.java|40 30", "mpijava/Jacobi.java|12 50",
        "mpijava/MatMul.java|30", "mpijava/SampleSort.java|1000",
        "ompi/Pi.java|100000", "ompi/Mandelbrot.java|40 30", "ompi/Jacobi.java|12 50",
        "ompi/MatMul.java|30", "ompi/SampleSort.java|1000"})
    @Timeout(120)
    @DisplayName("every tutorial sample runs as a single source file on 3 ranks, as ./mpjrun -np 3 File.java")
    void runsAsSourceFile(String file, String args) {
        List<String> command = new ArrayList<>(List.of(Path.of("src", "main", "java", file).toString()));
        command.addAll(List.of(args.split(" ")));
        onlyLine(SamplesTest.mpjrun(3, command.toArray(new String[0])));
    }

    static Stream<String> dialects() {
        return Stream.of("mpijava", "ompi");
    }
}
