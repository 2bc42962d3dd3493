package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.run.Subprocesses.drain;
import static org.mpjlite.run.Subprocesses.startMpjrun;
import static org.mpjlite.run.Subprocesses.stdout;

import java.io.BufferedReader;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Ctrl-C and {@code SIGTERM} end a large job at once, end to end: {@code bin/mpjrun} in a
 * subprocess runs a few thousand ranks that wait, deadlock-free, for a rank that computes forever;
 * the signal goes to the script (which passes Ctrl-C on as {@code SIGTERM}); the job must end
 * within seconds with the report of where every rank stood and the signal's exit code. Needs bash,
 * {@code kill} and an {@code env} that can reset signals a background process inherits ignored.
 */
class StopSignalTest {
    /** Every rank but 0 waits in Recv for rank 0, which never sends (once all have left the Barrier). */
    private static final String WAITS = String.join("\n",
        "import mpi.*;",
        "public class Waits {",
        "    public static void main(String[] args) throws Exception {",
        "        MPI.Init(args); MPI.COMM_WORLD.Barrier();",
        "        int[] v = new int[1];",
        "        if (MPI.COMM_WORLD.Rank() == 0) {",
        "            System.out.println(\"ready\");",
        "            while (true) {",
        "                Thread.sleep(20);",                                                     // line 9
        "            }",
        "        }",
        "        MPI.COMM_WORLD.Recv(v, 0, 1, MPI.INT, 0, 7);",                                  // line 12
        "        MPI.Finalize();",
        "    }",
        "}",
        "");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} ranks, SIG{1}")
    @CsvSource({"3, TERM, 143", "2000, TERM, 143", "2000, INT, 130"})
    void aSignalEndsTheJobPromptlyWithAReport(int ranks, String signal, int exitCode) throws Exception {
        Path src = Sources.write(dir, "Waits.java", WAITS);
        Process launcher = startMpjrun("INT,TERM", "-np", String.valueOf(ranks), src.toString());
        try {
            StringBuilder err = drain(launcher.getErrorStream());
            BufferedReader out = stdout(launcher);
            assertEquals("ready", out.readLine(), err::toString);

            long sent = System.nanoTime();
            Process k = new ProcessBuilder("kill", "-" + signal, String.valueOf(launcher.pid())).inheritIO().start();
            assertEquals(0, k.waitFor());
            // Prompt: a second or two on an idle machine; the bound leaves room for a loaded one.
            assertTrue(launcher.waitFor(20, TimeUnit.SECONDS), () -> "still running after SIG" + signal + "\n" + err);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
            assertEquals(exitCode, launcher.exitValue(), err::toString);
            String report = awaitEnd(err);
            assertTrue(report.startsWith("mpjrun: stopped by SIGTERM: where every rank stood\n"
                + "  rank 0: running, not blocked in MPI\n"), report);
            assertTrue(report.contains(": Recv(source=0, tag=7, comm=MPI.COMM_WORLD, count=1, MPI.INT)\n"), report);
            assertTrue(report.endsWith("mpjrun: job ended with exit code 143\n"), report);
            if (ranks > 64) {
                // Ranks still waking from the Barrier (on a loaded machine, many) break the runs.
                assertTrue(report.contains("\n  ranks ") && report.lines().count() < 2 * ranks,
                    "neighbours in the same state share a line:\n" + report);
            }
            System.out.println(ranks + " ranks, SIG" + signal + ": ended " + millis + " ms after the signal");
        } finally {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
        }
    }


    /** The launcher's stderr once its last line is in (the drain may lag the process's end). */
    private static String awaitEnd(StringBuilder err) throws InterruptedException {
        for (int i = 0; i < 500; i++) {
            synchronized (err) {
                if (err.indexOf("job ended with exit code") >= 0) {
                    return err.toString();
                }
            }
            Thread.sleep(10);
        }
        synchronized (err) {
            return err.toString();
        }
    }
}
