package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpjlite.p2p.Jobs;

/**
 * {@code bin/mpjrun} starts the JVM with the parallel collector, conditional card marks and a young
 * generation of fixed size (no adaptive size policy), unless the user chose a collector in
 * {@code MPJLITE_JAVA_OPTS}, {@code JAVA_TOOL_OPTIONS} or {@code JDK_JAVA_OPTIONS}: then that one
 * runs with the JVM's own options, and the JVM does not refuse to start for two.
 */
class CollectorLaunchTest {
    private static final Map<String, String> NO_USER_OPTIONS = Map.of(
        "MPJLITE_JAVA_OPTS", "", "JAVA_TOOL_OPTIONS", "", "JDK_JAVA_OPTIONS", "");

    @TempDir
    Path dir;

    /** Every rank prints the names of the JVM's collectors, sorted, and the two options mpjrun sets. */
    private Path program() throws Exception {
        return Sources.write(dir, "Collector.java", String.join("\n",
            "import java.lang.management.*;",
            "import mpi.*;",
            "public class Collector {",
            "    public static void main(String[] args) throws Exception {",
            "        MPI.Init(args);",
            "        java.util.Set<String> names = new java.util.TreeSet<>();",
            "        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {",
            "            names.add(gc.getName());",
            "        }",
            "        com.sun.management.HotSpotDiagnosticMXBean hs =",
            "            ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);",
            "        System.out.println(\"rank \" + MPI.COMM_WORLD.getRank() + \": \" + names",
            "            + \"; UseCondCardMark=\" + hs.getVMOption(\"UseCondCardMark\").getValue()",
            "            + \"; UseAdaptiveSizePolicy=\" + hs.getVMOption(\"UseAdaptiveSizePolicy\").getValue());",
            "        MPI.Finalize();",
            "    }",
            "}",
            ""));
    }

    /**
     * mpjrun's own options; {@code options} in {@code MPJLITE_JAVA_OPTS} (empty: unset), which come
     * after them, override one.
     */
    @ParameterizedTest(name = "MPJLITE_JAVA_OPTS=''{0}''")
    @CsvSource({
        "'', 3, false",
        "-XX:+UseAdaptiveSizePolicy, 2, true",
    })
    @Timeout(120)
    void theParallelCollectorRunsWithConditionalCardMarks(String options, int ranks, boolean adaptive)
        throws Exception {
        String out = output(ranks, "MPJLITE_JAVA_OPTS", options);
        for (int rank = 0; rank < ranks; rank++) {
            Jobs.assertMentions(out, "rank " + rank + ": [PS MarkSweep, PS Scavenge]; UseCondCardMark=true;"
                + " UseAdaptiveSizePolicy=" + adaptive + "\n");
        }
    }

    /** {@code collectors}: the names printed, or one of them (G1 has a third from JDK 20 on). */
    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
        "MPJLITE_JAVA_OPTS, -Xmx256m -XX:+UseSerialGC, '[Copy, MarkSweepCompact]'",
        "MPJLITE_JAVA_OPTS, -XX:+UseG1GC, G1 Young Generation",
        "JAVA_TOOL_OPTIONS, -XX:+UseSerialGC, '[Copy, MarkSweepCompact]'",
        "JDK_JAVA_OPTIONS, -XX:+UseG1GC, G1 Young Generation",
    })
    @Timeout(120)
    void aCollectorTheUserChoseRuns(String variable, String options, String collectors) throws Exception {
        String out = output(2, variable, options);
        for (int rank = 0; rank < 2; rank++) {
            String prefix = "rank " + rank + ": ";
            String line = out.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse("");
            Jobs.assertMentions(line, collectors, "; UseCondCardMark=false; UseAdaptiveSizePolicy=true");
        }
    }

    /**
     * What the program printed on {@code ranks} ranks with {@code variable} set to {@code options}
     * (empty: unset), after asserting that mpjrun exited with 0.
     */
    private String output(int ranks, String variable, String options) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(NO_USER_OPTIONS);
        env.put(variable, options);
        List<String> r = Subprocesses.runMpjrun(60, env, "-np", String.valueOf(ranks), program().toString());
        assertEquals("0", r.get(0), r.toString());
        return r.get(1);
    }
}
