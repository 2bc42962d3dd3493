package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Under {@code bin/mpjrun} a blocking receive, or a wait, whose status the program ignores allocates
 * nothing once the JIT has compiled the program's loop: the launcher keeps the receive and the wait
 * themselves out of line, so that {@code recv}, {@code Recv}, {@code sendRecv}, {@code Sendrecv},
 * {@code Wait} and {@code waitStatus} stay small enough to inline into the loop, where escape
 * analysis drops the {@code Status}; and a persistent request started again makes no new request. The program counts the bytes
 * its thread allocates per receive, round after round, until a round allocates next to nothing on
 * every rank;
 * then it checks that a status it keeps is still right. And the launcher's JIT directives print
 * nothing: the program's output is its own.
 */
class ReceiveStatusLaunchTest {
    @TempDir
    Path dir;

    /**
     * Each rank receives from its left neighbour (itself, with one rank) in both dialects, blocking,
     * through Sendrecv and through persistent requests started again and waited for, ignoring the
     * statuses, in rounds of 5,000 of each, until every rank's
     * round allocated under a byte per receive (or for a minute: on a loaded machine the JIT may
     * take seconds to compile the loop); prints its first and last round's bytes per receive.
     */
    private Path program() throws Exception {
        return Sources.write(dir, "IgnoredStatus.java", String.join("\n",
            "import mpi.*;",
            "public class IgnoredStatus {",
            "    static final com.sun.management.ThreadMXBean MX =",
            "        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();",
            "    static Prequest sendAgain, recvAgain, sendOmpi, recvOmpi;",
            "    static double round(int right, int left, int[] out, int[] in, int n) throws MPIException {",
            "        long before = MX.getCurrentThreadAllocatedBytes();",
            "        for (int i = 0; i < n; i++) {",
            "            recvAgain.Start();",
            "            sendAgain.Start();",
            "            sendAgain.Wait();",
            "            recvAgain.Wait();",
            "            recvOmpi.start();",
            "            sendOmpi.start();",
            "            sendOmpi.waitFor();",
            "            recvOmpi.waitStatus();",
            "            MPI.COMM_WORLD.send(out, 1, MPI.INT, right, 1);",
            "            MPI.COMM_WORLD.recv(in, 1, MPI.INT, left, 1);",
            "            MPI.COMM_WORLD.Send(out, 0, 1, MPI.INT, right, 2);",
            "            MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, left, 2);",
            "            MPI.COMM_WORLD.sendRecv(out, 1, MPI.INT, right, 3, in, 1, MPI.INT, left, 3);",
            "            MPI.COMM_WORLD.Sendrecv(out, 0, 1, MPI.INT, right, 4, in, 0, 1, MPI.INT, left, 4);",
            "            MPI.COMM_WORLD.recv(in, 1, MPI.INT, MPI.PROC_NULL, 5);",
            "        }",
            "        return (MX.getCurrentThreadAllocatedBytes() - before) / (7.0 * n);",
            "    }",
            "    public static void main(String[] args) throws Exception {",
            "        MPI.Init(args);",
            "        int me = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();",
            "        int right = (me + 1) % size, left = (me + size - 1) % size;",
            "        int[] out = {me}, in = {-1};",
            "        sendAgain = MPI.COMM_WORLD.Send_init(out, 0, 1, MPI.INT, right, 7);",
            "        recvAgain = MPI.COMM_WORLD.Recv_init(in, 0, 1, MPI.INT, left, 7);",
            "        sendOmpi = MPI.COMM_WORLD.sendInit(out, 1, MPI.INT, right, 8);",
            "        recvOmpi = MPI.COMM_WORLD.recvInit(in, 1, MPI.INT, left, 8);",
            "        long start = System.nanoTime();",
            "        double first = round(right, left, out, in, 5000), last = first;",
            "        int rounds = 1;",
            "        double[] mine = {last, 0}, worst = {0, 0};",
            "        MPI.COMM_WORLD.allReduce(mine, worst, 2, MPI.DOUBLE, MPI.MAX);",
            "        while (worst[0] >= 1 && worst[1] < 60) {",
            "            mine[0] = last = round(right, left, out, in, 5000);",
            "            mine[1] = (System.nanoTime() - start) / 1e9;",
            "            rounds++;",
            "            MPI.COMM_WORLD.allReduce(mine, worst, 2, MPI.DOUBLE, MPI.MAX);",
            "        }",
            "        MPI.COMM_WORLD.send(out, 1, MPI.INT, right, 6);",
            "        Status kept = MPI.COMM_WORLD.recv(in, 1, MPI.INT, left, 6);",
            "        MPI.COMM_WORLD.Barrier();",
            "        System.out.printf(java.util.Locale.ROOT, \"rank %d: %.1f B per receive at first, %.2f B after %d rounds;\"",
            "            + \" kept status: source %d tag %d count %d, data %d%n\", me, first, last, rounds,",
            "            kept.getSource(), kept.getTag(), kept.getCount(MPI.INT), in[0]);",
            "        MPI.Finalize();",
            "    }",
            "}",
            ""));
    }

    /**
     * Whether escape analysis drops the status depends on what C2 compiled from the loop's profile,
     * and a compilation may inline differently and keep it for the rest of the run; so a run whose
     * ranks still allocate is run once more, and the second run decides. A status that is wrong, or
     * output that is not the program's, fails at once.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2})
    @Timeout(480)
    void ignoredStatusesAreNotAllocated(int ranks) throws Exception {
        Path program = program();
        String stillAllocating = run(program, ranks);
        if (stillAllocating != null) {
            String again = run(program, ranks);
            assertTrue(again == null, "in two runs: " + stillAllocating + "; then " + again);
        }
    }

    /** Runs the program, checks its statuses and output, and returns a rank's line that still allocates, or null. */
    private static String run(Path program, int ranks) throws Exception {
        List<String> run = Subprocesses.runMpjrun(200, "-np", String.valueOf(ranks), program.toString());
        String out = run.get(1);
        String report = out + run.get(2);
        assertEquals(0, Integer.parseInt(run.get(0)), report);
        assertFalse(out.contains("CompileCommand"), "the launcher's JIT directives printed: " + report);
        List<String> lines = out.lines().toList();
        assertEquals(ranks, lines.size(), report);
        String stillAllocating = null;
        for (int rank = 0; rank < ranks; rank++) {
            int left = (rank + ranks - 1) % ranks;
            String prefix = "rank " + rank + ":";
            String line = lines.stream().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow(
                () -> new AssertionError("no line starting " + prefix + " " + report));
            assertTrue(line.endsWith("kept status: source " + left + " tag 6 count 1, data " + left), line);
            double last = Double.parseDouble(line.replaceAll(".*B per receive at first, ([0-9.]+) B after.*", "$1"));
            if (last >= 1 && stillAllocating == null) {
                stillAllocating = "rank " + rank + " still allocates per receive: " + line;
            }
        }
        return stillAllocating;
    }
}
