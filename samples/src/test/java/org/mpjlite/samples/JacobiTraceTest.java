package org.mpjlite.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The timeline of the Jacobi sample ({@code mpjrun --trace}), read as a person would read it in
 * Perfetto: every step, each rank's four Sendrecv halo exchanges send one message to each
 * neighbour on the grid of ranks (a flow arrow from the sending Sendrecv to the neighbour's
 * receiving Sendrecv), then an Allreduce on every rank; one Reduce at the end. Also draws the
 * timeline as a PNG ({@code target/jacobi-timeline-N.png}) to look at.
 */
class JacobiTraceTest {
    private static final int STEPS = 20;

    private record Slice(String name, int rank, long ts, long end) {
    }

    @ParameterizedTest(name = "{0} ranks, a {1}x{2} grid")
    @CsvSource({"1, 1, 1", "2, 2, 1", "3, 3, 1", "4, 2, 2"})
    @DisplayName("Jacobi's trace: halo exchanges as flows between grid neighbours every step, Allreduce on every rank")
    void haloExchangesAndAllreduceEveryStep(int ranks, int gridRows, int gridCols) throws IOException {
        Path dir = Files.createDirectories(Path.of("target"));
        Path file = dir.resolve("jacobi-" + ranks + ".json");
        SamplesTest.mpjrun(ranks, "--trace", file.toString(), "-cp", SamplesTest.samplesClasses(), "mpijava.Jacobi", "12",
                Integer.toString(STEPS))
            .assertSucceeded();
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        Map<Integer, List<Slice>> tracks = new TreeMap<>();
        Map<Long, long[]> starts = new HashMap<>();
        Map<Long, long[]> finishes = new HashMap<>();
        for (JsonNode e : root.get("traceEvents")) {
            String ph = e.get("ph").asText();
            if (ph.equals("M")) {
                continue; // track names
            }
            int rank = e.get("tid").asInt() / 1000;
            long ts = Math.round(e.get("ts").asDouble() * 1000);
            switch (ph) {
                case "X" -> tracks.computeIfAbsent(rank, r -> new ArrayList<>()).add(new Slice(e.get("name").asText(),
                    rank, ts, ts + Math.round(e.get("dur").asDouble() * 1000)));
                case "s" -> starts.put(e.get("id").asLong(), new long[] {rank, ts});
                case "f" -> finishes.put(e.get("id").asLong(), new long[] {rank, ts});
                default -> {
                }
            }
        }
        assertEquals(starts.keySet(), finishes.keySet(), "every flow has both ends");
        Set<List<Integer>> neighbours = new HashSet<>();
        for (int r = 0; r < ranks; r++) {
            int row = r / gridCols;
            int col = r % gridCols;
            if (row + 1 < gridRows) {
                neighbours.add(List.of(r, r + gridCols));
                neighbours.add(List.of(r + gridCols, r));
            }
            if (col + 1 < gridCols) {
                neighbours.add(List.of(r, r + 1));
                neighbours.add(List.of(r + 1, r));
            }
        }
        Map<List<Integer>, Integer> messages = new HashMap<>();
        for (Map.Entry<Long, long[]> s : starts.entrySet()) {
            long[] f = finishes.get(s.getKey());
            List<Integer> pair = List.of((int) s.getValue()[0], (int) f[0]);
            assertTrue(neighbours.contains(pair), "a halo message goes to a grid neighbour: " + pair);
            assertTrue(s.getValue()[1] <= f[1], "sent before received");
            assertEquals("Sendrecv", enclosing(tracks.get(pair.get(0)), s.getValue()[1]).name());
            assertEquals("Sendrecv", enclosing(tracks.get(pair.get(1)), f[1]).name());
            messages.merge(pair, 1, Integer::sum);
        }
        for (List<Integer> pair : neighbours) {
            assertEquals(STEPS, messages.get(pair), "one message a step from rank " + pair.get(0) + " to " + pair.get(1));
        }
        assertEquals(neighbours.size(), messages.size());
        for (int r = 0; r < ranks; r++) {
            List<Slice> track = tracks.get(r);
            track.sort(Comparator.comparingLong(Slice::ts));
            List<String> expected = new ArrayList<>(List.of("Init"));
            for (int step = 0; step < STEPS; step++) {
                expected.addAll(List.of("Sendrecv", "Sendrecv", "Sendrecv", "Sendrecv", "Allreduce"));
            }
            expected.addAll(List.of("Reduce", "Finalize"));
            assertEquals(expected, track.stream().map(Slice::name).toList(), "rank " + r + ": Init, each step, Reduce, Finalize");
            // Each step's messages arrive in that step's exchanges: the flows into this rank finish
            // between the Allreduce of the step before and the step's own.
            int step = 0;
            long stepStart = Long.MIN_VALUE;
            for (Slice s : track) {
                if (s.name().equals("Allreduce")) {
                    long from = stepStart;
                    long into = finishes.values().stream().filter(f -> f[0] == s.rank() && f[1] > from && f[1] < s.ts())
                        .count();
                    assertEquals(neighboursOf(neighbours, r), into, "rank " + r + " step " + step);
                    stepStart = s.end();
                    step++;
                }
            }
        }
        draw(tracks, starts, finishes, dir.resolve("jacobi-timeline-" + ranks + ".png"));
    }

