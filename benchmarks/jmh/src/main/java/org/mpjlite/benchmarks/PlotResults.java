package org.mpjlite.benchmarks;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The benchmarks' one plotting tool: draws PNG charts of a value against a size, one line per
 * series, with XChart. Both axes are logarithmic: sizes span 1 B to 16 MB, times 10 ns to
 * milliseconds and bandwidths five decades. It reads two kinds of CSV, told apart by the header:
 *
 * <ul>
 *   <li>the medians {@link CompareTable} writes for {@code benchmarks/compare}
 *       ({@code test,unit,system,size,median,...}): one chart per test, one line per system in the
 *       file's order;</li>
 *   <li>a JMH result ({@code -rf csv}): one chart per benchmark method that has a {@code size}
 *       parameter (others are skipped with a note), one line per combination of its other
 *       parameters, the score in microseconds per operation; for example
 *       {@link AllocationBenchmark}'s allocation time per allocator.</li>
 * </ul>
 *
 * <p>Usage: {@code java -cp benchmarks.jar org.mpjlite.benchmarks.PlotResults CSV OUT_DIR [CHART...]}
 * writes {@code OUT_DIR/CHART.png} for the given charts (a test such as {@code latency}, or a
 * benchmark such as {@code AllocationBenchmark.allocateAndFree}), or for every chart in the file.
 */
public final class PlotResults {
    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;

    /** JMH's time units, as a factor to microseconds. */
    private static final Map<String, Double> TO_MICROS = Map.of("ns/op", 1e-3, "us/op", 1.0, "ms/op", 1e3, "s/op", 1e6);

    /** One chart: axis titles, whether up is better, and its lines (series name, then size to value). */
    record Chart(String xTitle, String yTitle, boolean higherIsBetter, Map<String, TreeMap<Double, Double>> lines) {
        void add(String series, double size, double value) {
            // A logarithmic axis cannot show 0 (a bandwidth below the printed 0.01 MB/s): leave the point out.
            if (value > 0) {
                lines.computeIfAbsent(series, s -> new TreeMap<>()).put(size, value);
            }
        }
    }

    private PlotResults() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("Usage: PlotResults CSV OUT_DIR [CHART...]");
            System.exit(2);
        }
        // No display on build machines: AWT must not look for one.
        System.setProperty("java.awt.headless", "true");
        Map<String, Chart> charts = read(Path.of(args[0]));
        Path outDir = Files.createDirectories(Path.of(args[1]));
        List<String> wanted = args.length > 2 ? List.of(args).subList(2, args.length) : List.copyOf(charts.keySet());
        for (String name : wanted) {
            Chart chart = charts.get(name);
            if (chart == null) {
                System.err.println("PlotResults: no chart " + name + " in " + args[0]);
                continue;
            }
            Path png = outDir.resolve(name + ".png");
            BitmapEncoder.saveBitmap(draw(name, chart), png.toString(), BitmapEncoder.BitmapFormat.PNG);
            System.out.println("wrote " + png);
        }
    }

    /** The charts of a medians or JMH CSV file, by name, in file order. */
    static Map<String, Chart> read(Path csv) throws IOException {
        List<String> rows = Files.readAllLines(csv);
        if (rows.isEmpty()) {
            throw new IOException(csv + " is empty");
        }
        return rows.get(0).startsWith("\"Benchmark\"") ? readJmh(rows) : readMedians(rows);
    }

    /**
     * test, unit, system, size, median, ...: one chart per test, one line per system. The x axis is
     * the message size, or what the fourth column's header names instead ({@code ranks} for
     * {@code benchmarks/scale}); the y axis is a latency, a bandwidth, or the unit as given
     * ({@code s}, {@code MB}).
     */
    private static Map<String, Chart> readMedians(List<String> rows) {
        Map<String, Chart> charts = new LinkedHashMap<>();
        String[] header = rows.get(0).split(",");
        String xTitle = header.length > 3 && !header[3].equals("size") ? header[3] : "message size [B]";
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",");
            boolean bandwidth = f[1].equals("MB/s");
            String yTitle = bandwidth ? "bandwidth [MB/s]" : f[1].equals("us") ? "latency [us]" : f[0] + " [" + f[1] + "]";
            charts.computeIfAbsent(f[0], t -> new Chart(xTitle, yTitle, bandwidth, new LinkedHashMap<>()))
                .add(f[2], Double.parseDouble(f[3]), Double.parseDouble(f[4]));
        }
        return charts;
    }

    /** JMH's CSV: one chart per benchmark method with a size parameter, one line per other parameters. */
    private static Map<String, Chart> readJmh(List<String> rows) {
        List<String> header = fields(rows.get(0));
        int benchmark = header.indexOf("Benchmark");
        int score = header.indexOf("Score");
        int unit = header.indexOf("Unit");
        int size = header.indexOf("Param: size");
        Map<String, Chart> charts = new LinkedHashMap<>();
        Set<String> skipped = new LinkedHashSet<>();
        for (String row : rows.subList(1, rows.size())) {
            List<String> f = fields(row);
            String full = f.get(benchmark);
            // Class.method: the package is the same for every benchmark.
            String name = full.substring(full.lastIndexOf('.', full.lastIndexOf('.') - 1) + 1);
            if (size < 0 || f.get(size).isEmpty()) {
                skipped.add(name);
                continue;
            }
            Double toMicros = TO_MICROS.get(f.get(unit));
            List<String> others = new ArrayList<>();
            for (int i = 0; i < header.size(); i++) {
                if (i != size && header.get(i).startsWith("Param: ") && !f.get(i).isEmpty()) {
                    others.add(f.get(i));
                }
            }
            charts.computeIfAbsent(name, n -> new Chart("size [B]",
                    toMicros != null ? "time per operation [us]" : f.get(unit), toMicros == null, new LinkedHashMap<>()))
                .add(others.isEmpty() ? "score" : String.join(" ", others), Double.parseDouble(f.get(size)),
                    Double.parseDouble(f.get(score)) * (toMicros != null ? toMicros : 1.0));
        }
        skipped.forEach(name -> System.err.println("PlotResults: " + name + " has no size parameter: not drawn"));
        return charts;
    }

    /** The fields of one line of JMH's CSV, unquoted (its names and parameter values hold no commas). */
    private static List<String> fields(String line) {
        List<String> fields = new ArrayList<>();
        for (String field : line.split(",", -1)) {
            fields.add(field.replace("\"", ""));
        }
        return fields;
    }

    private static XYChart draw(String name, Chart chart) {
        XYChart xy = new XYChartBuilder().width(WIDTH).height(HEIGHT)
            .title(name + (chart.higherIsBetter ? " (higher is better)" : " (lower is better)"))
            .xAxisTitle(chart.xTitle)
            .yAxisTitle(chart.yTitle)
            .build();
        XYStyler styler = xy.getStyler();
        styler.setXAxisLogarithmic(true);
        styler.setYAxisLogarithmic(true);
        styler.setXAxisDecimalPattern("#,###");
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setChartBackgroundColor(Color.WHITE);
        chart.lines.forEach((series, points) -> {
            XYSeries line = xy.addSeries(series, new ArrayList<>(points.keySet()), new ArrayList<>(points.values()));
            line.setMarker(SeriesMarkers.CIRCLE);
        });
        return xy;
    }
}
