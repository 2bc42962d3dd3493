package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpjlite.smpdev.ThreadKind;

/**
 * {@code --stack-size} through {@code bin/mpjrun} for virtual ranks: a virtual thread recurses only
 * as deep as the JVM's {@code -Xss} lets its carrier thread, so the script starts the JVM with
 * {@code -Xss} set to {@code --stack-size}. 5,000 arrays nested in each other sent as
 * {@code MPI.OBJECT} (serialization recurses once per level) overflow the 1 MiB of a JVM's default
 * thread stack, and fit the 8 MiB of a rank's default stack (about twice over).
 */
class StackSizeLaunchTest {
    private static final String LEVELS = "5000";

    @TempDir
    Path dir;

    /** Rank 0 broadcasts args[0] arrays nested in each other; every rank counts the levels. */
    private Path program() throws Exception {
        return Sources.write(dir, "Nested.java", String.join("\n",
            "import mpi.*;",
            "public class Nested {",
            "    public static void main(String[] args) throws Exception {",
            "        MPI.Init(args);",
            "        Object[] nest = {};",
            "        for (int i = Integer.parseInt(args[0]); i > 0; i--) nest = new Object[] {nest};",
            "        Object[] buf = {MPI.COMM_WORLD.Rank() == 0 ? nest : null};",
            "        MPI.COMM_WORLD.Bcast(buf, 0, 1, MPI.OBJECT, 0);",
            "        int levels = 0;",
            "        for (Object[] x = (Object[]) buf[0]; x.length == 1; x = (Object[]) x[0]) levels++;",
            "        System.out.println(\"rank \" + MPI.COMM_WORLD.Rank() + \" got \" + levels + \" levels\");",
            "        MPI.Finalize();",
            "    }",
            "}",
            ""));
    }

    /** Runs bin/mpjrun; returns its exit code, then its output (the program's) and its errors. */
    private static List<String> mpjrun(String... args) throws Exception {
        return Subprocesses.runMpjrun(60, args);
    }

    @ParameterizedTest(name = "{0} threads, {1} ranks")
    @CsvSource({"platform, 1", "platform, 3", "virtual, 1", "virtual, 3"})
    @Timeout(120)
    void ranksOfEitherKindRecurseAsDeepAsTheDefaultStackLets(String threads, int ranks) throws Exception {
        assumeTrue(ThreadKind.parse(threads).available(), "JDK 21 or later");
        List<String> r = mpjrun("-np", String.valueOf(ranks), "--threads", threads, program().toString(), LEVELS);
        assertEquals("0", r.get(0), r.toString());
        for (int rank = 0; rank < ranks; rank++) {
            assertTrue(r.get(1).contains("rank " + rank + " got " + LEVELS + " levels\n"), r.toString());
        }
    }

    @Test
    @Timeout(120)
    void aVirtualRankRecursingPastTheStackSizeIsReportedWithTheStackThatBoundsIt() throws Exception {
        assumeTrue(ThreadKind.VIRTUAL.available(), "JDK 21 or later");
        List<String> r = mpjrun("-np", "3", "--threads", "virtual", "--stack-size", "1m", program().toString(), LEVELS);
        assertEquals("1", r.get(0), r.toString());
        String err = r.get(2);
        assertTrue(err.startsWith("mpjrun: rank 0 failed: java.lang.StackOverflowError (the rank's stack of 1m, the"
            + " JVM's default thread stack (-Xss, which bounds a virtual rank; mpjrun sets it to --stack-size), is"
            + " full: a larger --stack-size"), err);
        assertTrue(err.contains("mpjrun: job ended with exit code 1\n"), err);
    }

    /**
     * The script finds --stack-size among the options by skipping the values of the options that
     * take one: its list must be the launcher's.
     */
    @Test
    void theScriptSkipsTheValuesOfTheOptionsThatTakeOne() throws Exception {
        String script = Files.readString(Subprocesses.SCRIPT);
        Matcher list = Pattern.compile("\\n\\s*(-np \\| -n \\|[^)]*)\\)").matcher(script);
        assertTrue(list.find(), "no list of options in " + Subprocesses.SCRIPT);
        Set<String> skipped = new TreeSet<>();
        for (String option : list.group(1).replace("\\\n", " ").split("\\|")) {
            skipped.add(option.trim());
        }
        Set<String> takingValues = new TreeSet<>();
        Matcher option = Pattern.compile("(?m)^  (-[^ ].*?)(?:  |$)").matcher(LaunchOptions.USAGE);
        while (option.find()) {
            for (String word : option.group(1).split("[ ,]+")) {
                if (word.startsWith("-") && LaunchOptions.takesValue(word)) {
                    takingValues.add(word);
                }
            }
        }
        takingValues.remove("--stack-size"); // the script reads its value
        assertEquals(takingValues, skipped);
    }

    /**
     * Without {@code --threads}, mpjrun's ranks are virtual when they outnumber the cores on JDK 24
     * or later (mpjrun gives the JVM the -Xss that a virtual rank's stack needs), platform otherwise.
     */
    @Test
    @Timeout(120)
    void theDefaultKindIsVirtualForMoreRanksThanCoresOnJdk24() throws Exception {
        Path kind = Sources.write(dir, "Kind.java", String.join("\n",
            "import mpi.*;",
            "public class Kind {",
            "    public static void main(String[] args) throws Exception {",
            "        MPI.Init(args);",
            "        boolean virtual = Thread.currentThread().toString().startsWith(\"VirtualThread\");",
            "        System.out.println(\"rank \" + MPI.COMM_WORLD.Rank() + (virtual ? \" virtual\" : \" platform\"));",
            "        MPI.Finalize();",
            "    }",
            "}",
            ""));
        int many = Runtime.getRuntime().availableProcessors() + 1;
        String expected = Runtime.version().feature() >= 24 ? "virtual" : "platform";
        List<String> r = mpjrun("-np", String.valueOf(many), kind.toString());
        assertEquals("0", r.get(0), r.toString());
        for (int rank = 0; rank < many; rank++) {
            assertTrue(r.get(1).contains("rank " + rank + " " + expected + "\n"), r.toString());
        }
        r = mpjrun("-np", "1", kind.toString());
        assertEquals("0", r.get(0), r.toString());
        assertTrue(r.get(1).contains("rank 0 platform\n"), r.toString());
    }
}