    private static long neighboursOf(Set<List<Integer>> pairs, int rank) {
        return pairs.stream().filter(p -> p.get(1) == rank).count();
    }

    private static Slice enclosing(List<Slice> track, long t) {
        return track.stream().filter(s -> s.ts() < t && t < s.end()).findFirst().orElseThrow();
    }

    /**
     * A plain timeline like Perfetto's: a row per rank, halo exchanges blue, Allreduce orange,
     * Reduce green, Init and Finalize grey, flows as grey lines; the last steps only, so that the slices are wide enough
     * to see.
     */
    private static void draw(Map<Integer, List<Slice>> tracks, Map<Long, long[]> starts, Map<Long, long[]> finishes,
                             Path png) throws IOException {
        List<Slice> first = tracks.get(0);
        long from = first.get(first.size() - 2 - 5 * 3).ts(); // 3 steps before Reduce and Finalize
        long to = tracks.values().stream().flatMap(List::stream).mapToLong(Slice::end).max().orElseThrow();
        int width = 1400;
        int rowHeight = 40;
        int left = 70;
        BufferedImage image = new BufferedImage(width + left + 20, tracks.size() * rowHeight + 60,
            BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        double scale = (double) width / (to - from);
        for (Map.Entry<Integer, List<Slice>> track : tracks.entrySet()) {
            int y = 30 + track.getKey() * rowHeight;
            g.setColor(Color.BLACK);
            g.setClip(null);
            g.drawString("rank " + track.getKey(), 8, y + 20);
            g.setClip(left, 0, width, image.getHeight());
            for (Slice s : track.getValue()) {
                if (s.end() < from) {
                    continue;
                }
                int x = left + (int) ((s.ts() - from) * scale);
                int w = Math.max(1, (int) ((s.end() - s.ts()) * scale));
                g.setColor(s.name().equals("Sendrecv") ? new Color(70, 130, 200)
                    : s.name().equals("Allreduce") ? new Color(240, 150, 40)
                    : s.name().equals("Reduce") ? new Color(60, 170, 90) : Color.LIGHT_GRAY);
                g.fillRect(x, y, w, rowHeight - 12);
            }
        }
        g.setColor(new Color(80, 80, 80, 160));
        g.setStroke(new BasicStroke(1));
        for (Map.Entry<Long, long[]> s : starts.entrySet()) {
            long[] f = finishes.get(s.getKey());
            if (s.getValue()[1] < from) {
                continue;
            }
            g.drawLine(left + (int) ((s.getValue()[1] - from) * scale), 30 + (int) s.getValue()[0] * rowHeight + 14,
                left + (int) ((f[1] - from) * scale), 30 + (int) f[0] * rowHeight + 14);
        }
        g.setClip(null);
        g.setColor(Color.BLACK);
        g.drawString(String.format("last 3 steps: %.1f us; blue Sendrecv, orange Allreduce, green Reduce, grey Finalize, lines: messages",
            (to - from) / 1000.0), left, image.getHeight() - 10);
        g.dispose();
        ImageIO.write(image, "png", png.toFile());
    }
}
