package mpjbuf.bench;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Draws {@link AllocationBenchmark} results (JMH {@code -rf csv}) as a log-log chart like Figure 4 of the MPJ
 * Express buffering paper, with the JDK only, headless.
 *
 * <p>Usage: {@code java -Djava.awt.headless=true -cp benchmarks.jar mpjbuf.bench.AllocationPlot results.csv out.png}
 */
public final class AllocationPlot
{
    private static final int WIDTH = 960;
    private static final int HEIGHT = 600;
    private static final int LEFT = 90;
    private static final int RIGHT = 250;
    private static final int TOP = 50;
    private static final int BOTTOM = 70;
    private static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
        new Color(0x8c564b)};

    private AllocationPlot()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final Map<String, TreeMap<Integer, Double>> series = read(Path.of(args[0]));
        ImageIO.write(draw(series), "png", Path.of(args[1]).toFile());
    }

    /** allocator -> size -> microseconds. */
    private static Map<String, TreeMap<Integer, Double>> read(final Path csv) throws IOException
    {
        final List<String> lines = Files.readAllLines(csv);
        final List<String> header = fields(lines.get(0));
        final int score = header.indexOf("Score");
        final int unit = header.indexOf("Unit");
        final int allocator = header.indexOf("Param: allocator");
        final int size = header.indexOf("Param: size");
        final Map<String, TreeMap<Integer, Double>> series = new LinkedHashMap<>();
        for (final String line : lines.subList(1, lines.size()))
        {
            final List<String> row = fields(line);
            final double micros = Double.parseDouble(row.get(score)) / ("ns/op".equals(row.get(unit)) ? 1000.0 : 1.0);
            series.computeIfAbsent(row.get(allocator), key -> new TreeMap<>())
                .put(Integer.parseInt(row.get(size)), micros);
        }
        return series;
    }

    private static List<String> fields(final String line)
    {
        final List<String> fields = new ArrayList<>();
        for (final String field : line.split(",", -1))
        {
            fields.add(field.replace("\"", ""));
        }
        return fields;
    }

    private static BufferedImage draw(final Map<String, TreeMap<Integer, Double>> series)
    {
        final BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);

        int minSize = Integer.MAX_VALUE;
        int maxSize = 0;
        double minMicros = Double.MAX_VALUE;
        double maxMicros = 0;
        for (final TreeMap<Integer, Double> points : series.values())
        {
            minSize = Math.min(minSize, points.firstKey());
            maxSize = Math.max(maxSize, points.lastKey());
            for (final double micros : points.values())
            {
                minMicros = Math.min(minMicros, micros);
                maxMicros = Math.max(maxMicros, micros);
            }
        }
        final Axes axes = new Axes(log2(minSize), log2(maxSize),
            Math.floor(Math.log10(minMicros)), Math.ceil(Math.log10(maxMicros)));

        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setColor(Color.LIGHT_GRAY);
        for (double decade = axes.yMin; decade <= axes.yMax; decade++)
        {
            final int y = axes.y(decade);
            g.drawLine(LEFT, y, WIDTH - RIGHT, y);
        }
        g.setColor(Color.BLACK);
        g.drawRect(LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
        for (double decade = axes.yMin; decade <= axes.yMax; decade++)
        {
            final String label = decade >= 0 ? String.format("%.0f", Math.pow(10, decade)) :
                String.format("%." + (int)-decade + "f", Math.pow(10, decade));
            g.drawString(label, LEFT - 10 - g.getFontMetrics().stringWidth(label), axes.y(decade) + 4);
        }
        for (final int size : series.values().iterator().next().keySet())
        {
            final int x = axes.x(log2(size));
            g.drawLine(x, HEIGHT - BOTTOM, x, HEIGHT - BOTTOM + 5);
            final String label = size >= 1 << 20 ? (size >> 20) + "M" : size >= 1 << 10 ? (size >> 10) + "K" :
                String.valueOf(size);
            g.drawString(label, x - g.getFontMetrics().stringWidth(label) / 2, HEIGHT - BOTTOM + 20);
        }
        g.drawString("Buffer size (bytes)", LEFT + (WIDTH - LEFT - RIGHT) / 2 - 50, HEIGHT - 25);
        g.rotate(-Math.PI / 2);
        g.drawString("Allocation + free time (us, log scale)", -(TOP + (HEIGHT - TOP - BOTTOM) / 2) - 110, 25);
        g.rotate(Math.PI / 2);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString("Allocation time comparison (JMH, 2 vCPU KVM)", LEFT, 30);

        final float[] dash = {6, 6};
        g.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, dash, 0));
        g.setColor(Color.GRAY);
        g.drawLine(LEFT, axes.y(0), WIDTH - RIGHT, axes.y(0));
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.drawString("1 us goal", WIDTH - RIGHT - 60, axes.y(0) - 5);

        g.setStroke(new BasicStroke(2.5f));
        int legendY = TOP + 10;
        int colour = 0;
        for (final Map.Entry<String, TreeMap<Integer, Double>> entry : series.entrySet())
        {
            g.setColor(COLORS[colour++ % COLORS.length]);
            int lastX = -1;
            int lastY = -1;
            for (final Map.Entry<Integer, Double> point : entry.getValue().entrySet())
            {
                final int x = axes.x(log2(point.getKey()));
                final int y = axes.y(Math.log10(point.getValue()));
                g.fillOval(x - 4, y - 4, 8, 8);
                if (lastX >= 0)
                {
                    g.drawLine(lastX, lastY, x, y);
                }
                lastX = x;
                lastY = y;
            }
            g.drawLine(WIDTH - RIGHT + 15, legendY, WIDTH - RIGHT + 45, legendY);
            g.setColor(Color.BLACK);
            g.drawString(entry.getKey(), WIDTH - RIGHT + 52, legendY + 4);
            legendY += 22;
        }
        g.dispose();
        return image;
    }

    private static double log2(final int value)
    {
        return Math.log(value) / Math.log(2);
    }

    /** Maps log2(size) and log10(micros) to pixels. */
    private record Axes(double xMin, double xMax, double yMin, double yMax)
    {
        int x(final double log2Size)
        {
            return LEFT + (int)Math.round((log2Size - xMin) / (xMax - xMin) * (WIDTH - LEFT - RIGHT));
        }

        int y(final double log10Micros)
        {
            return HEIGHT - BOTTOM - (int)Math.round((log10Micros - yMin) / (yMax - yMin) * (HEIGHT - TOP - BOTTOM));
        }
    }
}
