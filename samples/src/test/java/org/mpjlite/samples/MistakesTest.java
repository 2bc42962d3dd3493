package org.mpjlite.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.run.MpjRun;

/** Every program in {@code mistakes/} ends with the report its README shows, on 2, 3 and 8 ranks where it applies. */
class MistakesTest {
    private static final int DEADLOCK = org.mpjlite.smpdev.DeadlockException.EXIT_CODE;

    private record Outcome(int exitCode, String err) {
    }

    private static Outcome mpjrun(String... args) {
        List<String> command = new ArrayList<>(List.of("-cp", classes()));
        command.addAll(List.of(args));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            int code = MpjRun.run(command.toArray(new String[0]), System.out, errors);
            return new Outcome(code, err.toString(StandardCharsets.UTF_8));
        }
    }

    private static String classes() {
        try {
            return Path.of(mistakes.HeadToHead.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @org.junit.jupiter.api.Test
    void headToHeadIsACycle() {
        Outcome o = mpjrun("-np", "2", "mistakes.HeadToHead");
        assertEquals(DEADLOCK, o.exitCode(), o.err());
        assertTrue(o.err().contains("rank 0: Recv(source=1, tag=0, comm=MPI.COMM_WORLD, count=1, MPI.INT)\n"
            + "          at mistakes.HeadToHead.main(HeadToHead.java:15)"), o.err());
        assertTrue(o.err().contains("cycle: rank 0 -> rank 1 -> rank 0"), o.err());
    }

    @org.junit.jupiter.api.Test
    void sendSendWorksWhileBufferedAndDeadlocksWhenNot() {
        assertEquals(0, mpjrun("-np", "2", "mistakes.SendSend").exitCode());
        for (Outcome o : List.of(mpjrun("-np", "2", "mistakes.SendSend", "1000000"),
                mpjrun("-np", "2", "--sync-sends", "mistakes.SendSend"))) {
            assertEquals(DEADLOCK, o.exitCode(), o.err());
            assertTrue(o.err().contains("rank 1: Send(dest=0, tag=0, comm=MPI.COMM_WORLD"), o.err());
            assertTrue(o.err().contains("at mistakes.SendSend.main(SendSend.java:20)"), o.err());
            assertTrue(o.err().contains("cycle: rank 0 -> rank 1 -> rank 0"), o.err());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 8})
    void forgottenSendNamesTheFinishedRank(int ranks) {
        Outcome o = mpjrun("-np", String.valueOf(ranks), "mistakes.ForgottenSend");
        assertEquals(DEADLOCK, o.exitCode(), o.err());
        assertTrue(o.err().contains("rank 0: Recv(source=1, tag=42, comm=MPI.COMM_WORLD, count=1, MPI.INT)\n"
            + "          at mistakes.ForgottenSend.main(ForgottenSend.java:14)"), o.err());
        for (int r = 1; r < ranks; r++) {
            assertTrue(o.err().contains("rank " + r + ": finished"), o.err());
        }
        assertTrue(!o.err().contains("cycle"), o.err());
    }

    @org.junit.jupiter.api.Test
    void wrongTagListsTheMessageThatIsWaiting() {
        Outcome o = mpjrun("-np", "2", "mistakes.WrongTag");
        assertEquals(DEADLOCK, o.exitCode(), o.err());
        assertTrue(o.err().contains("messages waiting for it that no posted receive matches: (source=1, tag=2, "
            + "comm=MPI.COMM_WORLD, 4 bytes)"), o.err());
    }

    @org.junit.jupiter.api.Test
    void truncationAndWrongDatatypeAreErrorsNamingTheCall() {
        Outcome t = mpjrun("-np", "2", "mistakes.Truncation");
        assertEquals(1, t.exitCode(), t.err());
        assertTrue(t.err().contains("MPI_ERR_TRUNCATE: Recv on rank 1: message of 10 x MPI.INT (10 elements, 40 bytes)"
            + " from rank 0 with tag 0 is longer than the receive buffer of 4 x MPI.INT (4 elements, 16 bytes)"), t.err());
        assertTrue(t.err().contains("at mistakes.Truncation.main(Truncation.java:16)"), t.err());
        Outcome d = mpjrun("-np", "2", "mistakes.WrongDatatype");
        assertEquals(1, d.exitCode(), d.err());
        assertTrue(d.err().contains("MPI_ERR_TYPE: Send: datatype MPI.DOUBLE does not match the buffer, a int[]"),
            d.err());
    }

    private static final String SAME_COLLECTIVES = " (every rank of the communicator must call the same collectives"
        + " in the same order, with the same root, type signature and operation)";

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 8})
    void mismatchedCollectivesNameBothCallsRanksAndLines(int ranks) {
        Outcome o = mpjrun("-np", String.valueOf(ranks), "mistakes.MismatchedCollectives");
        assertEquals(1, o.exitCode(), o.err());
        assertTrue(o.err().contains(" failed: mpi.MPIException: MPI_ERR_NOT_SAME: "), o.err());
        assertTrue(o.err().contains(": collective calls do not match: Bcast(root=0, count=4, MPI.INT) at "
            + "MismatchedCollectives.java:16 on rank 0 does not match Barrier() at MismatchedCollectives.java:18 on "
            + "rank 1" + SAME_COLLECTIVES), o.err());
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 8})
    void wrongRootNamesTwoRoots(int ranks) {
        Outcome o = mpjrun("-np", String.valueOf(ranks), "mistakes.WrongRoot");
        assertEquals(1, o.exitCode(), o.err());
        assertTrue(o.err().contains("MPI_ERR_ROOT: Bcast on rank "), o.err());
        assertTrue(o.err().contains(": collective calls do not match: Bcast(root=0, count=1, MPI.INT) at "
            + "WrongRoot.java:16 on rank 0 does not match Bcast(root=1, count=1, MPI.INT) at WrongRoot.java:16 on "
            + "rank 1" + SAME_COLLECTIVES), o.err());
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 8})
    void modifiedSendBufferIsCaughtUnderCheckOnly(int ranks) {
        String n = String.valueOf(ranks);
        Outcome plain = mpjrun("-np", n, "mistakes.ModifiedSendBuffer");
        assertEquals(0, plain.exitCode(), plain.err());
        Outcome o = mpjrun("-np", n, "--check", "mistakes.ModifiedSendBuffer");
        assertEquals(1, o.exitCode(), o.err());
        assertTrue(o.err().contains("mpjrun: rank 0 failed: mpi.MPIException: MPI_ERR_BUFFER: Isend(dest=1, tag=0, "
            + "comm=MPI.COMM_WORLD, count=3, MPI.DOUBLE) at ModifiedSendBuffer.java:19: the send buffer (3 MPI.DOUBLE "
            + "elements of a double[] from index 0) changed while the send was pending"), o.err());
        assertTrue(o.err().contains("at mistakes.ModifiedSendBuffer.main(ModifiedSendBuffer.java:21)"), o.err());
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 8})
    void pendingAtFinalizeWarnsAndFailsUnderCheck(int ranks) {
        String n = String.valueOf(ranks);
        Outcome plain = mpjrun("-np", n, "mistakes.PendingAtFinalize");
        assertEquals(0, plain.exitCode(), plain.err());
        assertTrue(plain.err().contains("mpjrun: warning: rank 0 called Finalize (PendingAtFinalize.java:20) with 1 "
            + "receive that never matched: Irecv(source=1, tag=1, comm=MPI.COMM_WORLD, count=1, MPI.INT); and 1 send "
            + "nobody received: Issend(dest=1, tag=2, comm=MPI.COMM_WORLD, count=1, MPI.INT; waiting for a matching "
            + "receive)\n"), plain.err());
        Outcome o = mpjrun("-np", n, "--check", "mistakes.PendingAtFinalize");
        assertEquals(1, o.exitCode(), o.err());
        assertTrue(o.err().contains("mpjrun: rank 0 failed: mpi.MPIException: MPI_ERR_PENDING: rank 0 called Finalize "
            + "(PendingAtFinalize.java:20) with 2 requests never completed with a wait or a test: Irecv(source=1, "
            + "tag=1, comm=MPI.COMM_WORLD, count=1, MPI.INT) at PendingAtFinalize.java:17 (still pending); "
            + "Issend(dest=1, tag=2, comm=MPI.COMM_WORLD, count=1, MPI.INT) at PendingAtFinalize.java:18 (still "
            + "pending)"), o.err());
    }
}
