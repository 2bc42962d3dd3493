package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code mpjrun File.java} as {@code java File.java} (JEP 330): the first top-level class of the
 * file is the main class whatever the file is called, even a public one, and the arguments and
 * standard input reach it.
 */
class SourceLauncherTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3})
    void aPublicClassNeedNotBeNamedAfterItsFile(int ranks) throws Exception {
        Path out = dir.resolve("out.txt");
        Path src = Sources.write(dir, "program.java", String.join("\n",
            "import mpi.*;",
            "public class Greeter {",
            "    public static void main(String[] args) throws Exception {",
            "        MPI.Init(args);",
            "        int[] sum = new int[1];",
            "        MPI.COMM_WORLD.Allreduce(new int[] {Helper.twice(MPI.COMM_WORLD.Rank())}, 0, sum, 0, 1, MPI.INT,",
            "            MPI.SUM);",
            "        if (MPI.COMM_WORLD.Rank() == 0) {",
            "            java.nio.file.Files.writeString(java.nio.file.Path.of(args[0]),",
            "                String.join(\",\", args) + \";\" + sum[0]);",
            "        }",
            "        MPI.Finalize();",
            "    }",
            "}",
            "public class Helper {",
            "    static int twice(int x) { return 2 * x; }",
            "}",
            ""));
        Launch.Outcome r = Launch.mpjrun("-np", String.valueOf(ranks), src.toString(), out.toString(), "--x", "y");
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(out + ",--x,y;" + ranks * (ranks - 1), Files.readString(out));
    }

    @Test
    void standardInputReachesTheProgram() throws Exception {
        Path out = dir.resolve("out.txt");
        Path src = Sources.write(dir, "echo.java", String.join("\n",
            "public class Echo {",
            "    public static void main(String[] args) throws Exception {",
            "        mpi.MPI.Init(args);",
            "        String line = new java.io.BufferedReader(new java.io.InputStreamReader(System.in)).readLine();",
            "        java.nio.file.Files.writeString(java.nio.file.Path.of(args[0]), line);",
            "        mpi.MPI.Finalize();",
            "    }",
            "}",
            ""));
        InputStream stdin = System.in;
        try {
            System.setIn(new ByteArrayInputStream("hello from stdin\n".getBytes(StandardCharsets.UTF_8)));
            Launch.Outcome r = Launch.mpjrun(src.toString(), out.toString());
            assertEquals(0, r.exitCode(), r.toString());
        } finally {
            System.setIn(stdin);
        }
        assertEquals("hello from stdin", Files.readString(out));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"class", "interface", "record", "enum"})
    void theFirstTopLevelTypeIsTheMainClassEvenIfALaterOneHasMain(String kind) throws Exception {
        Path out = dir.resolve("out.txt");
        String first = switch (kind) {
            case "record" -> "record First(int x) {";
            case "enum" -> "enum First { ONE;";
            default -> kind + " First {";
        };
        Path src = Sources.write(dir, "Second.java", String.join("\n",
            first,
            "    public static void main(String[] args) throws Exception {",
            "        java.nio.file.Files.writeString(java.nio.file.Path.of(args[0]), \"first\");",
            "    }",
            "}",
            "class Second {",
            "    public static void main(String[] args) throws Exception {",
            "        java.nio.file.Files.writeString(java.nio.file.Path.of(args[0]), \"second\");",
            "    }",
            "}",
            ""));
        Launch.Outcome r = Launch.mpjrun(src.toString(), out.toString());
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals("first", Files.readString(out));
    }
}
