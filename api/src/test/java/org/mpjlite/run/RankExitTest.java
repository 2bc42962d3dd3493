package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code System.exit} in a program under {@code mpjrun} ends one rank, as it ends one process
 * under mpirun: status 0 lets the other ranks finish, another status ends the job with it.
 */
class RankExitTest {
    @TempDir
    Path dir;

    /**
     * Every rank but 0 leaves with {@code System.exit(0)} (directly or through a method reference)
     * right after Finalize; rank 0 goes on working and writes the file named by its argument.
     */
    private static final String LEAVERS = String.join("\n",
        "import java.util.function.IntConsumer;",
        "import mpi.*;",
        "public class Leavers {",
        "    public static void main(String[] args) throws Exception {",
        "        MPI.Init(args);",
        "        int me = MPI.COMM_WORLD.getRank();",
        "        MPI.COMM_WORLD.barrier();",
        "        MPI.Finalize();",
        "        if (me % 2 == 1) {",
        "            System.exit(0);",
        "        } else if (me != 0) {",
        "            IntConsumer leave = System::exit;",
        "            leave.accept(0);",
        "        }",
        "        Thread.sleep(300);",
        "        java.nio.file.Files.writeString(java.nio.file.Path.of(args[0]), \"rank 0 finished\");",
        "    }",
        "}");

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 5})
    void exitWithStatusZeroEndsOnlyTheCallingRank(int ranks) throws Exception {
        Path src = Sources.write(dir, "Leavers.java", LEAVERS);
        Path marker = dir.resolve("done-" + ranks);
        Launch.Outcome run = Launch.mpjrun("-np", String.valueOf(ranks), src.toString(), marker.toString());
        assertEquals(0, run.exitCode(), run.toString());
        assertEquals("rank 0 finished", Files.readString(marker));

        // The same from a class path (classes the launcher reads from a directory, not compiles).
        Path classes = dir.resolve("classes");
        Sources.compile(classes, src);
        Path marker2 = dir.resolve("done-cp-" + ranks);
        run = Launch.mpjrun("-np", String.valueOf(ranks), "-cp", classes.toString(), "Leavers", marker2.toString());
        assertEquals(0, run.exitCode(), run.toString());
        assertEquals("rank 0 finished", Files.readString(marker2));
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 5})
    void exitWithAnotherStatusEndsTheJobWithIt(int ranks) throws Exception {
        Path src = Sources.write(dir, "Skip.java", String.join("\n",
            "import mpi.*;",
            "public class Skip {",
            "    public static void main(String[] args) throws Exception {",
            "        MPI.Init(args);",
            "        int me = MPI.COMM_WORLD.getRank();",
            "        if (me == MPI.COMM_WORLD.getSize() - 1) {",
            "            MPI.Finalize();",
            "            System.exit(77);",
            "        }",
            "        MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 0);",
            "    }",
            "}"));
        Launch.Outcome run = Launch.mpjrun("-np", String.valueOf(ranks), src.toString());
        assertEquals(77, run.exitCode(), run.toString());
        assertTrue(run.err().contains("rank " + (ranks - 1) + " called System.exit(77)"), run.err());
    }

    @Test
    void classesThatDoNotExitAreLeftAsTheyAre() throws Exception {
        Path classes = dir.resolve("plain");
        Sources.compile(classes, Sources.write(dir, "Plain.java",
            "public class Plain { public static void main(String[] a) { System.out.println(a.length); } }"));
        byte[] bytes = Files.readAllBytes(classes.resolve("Plain.class"));
        assertSame(bytes, ExitRedirect.transform(bytes));
        byte[] notAClass = {1, 2, 3};
        assertSame(notAClass, ExitRedirect.transform(notAClass));
    }
}
