package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Misuse that the cheap default checks report without lines and {@code --check} reports with the
 * user's line of every call involved: send/receive type signatures that do not match, a send
 * buffer written while its non-blocking send is pending, requests never completed and operations
 * still pending at Finalize. On 2, 3 and 8 ranks (ranks above 1 only call Init and Finalize).
 */
class CheckModeTest {
    @TempDir
    Path dir;

    private Path program(String name, String... body) throws Exception {
        String[] lines = new String[body.length + 6];
        lines[0] = "import mpi.*;";
        lines[1] = "public class " + name + " {";
        lines[2] = "    public static void main(String[] args) throws Exception {";
        lines[3] = "        MPI.Init(args);";
        lines[4] = "        int me = MPI.COMM_WORLD.Rank();";
        System.arraycopy(body, 0, lines, 5, body.length);
        lines[lines.length - 1] = "        MPI.Finalize();\n    }\n}\n";
        return Sources.write(dir, name + ".java", String.join("\n", lines));
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void aTypeMismatchNamesTheSenderAndUnderCheckBothLines(int ranks) throws Exception {
        Path src = program("Mismatch",
            "        if (me == 0) {",
            "            MPI.COMM_WORLD.Send(new int[] {7}, 0, 1, MPI.INT, 1, 3);",       // line 7
            "        } else if (me == 1) {",
            "            MPI.COMM_WORLD.Recv(new double[1], 0, 1, MPI.DOUBLE, 0, 3);",  // line 9
            "        }");
        Launch.Outcome plain = Launch.mpjrun("-np", String.valueOf(ranks), src.toString());
        assertEquals(1, plain.exitCode(), plain.toString());
        assertTrue(plain.err().contains("MPI_ERR_TYPE: Recv on rank 1: message from rank 0 with tag 3, sent by "
            + "Send(count=1, MPI.INT), carries MPI.INT elements but the receive expects MPI.DOUBLE"), plain.err());
        assertTrue(plain.err().contains("at Mismatch.main(Mismatch.java:9)"), plain.err());
        Launch.Outcome checked = Launch.mpjrun("-np", String.valueOf(ranks), "--check", src.toString());
        assertEquals(1, checked.exitCode(), checked.toString());
        assertTrue(checked.err().contains("MPI_ERR_TYPE: Recv on rank 1 at Mismatch.java:9: message from rank 0 with "
            + "tag 3, sent by Send(count=1, MPI.INT) at Mismatch.java:7, carries MPI.INT elements"), checked.err());
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void aSendBufferWrittenWhileTheSendIsPendingIsAnErrorUnderCheck(int ranks) throws Exception {
        Path src = program("Modified",
            "        int[] data = {1, 2, 3, 4};",
            "        if (me == 0) {",
            "            Request r = MPI.COMM_WORLD.Isend(data, 0, 4, MPI.INT, 1, 0);",   // line 8
            "            data[2] = 99;",
            "            r.Wait();",                                                     // line 10
            "            Prequest p = MPI.COMM_WORLD.Send_init(data, 0, 4, MPI.INT, 1, 1);",
            "            p.Start();",                                                    // line 12
            "            data[0] = 5;",
            "            p.Wait();",
            "        } else if (me == 1) {",
            "            MPI.COMM_WORLD.Recv(data, 0, 4, MPI.INT, 0, 0);",
            "            MPI.COMM_WORLD.Recv(data, 0, 4, MPI.INT, 0, 1);",
            "        }");
        Launch.Outcome plain = Launch.mpjrun("-np", String.valueOf(ranks), src.toString());
        assertEquals(0, plain.exitCode(), "the eager send copied the data first: " + plain);
        Launch.Outcome checked = Launch.mpjrun("-np", String.valueOf(ranks), "--check", src.toString());
        assertEquals(1, checked.exitCode(), checked.toString());
        assertTrue(checked.err().contains("MPI_ERR_BUFFER: Isend(dest=1, tag=0, comm=MPI.COMM_WORLD, count=4, MPI.INT)"
            + " at Modified.java:8: the send buffer (4 MPI.INT elements of a int[] from index 0) changed while the "
            + "send was pending"), checked.err());
        assertTrue(checked.err().contains("at Modified.main(Modified.java:10)"), checked.err());

        Path persistent = program("ModifiedPersistent",
            "        int[] data = {1, 2, 3, 4};",
            "        if (me == 0) {",
            "            Prequest p = MPI.COMM_WORLD.Send_init(data, 0, 4, MPI.INT, 1, 1);",
            "            p.Start();",                                                    // line 9
            "            data[0] = 5;",
            "            p.Wait();",
            "        } else if (me == 1) {",
            "            MPI.COMM_WORLD.Recv(data, 0, 4, MPI.INT, 0, 1);",
            "        }");
        Launch.Outcome started = Launch.mpjrun("-np", String.valueOf(ranks), "--check", persistent.toString());
        assertEquals(1, started.exitCode(), started.toString());
        assertTrue(started.err().contains("MPI_ERR_BUFFER: Start(dest=1, tag=1, comm=MPI.COMM_WORLD, count=4, MPI.INT)"
            + " at ModifiedPersistent.java:9: the send buffer"), started.err());
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void requestsLeftAtFinalizeAreListedAndPendingOnesFailUnderCheck(int ranks) throws Exception {
        Path src = program("Leftover",
            "        if (me == 0) {",
            "            MPI.COMM_WORLD.Irecv(new int[1], 0, 1, MPI.INT, 1, 5);",         // line 7
            "            MPI.COMM_WORLD.Isend(new int[2], 0, 2, MPI.INT, 1, 6);",         // line 8
            "            MPI.COMM_WORLD.Issend(new int[3], 0, 3, MPI.INT, 1, 7);",        // line 9
            "            MPI.COMM_WORLD.iBarrier().waitFor();",
            "        } else {",
            "            MPI.COMM_WORLD.iBarrier().waitFor();",
            "        }");
        String n = String.valueOf(ranks);
        Launch.Outcome plain = Launch.mpjrun("-np", n, src.toString());
        assertEquals(0, plain.exitCode(), plain.toString());
        assertTrue(plain.err().contains("mpjrun: warning: rank 0 called Finalize (Leftover.java:14) with 1 receive "
            + "that never matched: Irecv(source=1, tag=5, comm=MPI.COMM_WORLD, count=1, MPI.INT); and 1 send nobody "
            + "received: Issend(dest=1, tag=7, comm=MPI.COMM_WORLD, count=3, MPI.INT; waiting for a matching receive)"),
            plain.err());
        assertTrue(plain.err().contains("mpjrun: warning: rank 1 called Finalize (Leftover.java:14) with 2 messages it "
            + "never received: (source=0, tag=6, comm=MPI.COMM_WORLD, 8 bytes) (source=0, tag=7, "
            + "comm=MPI.COMM_WORLD, 12 bytes)"), plain.err());
        for (int r = 2; r < ranks; r++) {
            assertFalse(plain.err().contains("rank " + r + " called"), plain.err());
        }
        Launch.Outcome checked = Launch.mpjrun("-np", n, "--check", src.toString());
        assertEquals(1, checked.exitCode(), checked.toString());
        assertTrue(checked.err().contains("MPI_ERR_PENDING: rank 0 called Finalize (Leftover.java:14) with 3 requests "
            + "never completed with a wait or a test: Irecv(source=1, tag=5, comm=MPI.COMM_WORLD, count=1, MPI.INT) "
            + "at Leftover.java:7 (still pending); Isend(dest=1, tag=6, comm=MPI.COMM_WORLD, count=2, MPI.INT) at "
            + "Leftover.java:8; Issend(dest=1, tag=7, comm=MPI.COMM_WORLD, count=3, MPI.INT) at Leftover.java:9 "
            + "(still pending) (MPI forbids Finalize while operations are pending"), checked.err());
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void requestsCompletedButNeverWaitedAreAWarningUnderCheck(int ranks) throws Exception {
        Path src = program("Unwaited",
            "        int[] v = new int[1];",
            "        if (me == 0) {",
            "            MPI.COMM_WORLD.Isend(v, 0, 1, MPI.INT, 1, 6);",                   // line 8
            "        } else if (me == 1) {",
            "            Request r = MPI.COMM_WORLD.Irecv(v, 0, 1, MPI.INT, 0, 6);",
            "            r.Wait();",
            "        }");
        Launch.Outcome checked = Launch.mpjrun("-np", String.valueOf(ranks), "--check", src.toString());
        assertEquals(0, checked.exitCode(), checked.toString());
        assertEquals("mpjrun: warning: rank 0 called Finalize (Unwaited.java:13) with 1 request never completed with a"
            + " wait or a test: Isend(dest=1, tag=6, comm=MPI.COMM_WORLD, count=1, MPI.INT) at Unwaited.java:8\n",
            checked.err());
    }
}
