package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** mpjrun end to end, through {@link MpjRun#run}: the three program forms, isolation, failures. */
class MpjRunTest {
    /** Each rank writes "rank R of N: ARGS" to rank-R.txt in the directory given as args[0]. */
    private static final String TWO_CLASSES = String.join("\n",
        "package demo.app;",
        "import java.nio.file.*;",
        "import mpi.*;",
        "public class Main {",
        "    public static void main(String[] args) throws Exception {",
        "        MPI.Init(args);",
        "        Report.write(Path.of(args[0]), MPI.COMM_WORLD.getRank(), MPI.COMM_WORLD.getSize(), args);",
        "        MPI.Finalize();",
        "    }",
        "}",
        "class Report {",
        "    static void write(Path dir, int rank, int size, String[] args) throws Exception {",
        "        Files.writeString(dir.resolve(\"rank-\" + rank + \".txt\"),",
        "            \"rank \" + rank + \" of \" + size + \": \" + String.join(\" \", args));",
        "    }",
        "    public static void main(String[] args) { throw new AssertionError(\"not the first class\"); }",
        "}",
        "");

    @TempDir
    Path dir;

    @Test
    void compilesASourceFileInMemoryAndRunsItsFirstClass() throws Exception {
        Path src = Sources.write(dir, "Main.java", TWO_CLASSES);
        Path outDir = Files.createDirectory(dir.resolve("out"));
        Launch.Outcome r = Launch.mpjrun("-np", "3", src.toString(), outDir.toString(), "--x", "y");
        assertEquals(0, r.exitCode(), r.toString());
        for (int rank = 0; rank < 3; rank++) {
            assertEquals("rank " + rank + " of 3: " + outDir + " --x y",
                Files.readString(outDir.resolve("rank-" + rank + ".txt")));
        }
        try (var files = Files.walk(dir)) {
            assertFalse(files.anyMatch(p -> p.toString().endsWith(".class")), "no class file may be written");
        }
    }

    @Test
    void reportsCompileErrorsLikeJavacAndStartsNoRank() throws Exception {
        Path src = Sources.write(dir, "Broken.java", String.join("\n",
            "import mpi.*;",
            "public class Broken {",
            "    public static void main(String[] args) {",
            "        MPI.Init(args);",
            "        int x = \"not a number\";",
            "    }",
            "}",
            ""));
        Launch.Outcome r = Launch.mpjrun("-np", "2", src.toString());
        assertEquals(2, r.exitCode(), r.toString());
        assertTrue(r.err().contains("Broken.java:5: error: incompatible types"), r.toString());
        assertTrue(r.err().contains("1 error"), r.toString());
        assertTrue(r.err().contains("mpjrun: compilation of " + src + " failed"), r.toString());
        assertFalse(r.err().contains("rank"), r.toString());
    }

    @Test
    void runsTheMainClassOfAJarManifest() throws Exception {
        Path src = Sources.write(dir.resolve("src"), "demo/app/Main.java", TWO_CLASSES);
        Sources.compile(dir.resolve("classes"), src);
        Path jar = Sources.jar(dir.resolve("app.jar"), dir.resolve("classes"), "demo.app.Main");
        Path outDir = Files.createDirectory(dir.resolve("out"));
        Launch.Outcome r = Launch.mpjrun("-n", "2", jar.toString(), outDir.toString());
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals("rank 1 of 2: " + outDir, Files.readString(outDir.resolve("rank-1.txt")));
    }

    @Test
    void aJarWithoutMainClassIsAUsageError() throws Exception {
        Files.createDirectory(dir.resolve("classes"));
        Path jar = Sources.jar(dir.resolve("lib.jar"), dir.resolve("classes"), null);
        Launch.Outcome r = Launch.mpjrun(jar.toString());
        assertEquals(2, r.exitCode(), r.toString());
        assertTrue(r.err().contains("has no Main-Class in its manifest"), r.toString());
    }

    @Test
    void runsAClassFromTheClasspath() throws Exception {
        Path src = Sources.write(dir.resolve("src"), "demo/app/Main.java", TWO_CLASSES);
        Sources.compile(dir.resolve("classes"), src);
        Path outDir = Files.createDirectory(dir.resolve("out"));
        Launch.Outcome r = Launch.mpjrun("-np", "2", "-cp", dir.resolve("classes").toString(), "demo.app.Main",
            outDir.toString());
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals("rank 0 of 2: " + outDir, Files.readString(outDir.resolve("rank-0.txt")));
    }

    @Test
    void aMissingClassOrMainIsAUsageError() throws Exception {
        Launch.Outcome missing = Launch.mpjrun("-cp", dir.toString(), "NoSuchProgram");
        assertEquals(2, missing.exitCode(), missing.toString());
        assertTrue(missing.err().contains("cannot find main class NoSuchProgram"), missing.toString());

        Path src = Sources.write(dir, "Lib.java", "public class Lib { static void main(String[] a) { } }");
        Launch.Outcome noMain = Launch.mpjrun(src.toString());
        assertEquals(2, noMain.exitCode(), noMain.toString());
        assertTrue(noMain.err().contains("Lib has no method public static void main(String[] args)"),
            noMain.toString());

        Launch.Outcome noFile = Launch.mpjrun(dir.resolve("Nowhere.java").toString());
        assertEquals(2, noFile.exitCode(), noFile.toString());
        assertTrue(noFile.err().contains("file not found"), noFile.toString());
    }

    @Test
    void staticFieldsArePerRankWithFourRanks() throws Exception {
        Path src = Sources.write(dir, "Counter.java", Sources.STATIC_COUNTER);
        Launch.Outcome r = Launch.mpjrun("-np", "4", src.toString());
        assertEquals(0, r.exitCode(), r.toString());
    }

    @Test
    void staticFieldsArePerRankWithThreeRanksFromClassFiles() throws Exception {
        Path src = Sources.write(dir.resolve("src"), "Counter.java", Sources.STATIC_COUNTER);
        Sources.compile(dir.resolve("classes"), src);
        Launch.Outcome r = Launch.mpjrun("-np", "3", "--matching", "lockfree", "-cp", dir.resolve("classes").toString(),
            "Counter");
        assertEquals(0, r.exitCode(), r.toString());
    }

    @Test
    void aFailingRankNamesItselfAndItsExceptionOnly() throws Exception {
        Path src = Sources.write(dir, "Fails.java", String.join("\n",
            "import mpi.*;",
            "public class Fails {",
            "    public static void main(String[] args) {",
            "        MPI.Init(args);",
            "        if (MPI.COMM_WORLD.Rank() == 2) explode();",
            "        MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 2, 0);",  // released by the failure
            "        MPI.Finalize();",
            "    }",
            "    static void explode() { throw new IllegalStateException(\"boom\"); }",
            "}",
            ""));
        Launch.Outcome r = Launch.mpjrun("-np", "4", src.toString());
        assertEquals(1, r.exitCode(), r.toString());
        assertTrue(r.err().startsWith("mpjrun: rank 2 failed: java.lang.IllegalStateException: boom\n"), r.toString());
        assertTrue(r.err().contains("at Fails.explode(Fails.java:9)"), r.toString());
        assertTrue(r.err().contains("at Fails.main(Fails.java:5)"), r.toString());
        assertFalse(r.err().contains("org.mpjlite.run."), "launcher frames should be trimmed:\n" + r);
        assertFalse(r.err().contains("reflect"), "reflection frames should be trimmed:\n" + r);
        assertFalse(r.err().contains("rank 0 failed") || r.err().contains("rank 1 failed")
            || r.err().contains("rank 3 failed"), "ranks released by the failure are not failures:\n" + r);
        assertTrue(r.err().endsWith("mpjrun: job ended with exit code 1\n"), r.toString());
    }

    @Test
    void abortEndsTheJobWithItsCode() throws Exception {
        Path src = Sources.write(dir, "Aborts.java", String.join("\n",
            "import mpi.*;",
            "public class Aborts {",
            "    public static void main(String[] args) {",
            "        MPI.Init(args);",
            "        if (MPI.COMM_WORLD.Rank() == 1) MPI.COMM_WORLD.Abort(3);",
            "        MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 1, 0);",
            "        MPI.Finalize();",
            "    }",
            "}",
            ""));
        Launch.Outcome r = Launch.mpjrun("-np", "3", src.toString());
        assertEquals(3, r.exitCode(), r.toString());
        assertEquals("mpjrun: rank 1 called Abort(3)\nmpjrun: job ended with exit code 3\n", r.err());
    }
}
