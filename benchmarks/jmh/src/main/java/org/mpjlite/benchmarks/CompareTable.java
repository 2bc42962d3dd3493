package org.mpjlite.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Turns the OSU-format outputs that {@code benchmarks/compare} collected into medians per size and
 * system, writes them as CSV (the input of {@link PlotResults}) and prints one Markdown table per
 * test with the ratio of each system to the first.
 *
 * <p>Input: a directory of files named {@code TEST__SYSTEM__RUN.txt}, each the standard output of
 * one run of an OSU program (OMB-J's format: {@code #} header lines, then size and value per line;
 * OMB's collective format with its average latency in the second column reads the same way). The
 * unit is MB/s when the header says so, microseconds otherwise.
 *
 * <p>Usage: {@code java -cp benchmarks.jar org.mpjlite.benchmarks.CompareTable RAW_DIR OUT.csv SYSTEM...}
 * where the systems are given in the order of the table's columns, the first being the one the
 * ratios are about. The ratio is a speed-up: the other system's latency over the first's, or the
 * first's bandwidth over the other's; above 1 the first system is faster.
 */
public final class CompareTable {
    private static final Pattern FILE = Pattern.compile("(.+)__(.+)__(\\d+)\\.txt");
    private static final Pattern ROW = Pattern.compile("(\\d+)\\s+(\\d+(?:\\.\\d+)?)(?:\\s.*)?");

    /** Values of one test: system, then size, then one value per run. */
    record Test(String unit, Map<String, TreeMap<Integer, List<Double>>> bySystem) {
        boolean isBandwidth() {
            return unit.equals("MB/s");
        }
    }

    private CompareTable() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("Usage: CompareTable RAW_DIR OUT.csv SYSTEM...");
            System.exit(2);
        }
        Map<String, Test> tests = read(Path.of(args[0]));
        List<String> systems = Arrays.asList(args).subList(2, args.length);
        writeCsv(tests, systems, Path.of(args[1]));
        printTables(tests, systems, System.out);
    }

    static Map<String, Test> read(Path dir) throws IOException {
        Map<String, Test> tests = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.sorted().toList();
        }
        for (Path file : files) {
            Matcher name = FILE.matcher(file.getFileName().toString());
            if (!name.matches()) {
                continue;
            }
            List<String> lines = Files.readAllLines(file);
            String unit = lines.stream().anyMatch(l -> l.startsWith("#") && l.contains("MB/s")) ? "MB/s" : "us";
            Test test = tests.computeIfAbsent(name.group(1), t -> new Test(unit, new LinkedHashMap<>()));
            TreeMap<Integer, List<Double>> bySize = test.bySystem.computeIfAbsent(name.group(2), s -> new TreeMap<>());
            for (String line : lines) {
                Matcher row = ROW.matcher(line.trim());
                if (row.matches()) {
                    bySize.computeIfAbsent(Integer.parseInt(row.group(1)), s -> new ArrayList<>())
                        .add(Double.parseDouble(row.group(2)));
                }
            }
        }
        return tests;
    }

    /** One line per test, system and size; systems in the given order (then any others), as the charts draw them. */
    static void writeCsv(Map<String, Test> tests, List<String> systems, Path out) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("test,unit,system,size,median,min,max,runs");
        tests.forEach((name, test) -> {
            List<String> order = new ArrayList<>(systems);
            test.bySystem.keySet().stream().filter(s -> !systems.contains(s)).forEach(order::add);
            for (String system : order) {
                TreeMap<Integer, List<Double>> bySize = test.bySystem.get(system);
                if (bySize == null) {
                    continue;
                }
                bySize.forEach((size, values) -> {
                    List<Double> v = values.stream().sorted().toList();
                    lines.add(String.format(Locale.ROOT, "%s,%s,%s,%d,%.4f,%.4f,%.4f,%d", name, test.unit, system,
                        size, median(v), v.get(0), v.get(v.size() - 1), v.size()));
                });
            }
        });
        Files.write(out, lines);
    }

    static void printTables(Map<String, Test> tests, List<String> systems, PrintStream out) {
        tests.forEach((name, test) -> {
            List<String> present = systems.stream().filter(test.bySystem::containsKey).toList();
            if (present.isEmpty()) {
                return;
            }
            String first = present.get(0);
            StringBuilder header = new StringBuilder("| size [B] |");
            StringBuilder rule = new StringBuilder("|---:|");
            for (String s : present) {
                header.append(' ').append(s).append(" [").append(test.unit).append("] |");
                rule.append("---:|");
            }
            for (String s : present.subList(1, present.size())) {
                header.append(' ').append(first).append(" vs ").append(s).append(" |");
                rule.append("---:|");
            }
            out.println();
            out.println("### " + name + " (medians of runs; ratio > 1: " + first + " faster)");
            out.println();
            out.println(header);
            out.println(rule);
            TreeSet<Integer> sizes = new TreeSet<>();
            present.forEach(s -> sizes.addAll(test.bySystem.get(s).keySet()));
            for (int size : sizes) {
                StringBuilder row = new StringBuilder("| " + size + " |");
                for (String s : present) {
                    Double m = medianOf(test, s, size);
                    row.append(' ').append(m == null ? "" : format(m)).append(" |");
                }
                Double mine = medianOf(test, first, size);
                for (String s : present.subList(1, present.size())) {
                    Double other = medianOf(test, s, size);
                    String ratio = "";
                    if (mine != null && other != null && mine > 0 && other > 0) {
                        ratio = String.format(Locale.ROOT, "%.2f", test.isBandwidth() ? mine / other : other / mine);
                    }
                    row.append(' ').append(ratio).append(" |");
                }
                out.println(row);
            }
        });
    }

    private static Double medianOf(Test test, String system, int size) {
        List<Double> values = test.bySystem.get(system).get(size);
        return values == null ? null : median(values.stream().sorted().toList());
    }

    /** The middle value; the mean of the two middle ones for an even count. */
    private static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String format(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : "%.2f", v);
    }
}
