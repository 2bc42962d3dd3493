package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code mpjrun --stats} and {@code --trace} on the command line: the numbers of a known program. */
class StatsTest {
    /**
     * Every rank sends 3 messages of 10 ints to the right, and rank 0 sends one of 5 doubles to the
     * last rank; then an Allreduce of 2 ints and a Barrier; then it sleeps outside MPI.
     */
    private static final String PROGRAM = String.join("\n",
        "import mpi.*;",
        "public class Ring {",
        "    public static void main(String[] args) throws Exception {",
        "        MPI.Init(args);",
        "        int me = MPI.COMM_WORLD.Rank(), size = MPI.COMM_WORLD.Size();",
        "        int[] buf = new int[10];",
        "        for (int k = 0; k < 3; k++) {",
        "            MPI.COMM_WORLD.Sendrecv(buf, 0, 10, MPI.INT, (me + 1) % size, k,",
        "                buf, 0, 10, MPI.INT, (me + size - 1) % size, k);",
        "        }",
        "        double[] d = new double[5];",
        "        if (me == 0) MPI.COMM_WORLD.Send(d, 0, 5, MPI.DOUBLE, size - 1, 9);",
        "        if (me == size - 1) MPI.COMM_WORLD.Recv(d, 0, 5, MPI.DOUBLE, 0, 9);",
        "        MPI.COMM_WORLD.Allreduce(buf, 0, buf, 0, 2, MPI.INT, MPI.SUM);",
        "        MPI.COMM_WORLD.Barrier();",
        "        Thread.sleep(200);",
        "        MPI.Finalize();",
        "    }",
        "}");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4})
    void printsTheMessageMatrixAndTheTimeInMpi(int n) throws Exception {
        Path src = Sources.write(dir, "Ring.java", PROGRAM);
        Path png = dir.resolve("matrix.png");
        Launch.Outcome o = Launch.mpjrun("-np", Integer.toString(n), "--stats=" + png, src.toString());
        assertEquals(0, o.exitCode(), o.toString());
        long[][] messages = matrix(o.err(), "point-to-point messages", n);
        long[][] bytes = matrix(o.err(), "point-to-point bytes", n);
        long[][] expectedMessages = new long[n][n];
        long[][] expectedBytes = new long[n][n];
        for (int r = 0; r < n; r++) {
            expectedMessages[r][(r + 1) % n] += 3;
            expectedBytes[r][(r + 1) % n] += 120;
        }
        expectedMessages[0][n - 1] += 1;
        expectedBytes[0][n - 1] += 40;
        assertEquals(Arrays.deepToString(expectedMessages), Arrays.deepToString(messages), o.err());
        assertEquals(Arrays.deepToString(expectedBytes), Arrays.deepToString(bytes), o.err());

        Matcher row = Pattern.compile("(?m)^ +(\\d+) +([\\d.]+) +([\\d.]+) +([\\d.]+) +(\\d+) +(\\d+)$")
            .matcher(o.err());
        int rows = 0;
        while (row.find()) {
            assertEquals(rows, Integer.parseInt(row.group(1)));
            assertTrue(Double.parseDouble(row.group(4)) >= 0.2, "the sleep is outside MPI: " + row.group());
            assertEquals("2", row.group(5), "Allreduce and Barrier");
            assertEquals("8", row.group(6), "2 ints of Allreduce");
            rows++;
        }
        assertEquals(n, rows, o.err());

        BufferedImage image = ImageIO.read(png.toFile());
        assertTrue(image.getWidth() > 100 && image.getHeight() > 100);
        assertTrue(o.err().contains("heat map of the bytes between ranks written to " + png));
    }

    @Test
    void writesTheTraceFromTheCommandLine() throws Exception {
        Path src = Sources.write(dir, "Ring.java", PROGRAM);
        Path trace = dir.resolve("run.json");
        Launch.Outcome o = Launch.mpjrun("-np", "3", "--trace", trace.toString(), src.toString());
        assertEquals(0, o.exitCode(), o.toString());
        String json = Files.readString(trace);
        assertTrue(json.startsWith("{\"traceEvents\":["), json);
        assertTrue(json.contains("\"name\":\"Allreduce\""));
        assertFalse(o.err().contains("statistics"), "no --stats, no summary");
    }

    @Test
    void aTraceThatCannotBeWrittenIsAWarningNotAFailure() throws Exception {
        Path src = Sources.write(dir, "Ring.java", PROGRAM);
        Path trace = dir.resolve("no/such/dir/run.json");
        Launch.Outcome o = Launch.mpjrun("-np", "2", "--trace", trace.toString(), src.toString());
        assertEquals(0, o.exitCode(), o.toString());
        assertTrue(o.err().contains("mpjrun: warning: cannot write the trace " + trace), o.err());
    }

    /** The matrix printed under the line starting with {@code title}. */
    private static long[][] matrix(String text, String title, int n) {
        List<String> lines = text.lines().toList();
        int at = 0;
        while (!lines.get(at).startsWith(title)) {
            at++;
        }
        long[][] m = new long[n][];
        for (int i = 0; i < n; i++) {
            String[] cells = lines.get(at + 2 + i).trim().split("\\s+");
            assertEquals(Integer.toString(i), cells[0]);
            m[i] = Arrays.stream(cells).skip(1).mapToLong(Long::parseLong).toArray();
        }
        return m;
    }
}
