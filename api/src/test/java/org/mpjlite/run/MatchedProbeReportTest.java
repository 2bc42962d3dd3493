package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A message a matched probe took and nothing received is named at Finalize, like a message never received. */
class MatchedProbeReportTest {
    @TempDir
    Path dir;

    @Test
    void finalizeNamesAMessageTakenByAMatchedProbeAndNeverReceived() throws Exception {
        Path src = Sources.write(dir, "Forgotten.java", String.join("\n",
            "import mpi.*;",
            "public class Forgotten {",
            "    public static void main(String[] args) throws MPIException {",
            "        MPI.Init(args);",
            "        if (MPI.COMM_WORLD.getRank() == 0) {",
            "            MPI.COMM_WORLD.send(new int[2], 2, MPI.INT, 1, 4);",
            "        } else {",
            "            new Message().mProbe(0, 4, MPI.COMM_WORLD);",
            "        }",
            "        MPI.Finalize();",
            "    }",
            "}",
            ""));
        Launch.Outcome r = Launch.mpjrun("-np", "2", src.toString());
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals("mpjrun: warning: rank 1 called Finalize (Forgotten.java:10) with 1 message a matched probe"
            + " (mProbe/imProbe) took and nothing received (mRecv/imRecv): (source=0, tag=4, comm=MPI.COMM_WORLD,"
            + " 8 bytes)\n", r.err());
    }
}
