package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import mpi.Comm;
import mpi.MPI;
import mpi.Message;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs.World;

/**
 * Matched probe ({@link Message}: mProbe, imProbe, mRecv, imRecv): a matched message is taken out
 * of matching; no-process and null messages; truncation and type errors; rendezvous-size messages
 * and synchronous sends, which complete only when the matched message is received. The race of
 * several threads is {@code org.mpjlite.threads.MatchedProbeThreadsTest}.
 */
class MatchedProbeTest {
    /** Above the default eager threshold (16 KiB) in ints: such a message goes by rendezvous. */
    private static final int LARGE = 6000;

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.p2p.Jobs#anyRanks")
    @DisplayName("imProbe: null when nothing matches; a matched message is gone for probe, imProbe and recv")
    void imProbeAndTheMatchedMessageIsGone(World w) {
        w.run(() -> {
            Comm comm = MPI.COMM_WORLD;
            int me = comm.getRank();
            Message m = new Message();
            assertNull(m.imProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, comm));
            assertTrue(m.isNull());
            comm.send(new int[] {me, 7}, 2, MPI.INT, me, 3);
            Status s = m.imProbe(me, 3, comm);
            assertNotNull(s);
            assertEquals(me, s.getSource());
            assertEquals(3, s.getTag());
            assertEquals(2, s.getCount(MPI.INT));
            assertFalse(m.isNull());
            assertFalse(m.isNoProc());
            // Taken out of matching: no other probe sees it.
            assertNull(comm.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG));
            assertNull(new Message().imProbe(me, 3, comm));
            // A receive posted now waits for the next message, not the matched one.
            int[] other = new int[2];
            Request r = comm.iRecv(other, 2, MPI.INT, me, 3);
            assertFalse(r.test());
            comm.send(new int[] {me, 8}, 2, MPI.INT, me, 3);
            int[] buf = new int[2];
            Status got = m.mRecv(buf, 2, MPI.INT);
            assertArrayEquals(new int[] {me, 7}, buf);
            assertEquals(me, got.getSource());
            assertEquals(2, got.getCount(MPI.INT));
            r.waitFor();
            assertArrayEquals(new int[] {me, 8}, other);
            assertMpiError(MPI.ERR_REQUEST, () -> m.mRecv(buf, 2, MPI.INT), "mRecv", "null message");
            assertMpiError(MPI.ERR_REQUEST, () -> new Message().imRecv(buf, 2, MPI.INT), "imRecv", "null message");
            return null;
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.p2p.Jobs#anyRanks")
    @DisplayName("PROC_NULL gives the no-process message, whose receive returns at once with source PROC_NULL")
    void procNullGivesTheNoProcMessage(World w) {
        w.run(() -> {
            Message m = new Message();
            Status s = m.mProbe(MPI.PROC_NULL, 5, MPI.COMM_WORLD);
            assertEquals(MPI.PROC_NULL, s.getSource());
            assertTrue(m.isNoProc());
            assertFalse(m.isNull());
            int[] buf = {42};
            Status got = m.mRecv(buf, 1, MPI.INT);
            assertEquals(MPI.PROC_NULL, got.getSource());
            assertEquals(MPI.ANY_TAG, got.getTag());
            assertEquals(0, got.getCount(MPI.INT));
            assertEquals(42, buf[0]);
            assertTrue(m.isNull());
            assertNotNull(m.imProbe(MPI.PROC_NULL, MPI.ANY_TAG, MPI.COMM_WORLD));
            assertTrue(m.isNoProc());
            Status viaRequest = m.imRecv(MPI.newIntBuffer(1), 1, MPI.INT).waitStatus();
            assertEquals(MPI.PROC_NULL, viaRequest.getSource());
            assertTrue(m.isNull());
            return null;
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.p2p.Jobs#multiRanksBothProtocols")
    @DisplayName("mRecv into a short buffer: MPI_ERR_TRUNCATE, the part that fits, the message consumed")
    void truncation(World w) {
        w.run(() -> {
            Comm comm = MPI.COMM_WORLD;
            int me = comm.getRank();
            int size = comm.getSize();
            int[] data = Jobs.ints(LARGE, me);
            Request s = comm.iSend(data, LARGE, MPI.INT, (me + 1) % size, 9);
            Message m = new Message();
            m.mProbe((me + size - 1) % size, 9, comm);
            int[] buf = new int[10];
            assertMpiError(MPI.ERR_TRUNCATE, () -> m.mRecv(buf, 10, MPI.INT), "mRecv", "longer");
            assertArrayEquals(java.util.Arrays.copyOf(Jobs.ints(LARGE, (me + size - 1) % size), 10), buf);
            assertTrue(m.isNull());
            s.waitFor();
            Request toSelf = comm.iSend(new int[1], 1, MPI.INT, me, 1);
            Message t = new Message();
            t.mProbe(me, 1, comm);
            Request typed = t.imRecv(new double[1], 1, MPI.DOUBLE);
            assertMpiError(MPI.ERR_TYPE, typed::waitFor, "imRecv", "MPI.DOUBLE");
            toSelf.waitFor();
            assertNull(comm.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG));
            comm.barrier();
            return null;
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.p2p.Jobs#pairsBothProtocols")
    @DisplayName("a synchronous or rendezvous send completes when its matched message is received, not before")
    void senderCompletesOnlyAtTheReceive(World w) {
        w.run(() -> {
            Comm comm = MPI.COMM_WORLD;
            for (boolean synchronous : new boolean[] {true, false}) {
                int n = synchronous ? 3 : LARGE;
                if (comm.getRank() == 0) {
                    int[] data = Jobs.ints(n, 5);
                    Request s = synchronous ? comm.isSend(data, n, MPI.INT, 1, 2) : comm.iSend(data, n, MPI.INT, 1, 2);
                    comm.recv(new int[1], 1, MPI.INT, 1, 10); // rank 1 has matched it
                    assertFalse(s.test(), "send complete before its matched message was received");
                    comm.send(new int[1], 1, MPI.INT, 1, 11);
                    s.waitFor();
                } else {
                    Message m = new Message();
                    Status st = m.mProbe(0, MPI.ANY_TAG, comm);
                    assertEquals(n, st.getCount(MPI.INT));
                    comm.send(new int[1], 1, MPI.INT, 0, 10);
                    comm.recv(new int[1], 1, MPI.INT, 0, 11);
                    int[] buf = new int[n];
                    m.mRecv(buf, n, MPI.INT);
                    assertArrayEquals(Jobs.ints(n, 5), buf);
                }
            }
            return null;
        });
    }
}
