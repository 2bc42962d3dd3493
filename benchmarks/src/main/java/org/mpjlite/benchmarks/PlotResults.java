package org.mpjlite.benchmarks;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws the medians {@link CompareTable} wrote as PNG charts, one per test: the value against the
 * message size, one line per system in the file's order. Both axes are logarithmic: sizes span
 * 1 B to 4 MB, latencies 0.1 us to milliseconds and bandwidths five decades.
 *
 * <p>Usage: {@code java -cp benchmarks.jar org.mpjlite.benchmarks.PlotResults MEDIANS.csv OUT_DIR [TEST...]}
 * writes {@code OUT_DIR/TEST.png} for the given tests, or for every test in the file.
 */
public final class PlotResults {
    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;

    /** The medians of one system in one test, by size. */
    private record Line(List<Double> sizes, List<Double> values) {
    }

    private PlotResults() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("Usage: PlotResults MEDIANS.csv OUT_DIR [TEST...]");
            System.exit(2);
        }
        // No display on build machines: AWT must not look for one.
        System.setProperty("java.awt.headless", "true");
        Map<String, String> units = new LinkedHashMap<>();
        Map<String, Map<String, Line>> tests = read(Path.of(args[0]), units);
        Path outDir = Files.createDirectories(Path.of(args[1]));
        List<String> wanted = args.length > 2 ? List.of(args).subList(2, args.length) : List.copyOf(tests.keySet());
        for (String test : wanted) {
            Map<String, Line> lines = tests.get(test);
            if (lines == null) {
                System.err.println("PlotResults: no test " + test + " in " + args[0]);
                continue;
            }
            Path png = outDir.resolve(test + ".png");
            BitmapEncoder.saveBitmap(chart(test, units.get(test), lines), png.toString(), BitmapEncoder.BitmapFormat.PNG);
            System.out.println("wrote " + png);
        }
    }

    /** test, unit, system, size, median, ...: grouped by test, then system, in file order. */
    private static Map<String, Map<String, Line>> read(Path csv, Map<String, String> units) throws IOException {
        Map<String, Map<String, Line>> tests = new LinkedHashMap<>();
        List<String> rows = Files.readAllLines(csv);
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",");
            units.put(f[0], f[1]);
            Line line = tests.computeIfAbsent(f[0], t -> new LinkedHashMap<>())
                .computeIfAbsent(f[2], s -> new Line(new ArrayList<>(), new ArrayList<>()));
            double value = Double.parseDouble(f[4]);
            // A logarithmic axis cannot show 0 (a bandwidth below the printed 0.01 MB/s): leave the point out.
            if (value > 0) {
                line.sizes.add(Double.parseDouble(f[3]));
                line.values.add(value);
            }
        }
        return tests;
    }

    private static XYChart chart(String test, String unit, Map<String, Line> lines) {
        boolean latency = !unit.equals("MB/s");
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
            .title(test + (latency ? " (lower is better)" : " (higher is better)"))
            .xAxisTitle("message size [B]")
            .yAxisTitle(latency ? "latency [us]" : "bandwidth [MB/s]")
            .build();
        XYStyler styler = chart.getStyler();
        styler.setXAxisLogarithmic(true);
        styler.setYAxisLogarithmic(true);
        styler.setXAxisDecimalPattern("#,###");
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setChartBackgroundColor(Color.WHITE);
        lines.forEach((system, line) -> {
            XYSeries series = chart.addSeries(system, line.sizes, line.values);
            series.setMarker(SeriesMarkers.CIRCLE);
        });
        return chart;
    }
}
