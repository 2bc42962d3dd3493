package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.run.Subprocesses.drain;
import static org.mpjlite.run.Subprocesses.startMpjrun;
import static org.mpjlite.run.Subprocesses.stdout;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The status on demand, end to end: {@code bin/mpjrun} in a subprocess, SIGQUIT sent to it (as
 * Ctrl-\ or {@code kill -QUIT} would), then SIGUSR1 straight to the JVM; each time every rank's
 * state is printed and the job goes on to end normally. Needs bash, {@code kill} and an {@code env}
 * that can reset a signal: a process started in the background inherits SIGQUIT ignored (as this
 * test's JVM may, under a build), and a shell cannot take a signal it was started ignoring; a
 * terminal starts commands with SIGQUIT at its default, which {@code env --default-signal} restores.
 */
class StatusSignalTest {
    /** Rank 0 computes (sleeps) until a file appears, then sends to every rank, which waits in Recv. */
    private static final String WAITS = String.join("\n",
        "import mpi.*;",
        "import java.nio.file.*;",
        "public class Waits {",
        "    public static void main(String[] args) throws Exception {",
        "        MPI.Init(args);",
        "        int[] v = new int[1];",
        "        if (MPI.COMM_WORLD.Rank() == 0) {",
        "            System.out.println(\"ready\");",
        "            while (!Files.exists(Path.of(args[0]))) {",
        "                Thread.sleep(20);",                                                     // line 10
        "            }",
        "            for (int r = 1; r < MPI.COMM_WORLD.Size(); r++) {",
        "                MPI.COMM_WORLD.Send(v, 0, 1, MPI.INT, r, 7);",
        "            }",
        "        } else {",
        "            MPI.COMM_WORLD.Recv(v, 0, 1, MPI.INT, 0, 7);",                              // line 16
        "        }",
        "        MPI.Finalize();",
        "    }",
        "}",
        "");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void sigquitToTheLauncherAndSigusr1ToTheJvmPrintEveryRankAndTheJobGoesOn(int ranks) throws Exception {
        Path src = Sources.write(dir, "Waits.java", WAITS);
        Path go = dir.resolve("go");
        Process launcher = startMpjrun("QUIT", "-np", String.valueOf(ranks), src.toString(), go.toString());
        try {
            StringBuilder err = drain(launcher.getErrorStream());
            BufferedReader out = stdout(launcher);
            assertEquals("ready", out.readLine());

            // Rank 0 prints "ready" before the other ranks have surely called Recv (a busy machine
            // may still be loading or compiling them): SIGQUIT again until a report shows them there.
            int reports = 0;
            String quit;
            while (true) {
                kill("-QUIT", launcher.pid());
                quit = lastReport(awaitReports(err, ++reports));
                if (allReceiving(quit, ranks) || reports == 100) {
                    break;
                }
                Thread.sleep(50);
            }
            ProcessHandle jvm = launcher.toHandle().children().findFirst().orElseThrow(); // env exec'd bash
            kill("-USR1", jvm.pid());
            String usr1 = lastReport(awaitReports(err, reports + 1));

            for (String report : new String[] {quit, usr1}) {
                // Rank 0 polls for the file: sleeping (line 10) or, under load, checking (line 9).
                assertTrue(report.startsWith("mpjrun: " + StatusSignal.HEADLINE + "\n"
                    + "  rank 0: running, not blocked in MPI\n          at Waits.main(Waits.java:10)\n")
                    || report.startsWith("mpjrun: " + StatusSignal.HEADLINE + "\n"
                    + "  rank 0: running, not blocked in MPI\n          at Waits.main(Waits.java:9)\n"), report);
                assertTrue(allReceiving(report, ranks), report);
            }
            Files.createFile(go);
            assertTrue(launcher.waitFor(30, TimeUnit.SECONDS), "the job ends once released");
            assertEquals(0, launcher.exitValue(), err.toString());
        } finally {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
        }
    }


    private static void kill(String signal, long pid) throws IOException, InterruptedException {
        Process k = new ProcessBuilder("kill", signal, String.valueOf(pid)).inheritIO().start();
        assertEquals(0, k.waitFor(), "kill " + signal + " " + pid);
    }

    /** True when {@code report} shows every rank but rank 0 waiting in its Recv from rank 0. */
    private static boolean allReceiving(String report, int ranks) {
        for (int r = 1; r < ranks; r++) {
            if (!report.contains("  rank " + r + ": Recv(source=0, tag=7, comm=MPI.COMM_WORLD, count=1,"
                + " MPI.INT)\n          at Waits.main(Waits.java:16)\n")) {
                return false;
            }
        }
        return true;
    }

    /** The last status report in {@code text}. */
    private static String lastReport(String text) {
        return text.substring(text.lastIndexOf("mpjrun: status"));
    }

    /** Waits until {@code err} holds {@code n} complete status reports; returns it. */
    private static String awaitReports(StringBuilder err, int n) throws InterruptedException {
        for (int i = 0; i < 1000; i++) {
            synchronized (err) {
                String text = err.toString();
                if (text.split("mpjrun: status", -1).length > n && text.endsWith("\n")) {
                    return text;
                }
            }
            Thread.sleep(20);
        }
        synchronized (err) {
            throw new AssertionError("expected " + n + " status reports, got:\n" + err);
        }
    }
}
