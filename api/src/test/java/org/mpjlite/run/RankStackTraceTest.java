package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rank's own stack trace ends at the program's {@code main}, as a JVM's main thread's does: test
 * suites take the outermost frame for the main class and the frames near the top for the line of
 * an error.
 */
class RankStackTraceTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3})
    void theOutermostFrameIsMainAndTheTopOnesAreTheCallers(int ranks) throws Exception {
        Path src = Sources.write(dir, "Where.java", String.join("\n",
            "import mpi.*;",
            "public class Where {",
            "    static String here() {",
            "        StackTraceElement[] t = Thread.currentThread().getStackTrace();",
            "        StackTraceElement last = t[t.length - 1];",
            "        return t[0].getMethodName() + \" \" + t[1].getMethodName() + \" \" + t[2].getMethodName() + \":\"",
            "            + t[2].getLineNumber() + \" \" + last.getClassName() + \".\" + last.getMethodName();",
            "    }",
            "    public static void main(String[] args) throws Exception {",
            "        MPI.Init(args);",
            "        String where = here();",
            "        if (MPI.COMM_WORLD.getRank() == 0) {",
            "            java.nio.file.Files.writeString(java.nio.file.Path.of(args[0]), where);",
            "        }",
            "        MPI.Finalize();",
            "    }",
            "}"));
        Path out = dir.resolve("where-" + ranks);
        Launch.Outcome run = Launch.mpjrun("-np", String.valueOf(ranks), src.toString(), out.toString());
        assertEquals(0, run.exitCode(), run.toString());
        assertEquals("getStackTrace here main:11 Where.main", Files.readString(out));
    }
}
