package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.mpjlite.smpdev.ThreadKind;

/**
 * Jobs of a few thousand ranks through the launcher's own path, as {@code mpjrun} runs them: each
 * rank with its own class loader, its own {@code mpi.MPI} and its own copy of the program's
 * statics. Sized for two busy cores: 2,001 ranks on virtual threads (JDK 21 and later), 301 on
 * platform threads. (In-process jobs of 10,000 ranks, without per-rank loaders, are in
 * {@code ManyRanksTest}.)
 */
class ManyRanksLaunchTest {
    private static final boolean VIRTUAL = ThreadKind.VIRTUAL.available();
    private static final int RANKS = VIRTUAL ? 2001 : 301;

    @TempDir
    Path dir;

    private static Launch.Outcome mpjrun(Path program, String... args) {
        String[] all = new String[5 + args.length];
        all[0] = "-np";
        all[1] = String.valueOf(RANKS);
        all[2] = "--threads";
        all[3] = VIRTUAL ? "virtual" : "platform";
        all[4] = program.toString();
        System.arraycopy(args, 0, all, 5, args.length);
        return Launch.mpjrun(all);
    }

    /**
     * Program {@code name}: Init, then {@code lines} (from line 5 of the file), a Barrier and Finalize.
     */
    private Path program(String name, String... lines) throws Exception {
        String head = String.join("\n",
            "import mpi.*;",
            "public class " + name + " {",
            "    public static void main(String[] args) {",
            "        MPI.Init(args);",
            "");
        String tail = String.join("\n",
            "",
            "        MPI.COMM_WORLD.Barrier();",
            "        MPI.Finalize();",
            "    }",
            "}",
            "");
        return Sources.write(dir, name + ".java", head + String.join("\n", lines) + tail);
    }

    /** Init, Barrier, Allreduce, a ring exchange, Finalize; every rank checks its results and its statics. */
    @Test
    @Timeout(120)
    void everyRankRunsWithItsOwnClassesAndGetsTheRightResults() throws Exception {
        Path out = dir.resolve("out.txt");
        Path src = Sources.write(dir, "Ring.java", String.join("\n",
            "import mpi.*;",
            "public class Ring {",
            "    static int started;", // per rank: a shared copy would count every rank
            "    public static void main(String[] args) throws Exception {",
            "        started++;",
            "        MPI.Init(args);",
            "        int me = MPI.COMM_WORLD.Rank(), n = MPI.COMM_WORLD.Size();",
            "        MPI.COMM_WORLD.Barrier();",
            "        long[] sum = new long[1];",
            "        MPI.COMM_WORLD.Allreduce(new long[] {me}, 0, sum, 0, 1, MPI.LONG, MPI.SUM);",
            "        int[] got = new int[1];",
            "        MPI.COMM_WORLD.Sendrecv(new int[] {me}, 0, 1, MPI.INT, (me + 1) % n, 0,",
            "            got, 0, 1, MPI.INT, (me + n - 1) % n, 0);",
            "        boolean right = started == 1 && sum[0] == (long) n * (n - 1) / 2 && got[0] == (me + n - 1) % n;",
            "        int[] wrong = new int[1];",
            "        MPI.COMM_WORLD.Reduce(new int[] {right ? 0 : 1}, 0, wrong, 0, 1, MPI.INT, MPI.SUM, 0);",
            "        if (me == 0) {",
            "            java.nio.file.Files.writeString(java.nio.file.Path.of(args[0]),",
            "                n + \" ranks, \" + wrong[0] + \" wrong, sum \" + sum[0]);",
            "        }",
            "        MPI.Finalize();",
            "    }",
            "}",
            ""));
        Launch.Outcome r = mpjrun(src, out.toString());
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(RANKS + " ranks, 0 wrong, sum " + (long) RANKS * (RANKS - 1) / 2, Files.readString(out));
    }

    /** One rank throws while the others wait in a Barrier: the job ends, naming that rank and its line only. */
    @Test
    @Timeout(120)
    void aFailingRankEndsTheJobPromptly() throws Exception {
        int failing = RANKS - 2;
        Path src = program("Fails",
            "        if (MPI.COMM_WORLD.Rank() == " + failing + ") throw new IllegalStateException(\"boom\");");
        Launch.Outcome r = mpjrun(src);
        assertEquals(1, r.exitCode(), r.toString());
        assertTrue(r.err().startsWith("mpjrun: rank " + failing + " failed: java.lang.IllegalStateException: boom\n"),
            r.toString());
        assertTrue(r.err().contains("at Fails.main(Fails.java:5)"), r.toString());
        assertEquals(1, r.err().lines().filter(l -> l.contains(" failed: ")).count(), r.toString());
    }

    /** Two ranks receive from each other while the rest wait in a Barrier: exit code 86 and the cycle. */
    @Test
    @Timeout(120)
    void aDeadlockIsReportedNamingTheCycle() throws Exception {
        int a = 7;
        int b = RANKS - 1;
        Path src = program("Stuck",
            "        int me = MPI.COMM_WORLD.Rank();",
            "        if (me == " + a + " || me == " + b + ") {",
            "            MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, me == " + a + " ? " + b + " : " + a + ", 0);",
            "        }");
        Launch.Outcome r = mpjrun(src);
        assertEquals(86, r.exitCode(), r.toString());
        assertTrue(r.err().contains("cycle: rank " + a + " -> rank " + b + " -> rank " + a), r.toString());
        assertTrue(r.err().contains("at Stuck.main(Stuck.java:7)"), r.toString());
        assertFalse(r.err().contains("org.mpjlite."), r.toString());
        assertTrue(r.err().lines().count() < 50, r.toString());
    }
}
