package org.mpjlite.run;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * Draws a square matrix of byte counts as a heat map PNG ({@code mpjrun --stats=FILE.png}): row =
 * sending rank, column = receiving rank, white for nothing to dark blue for the largest count, the
 * numbers in the cells while they fit. Java2D and ImageIO only, headless. Stateless.
 */
final class HeatMap {
    private static final int MARGIN = 70;
    private static final Color EMPTY = Color.WHITE;
    private static final Color FULL = new Color(8, 48, 107);

    private HeatMap() {
    }

    /** Writes {@code bytes} ({@code bytes[from][to]}) as a PNG heat map to {@code file}. */
    static void write(long[][] bytes, String title, Path file) throws IOException {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        int n = bytes.length;
        int cell = Math.max(8, Math.min(64, 640 / Math.max(n, 1)));
        int side = n * cell;
        BufferedImage image = new BufferedImage(side + 2 * MARGIN, side + 2 * MARGIN, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            long max = 1;
            for (long[] row : bytes) {
                for (long v : row) {
                    max = Math.max(max, v);
                }
            }
            Font small = new Font(Font.SANS_SERIF, Font.PLAIN, Math.max(8, Math.min(12, cell / 4)));
            g.setFont(small);
            FontMetrics fm = g.getFontMetrics();
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double f = (double) bytes[i][j] / max;
                    g.setColor(blend(f));
                    g.fillRect(MARGIN + j * cell, MARGIN + i * cell, cell, cell);
                    String label = human(bytes[i][j]);
                    if (fm.stringWidth(label) + 4 <= cell && fm.getHeight() <= cell) {
                        g.setColor(f > 0.5 ? Color.WHITE : Color.BLACK);
                        g.drawString(label, MARGIN + j * cell + (cell - fm.stringWidth(label)) / 2,
                            MARGIN + i * cell + (cell + fm.getAscent()) / 2 - 2);
                    }
                }
            }
            g.setColor(Color.GRAY);
            g.setStroke(new BasicStroke(1));
            g.drawRect(MARGIN, MARGIN, side, side);
            g.setColor(Color.BLACK);
            int step = Math.max(1, (fm.stringWidth(Integer.toString(n)) + 6) / cell + 1);
            for (int k = 0; k < n; k += step) {
                String s = Integer.toString(k);
                g.drawString(s, MARGIN + k * cell + (cell - fm.stringWidth(s)) / 2, MARGIN - 6);
                g.drawString(s, MARGIN - 6 - fm.stringWidth(s), MARGIN + k * cell + (cell + fm.getAscent()) / 2 - 2);
            }
            g.drawString("to rank", MARGIN + side / 2 - fm.stringWidth("to rank") / 2, MARGIN - 22);
            g.drawString("from rank", 4, MARGIN - 22);
            g.setFont(small.deriveFont(Font.BOLD));
            g.drawString(title, 4, 16);
            g.setFont(small);
            g.drawString("white: 0, darkest: " + human(max) + " bytes", MARGIN, MARGIN + side + 20);
        } finally {
            g.dispose();
        }
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer in this JVM");
        }
    }

    private static Color blend(double f) {
        return new Color(mix(EMPTY.getRed(), FULL.getRed(), f), mix(EMPTY.getGreen(), FULL.getGreen(), f),
            mix(EMPTY.getBlue(), FULL.getBlue(), f));
    }

    private static int mix(int a, int b, double f) {
        return (int) Math.round(a + (b - a) * f);
    }

    /** {@code 0}, {@code 512}, {@code 4.0k}, {@code 1.5M}: a byte count short enough for a cell. */
    static String human(long v) {
        if (v < 1024) {
            return Long.toString(v);
        }
        String units = "kMGTPE";
        double d = v;
        int u = -1;
        while (d >= 1024 && u < units.length() - 1) {
            d /= 1024;
            u++;
        }
        return String.format(java.util.Locale.ROOT, d < 10 ? "%.1f%c" : "%.0f%c", d, units.charAt(u));
    }
}
