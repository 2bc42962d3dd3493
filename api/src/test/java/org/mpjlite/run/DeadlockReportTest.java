package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import mpi.MPI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpjlite.JobFailedException;
import org.mpjlite.MpjLite;
import org.mpjlite.smpdev.DeadlockException;

/** What a user sees when a program deadlocks: mpjrun's report and exit code; the embedded exception. */
class DeadlockReportTest {
    @TempDir
    Path dir;

    @Test
    void mpjrunPrintsEachRanksCallWithTheUsersLineAndTheCycle() throws Exception {
        Path src = Sources.write(dir, "HeadToHead.java", String.join("\n",
            "import mpi.*;",
            "public class HeadToHead {",
            "    public static void main(String[] args) {",
            "        MPI.Init(args);",
            "        int other = 1 - MPI.COMM_WORLD.Rank();",
            "        int[] buf = new int[1];",
            "        MPI.COMM_WORLD.Recv(buf, 0, 1, MPI.INT, other, 5);",
            "        MPI.COMM_WORLD.Send(buf, 0, 1, MPI.INT, other, 5);",
            "        MPI.Finalize();",
            "    }",
            "}",
            ""));
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
    void theEmbeddedApiThrowsTheSameReport() {
        JobFailedException e = org.junit.jupiter.api.Assertions.assertThrows(JobFailedException.class,
            () -> MpjLite.run(3, () -> {
                MPI.Init(new String[0]);
                MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                return null;
            }));
        assertEquals(DeadlockException.EXIT_CODE, e.exitCode());
        assertTrue(e.getCause() instanceof DeadlockException, String.valueOf(e.getCause()));
        assertTrue(e.getMessage().contains("rank 2: Recv(source=MPI.ANY_SOURCE, tag=MPI.ANY_TAG, comm=MPI.COMM_WORLD"),
            e.getMessage());
        assertTrue(e.getMessage().contains("at org.mpjlite.run.DeadlockReportTest"), e.getMessage());
    }
}
