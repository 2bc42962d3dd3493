package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.smpdev.ThreadKind;

/**
 * {@code --stack-size} through {@code bin/mpjrun} for virtual ranks: a virtual thread recurses only
 * as deep as the JVM's {@code -Xss} lets its carrier thread, so the script starts the JVM with
 * {@code -Xss} set to {@code --stack-size}. A list of 5,000 nodes sent as {@code MPI.OBJECT}
 * (serialization recurses once per node) needs about 4 MiB: it overflows the 1 MiB of a JVM's
 * default thread stack, and fits the 8 MiB of a rank's default stack.
 */
class StackSizeLaunchTest {
    private static final String NODES = "5000";

    @TempDir
    Path dir;

    /** Rank 0 broadcasts a list of args[0] nodes; every rank counts them. */
    private Path program() throws Exception {
        return Sources.write(dir, "LongList.java", String.join("\n",
            "import mpi.*;",
            "public class LongList {",
            "    static final class Node implements java.io.Serializable {",
            "        final int value; final Node next;",
            "        Node(int value, Node next) { this.value = value; this.next = next; }",
            "    }",
            "    public static void main(String[] args) throws Exception {",
            "        MPI.Init(args);",
            "        int length = Integer.parseInt(args[0]);",
            "        Node head = null;",
            "        for (int i = length - 1; i >= 0; i--) head = new Node(i, head);",
            "        Object[] buf = {MPI.COMM_WORLD.Rank() == 0 ? head : null};",
            "        MPI.COMM_WORLD.Bcast(buf, 0, 1, MPI.OBJECT, 0);",
            "        int n = 0;",
            "        for (Node x = (Node) buf[0]; x != null; x = x.next) if (x.value == n) n++;",
            "        if (n != length) throw new IllegalStateException(\"got \" + n + \" nodes\");",
            "        System.out.println(\"rank \" + MPI.COMM_WORLD.Rank() + \" got \" + n + \" nodes\");",
            "        MPI.Finalize();",
            "    }",
            "}",
            ""));
    }

    /** Runs bin/mpjrun; returns its exit code, then its output (the program's) and its errors. */
    private static List<String> mpjrun(String... args) throws Exception {
        Process p = Subprocesses.startMpjrun(List.of(args));
        StringBuilder err = Subprocesses.drain(p.getErrorStream());
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "mpjrun did not end");
        synchronized (err) {
            return List.of(String.valueOf(p.exitValue()), out, err.toString());
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 3})
    @Timeout(120)
    void virtualRanksRecurseAsDeepAsTheDefaultStackLets(int ranks) throws Exception {
        assumeTrue(ThreadKind.VIRTUAL.available(), "JDK 21 or later");
        List<String> r = mpjrun("-np", String.valueOf(ranks), "--threads", "virtual", program().toString(), NODES);
        assertEquals("0", r.get(0), r.toString());
        for (int rank = 0; rank < ranks; rank++) {
            assertTrue(r.get(1).contains("rank " + rank + " got " + NODES + " nodes\n"), r.toString());
        }
    }

    @Test
    @Timeout(120)
    void aVirtualRankRecursingPastTheStackSizeIsReportedWithTheStackThatBoundsIt() throws Exception {
        assumeTrue(ThreadKind.VIRTUAL.available(), "JDK 21 or later");
        List<String> r = mpjrun("-np", "3", "--threads", "virtual", "--stack-size", "1m", program().toString(), NODES);
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
}
