package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpjlite.smpdev.DeadlockException;

/**
 * A program of the user's own in package {@code mpi} (as old MPJ Express test suites are): it runs,
 * and reports name its own lines, because user code is told from the library by its class loader.
 */
class UserPackageMpiTest {
    @TempDir
    Path dir;

    private static final String HEAD_TO_HEAD = Sources.headToHead("package mpi;");

    @Test
    void aSourceFileInPackageMpiIsReportedAtItsOwnLine() throws Exception {
        Path src = Sources.write(dir, "HeadToHead.java", HEAD_TO_HEAD);
        Launch.Outcome r = Launch.mpjrun("-np", "2", src.toString());
        assertDeadlockAtUserLine(r);
    }

    @Test
    void aCompiledClassInPackageMpiIsReportedAtItsOwnLine() throws Exception {
        Path src = Sources.write(dir.resolve("src"), "mpi/HeadToHead.java", HEAD_TO_HEAD);
        Path classes = dir.resolve("classes");
        Sources.compile(classes, src);
        Launch.Outcome r = Launch.mpjrun("-np", "2", "-cp", classes.toString(), "mpi.HeadToHead");
        assertDeadlockAtUserLine(r);
    }

    @Test
    void aMismatchNamesTheLinesOfAProgramInPackageMpi() throws Exception {
        Path src = Sources.write(dir, "Roots.java", String.join("\n",
            "package mpi;",
            "public class Roots {",
            "    public static void main(String[] args) {",
            "        MPI.Init(args);",
            "        int me = MPI.COMM_WORLD.Rank();",
            "        MPI.COMM_WORLD.Bcast(new int[1], 0, 1, MPI.INT, me);",
            "        MPI.Finalize();",
            "    }",
            "}",
            ""));
        Launch.Outcome r = Launch.mpjrun("-np", "2", src.toString());
        assertTrue(r.exitCode() != 0, r.toString());
        assertTrue(r.err().contains("Roots.java:6"), r.toString());
        assertTrue(!r.err().contains("UserProgram"), r.toString());
    }

    private static void assertDeadlockAtUserLine(Launch.Outcome r) {
        assertEquals(DeadlockException.EXIT_CODE, r.exitCode(), r.toString());
        String err = r.err();
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(err.contains("rank " + rank + ": Recv(source=" + (1 - rank) + ", tag=5, comm=MPI.COMM_WORLD,"
                + " count=1, MPI.INT)\n          at mpi.HeadToHead.main(HeadToHead.java:7)"), err);
        }
    }
}
