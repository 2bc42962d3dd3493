package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import mpi.MPI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpjlite.JobFailedException;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.smpdev.DeadlockException;

/** What a user sees when a program is wrong: deadlock and timeout reports, warnings at Finalize, exit codes. */
class MisuseReportTest {
    @TempDir
    Path dir;

    @Test
    void mpjrunPrintsEachRanksCallWithTheUsersLineAndTheCycle() throws Exception {
        Path src = Sources.write(dir, "HeadToHead.java", Sources.headToHead("import mpi.*;"));
        Launch.Outcome r = Launch.mpjrun("-np", "2", src.toString());
        assertEquals(DeadlockException.EXIT_CODE, r.exitCode(), r.toString());
        String err = r.err();
        assertTrue(err.startsWith("mpjrun: deadlock: every rank is blocked in MPI"), err);
        assertTrue(err.contains("rank 0: Recv(source=1, tag=5, comm=MPI.COMM_WORLD, count=1, MPI.INT)\n"
            + "          at HeadToHead.main(HeadToHead.java:7)"), err);
        assertTrue(err.contains("rank 1: Recv(source=0, tag=5, comm=MPI.COMM_WORLD, count=1, MPI.INT)\n"
            + "          at HeadToHead.main(HeadToHead.java:7)"), err);
        assertTrue(err.contains("cycle: rank 0 -> rank 1 -> rank 0"), err);
        assertTrue(err.endsWith("mpjrun: job ended with exit code " + DeadlockException.EXIT_CODE + "\n"), err);
    }

    @Test
    void syncSendsTurnAProgramThatReliesOnBufferingIntoAReportedDeadlock() throws Exception {
        Path src = Sources.write(dir, "BothSendFirst.java", String.join("\n",
            "import mpi.*;",
            "public class BothSendFirst {",
            "    public static void main(String[] args) {",
            "        MPI.Init(args);",
            "        int other = 1 - MPI.COMM_WORLD.Rank();",
            "        int[] out = {42}, in = new int[1];",
            "        MPI.COMM_WORLD.Send(out, 0, 1, MPI.INT, other, 0);",
            "        MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, other, 0);",
            "        MPI.Finalize();",
            "    }",
            "}",
            ""));
        assertEquals(0, Launch.mpjrun("-np", "2", src.toString()).exitCode(), "fine while small sends are buffered");
        Launch.Outcome r = Launch.mpjrun("-np", "2", "--sync-sends", src.toString());
        assertEquals(DeadlockException.EXIT_CODE, r.exitCode(), r.toString());
        assertTrue(r.err().contains("rank 0: Send(dest=1, tag=0, comm=MPI.COMM_WORLD, count=1, MPI.INT; waiting for a "
            + "matching receive)\n          at BothSendFirst.main(BothSendFirst.java:7)"), r.err());
    }

    @Test
    void timeoutStopsABusyJobWithWhereEveryRankStands() throws Exception {
        Path src = Sources.write(dir, "Spins.java", String.join("\n",
            "import mpi.*;",
            "public class Spins {",
            "    public static void main(String[] args) {",
            "        MPI.Init(args);",
            "        while (MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, 99) == null) {",
            "            Thread.onSpinWait();",
            "        }",
            "    }",
            "}",
            ""));
        Launch.Outcome r = Launch.mpjrun("-np", "2", "--timeout", "1", src.toString());
        assertEquals(org.mpjlite.smpdev.JobTimeoutException.EXIT_CODE, r.exitCode(), r.toString());
        assertTrue(r.err().startsWith("mpjrun: timeout: the job ran longer than 1.0 s\n"), r.err());
        assertTrue(r.err().contains("rank 1: running, not blocked in MPI\n          at Spins.main(Spins.java:"), r.err());
    }

    @Test
    void finalizeWarnsAboutMessagesNeverReceivedAndReceivesNeverMatched() throws Exception {
        Path src = Sources.write(dir, "Leftovers.java", String.join("\n",
            "import mpi.*;",
            "public class Leftovers {",
            "    public static void main(String[] args) {",
            "        MPI.Init(args);",
            "        int[] v = {1};",
            "        if (MPI.COMM_WORLD.Rank() == 0) {",
            "            MPI.COMM_WORLD.Send(v, 0, 1, MPI.INT, 1, 2);",
            "            MPI.COMM_WORLD.Send(v, 0, 1, MPI.INT, 1, 1);",
            "        } else {",
            "            MPI.COMM_WORLD.Irecv(new int[1], 0, 1, MPI.INT, 0, 9);",
            "            MPI.COMM_WORLD.Recv(v, 0, 1, MPI.INT, 0, 1);",
            "        }",
            "        MPI.Finalize();",
            "    }",
            "}",
            ""));
        Launch.Outcome r = Launch.mpjrun("-np", "2", src.toString());
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals("mpjrun: warning: rank 1 called Finalize (Leftovers.java:13) with 1 message it never received: "
            + "(source=0, tag=2, comm=MPI.COMM_WORLD, 4 bytes); and 1 receive that never matched: "
            + "Irecv(source=0, tag=9, comm=MPI.COMM_WORLD, count=1, MPI.INT)\n", r.err());
    }

    @Test
    void aRankThatNeverCallsFinalizeIsNamed() throws Exception {
        Path src = Sources.write(dir, "NoFinalize.java", String.join("\n",
            "import mpi.*;",
            "public class NoFinalize {",
            "    public static void main(String[] args) {",
            "        MPI.Init(args);",
            "        if (MPI.COMM_WORLD.Rank() == 0) {",
            "            MPI.Finalize();",
            "        }",
            "    }",
            "}",
            ""));
        Launch.Outcome r = Launch.mpjrun("-np", "3", src.toString());
        assertEquals(0, r.exitCode(), r.toString());
        assertTrue(r.err().contains("mpjrun: warning: rank 1 returned without calling MPI.Finalize\n"), r.err());
        assertTrue(r.err().contains("mpjrun: warning: rank 2 returned without calling MPI.Finalize\n"), r.err());
        assertTrue(!r.err().contains("rank 0 returned"), r.err());
    }

    @Test
    void theEmbeddedApiThrowsTheSameReport() {
        JobFailedException e = org.junit.jupiter.api.Assertions.assertThrows(JobFailedException.class,
            () -> Jobs.options().ranks(3).run(() -> {
                MPI.Init(new String[0]);
                MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                return null;
            }));
        assertEquals(DeadlockException.EXIT_CODE, e.exitCode());
        assertTrue(e.getCause() instanceof DeadlockException, String.valueOf(e.getCause()));
        assertTrue(e.getMessage().contains("rank 2: Recv(source=MPI.ANY_SOURCE, tag=MPI.ANY_TAG, comm=MPI.COMM_WORLD"),
            e.getMessage());
        assertTrue(e.getMessage().contains("at org.mpjlite.run.MisuseReportTest"), e.getMessage());
    }
}
