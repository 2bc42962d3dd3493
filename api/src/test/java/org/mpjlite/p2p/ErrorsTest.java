package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMpiError;
import static org.mpjlite.p2p.Jobs.left;
import static org.mpjlite.p2p.Jobs.rank;
import static org.mpjlite.p2p.Jobs.right;
import static org.mpjlite.p2p.Jobs.size;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.util.List;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.mpjlite.p2p.Jobs.World;

/**
 * Bad arguments raise an unchecked {@link MPIException} at the call, with the MPI error class and
 * a message naming the call and the argument; the rank can go on communicating afterwards.
 */
class ErrorsTest {
    private static final int BAD_TAG = -3;

    @Test
    @DisplayName("MPIException is unchecked")
    void mpiExceptionIsUnchecked() {
        assertTrue(RuntimeException.class.isAssignableFrom(MPIException.class));
        assertTrue(BAD_TAG != MPI.ANY_TAG, "the bad tag must not be ANY_TAG");
    }

    /** After the error checks, a message still goes around the ring: the rank is not broken. */
    private static void ringStillWorks() {
        int[] in = {-1};
        MPI.COMM_WORLD.Sendrecv(new int[] {rank()}, 0, 1, MPI.INT, right(), 0,
            in, 0, 1, MPI.INT, MPI.ANY_SOURCE, 0);
        assertEquals((rank() + size() - 1) % size(), in[0]);
    }

    @Jobs.AnyRanks
    @DisplayName("negative count: ERR_COUNT naming the call and the count")
    void negativeCount(World w) {
        w.run(() -> {
            int[] b = new int[4];
            int d = right();
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.Send(b, 0, -1, MPI.INT, d, 0), "Send", "count");
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.Ssend(b, 0, -1, MPI.INT, d, 0), "Ssend", "count");
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.Recv(b, 0, -1, MPI.INT, d, 0), "Recv", "count");
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.Isend(b, 0, -2, MPI.INT, d, 0), "Isend", "count");
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.Irecv(b, 0, -2, MPI.INT, d, 0), "Irecv", "count");
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.Send_init(b, 0, -1, MPI.INT, d, 0), "Send_init",
                "count");
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.send(b, -1, MPI.INT, d, 0), "send", "count");
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.recv(b, -1, MPI.INT, d, 0), "recv", "count");
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.iSend(MPI.newIntBuffer(4), -1, MPI.INT, d, 0),
                "iSend", "count");
            assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.Sendrecv(b, 0, 1, MPI.INT, d, 0,
                b, 0, -1, MPI.INT, d, 0), "Sendrecv", "count");
            ringStillWorks();
            return null;
        });
    }

    @Jobs.AnyRanks
    @DisplayName("offset + count beyond the array or NIO buffer, or a negative offset: ERR_BUFFER naming them")
    void beyondTheBuffer(World w) {
        w.run(() -> {
            int[] b = new int[4];
            int d = right();
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Send(b, 2, 3, MPI.INT, d, 0), "Send", "offset",
                "count");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Recv(b, 0, 5, MPI.INT, d, 0), "Recv", "count");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Irecv(b, 4, 1, MPI.INT, d, 0), "Irecv", "offset");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Isend(b, -1, 1, MPI.INT, d, 0), "Isend", "offset");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.send(MPI.newIntBuffer(4), 5, MPI.INT, d, 0),
                "send", "count");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.recv(MPI.slice(b, 3), 2, MPI.INT, d, 0),
                "recv", "count");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.send(ByteBuffer.allocate(7), 2, MPI.INT, d, 0),
                "send", "count");
            ringStillWorks();
            return null;
        });
    }

    @Jobs.AnyRanks
    @DisplayName("a read-only receive buffer, or one of another element type: ERR_BUFFER or ERR_TYPE, nothing posted "
        + "(persistent receives refused at their init)")
    void receiveBufferNotUsable(World w) {
        w.run(() -> {
            int s = right();
            ByteBuffer readOnly = ByteBuffer.allocateDirect(16).asReadOnlyBuffer();
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Recv(readOnly, 0, 4, MPI.BYTE, s, 0), "Recv",
                "read-only");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Irecv(readOnly, 0, 2, MPI.INT, s, 0), "Irecv",
                "read-only");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.iRecv(MPI.newIntBuffer(4).asReadOnlyBuffer(), 4,
                MPI.INT, s, 0), "iRecv", "read-only");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Irecv(new long[2], 0, 2, MPI.INT, s, 0), "Irecv",
                "long[]");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Recv_init(readOnly, 0, 4, MPI.BYTE, s, 0),
                "Recv_init", "read-only");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.recvInit(MPI.newIntBuffer(4).asReadOnlyBuffer(), 4,
                MPI.INT, s, 0), "recvInit", "read-only");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.recvInit(MPI.newIntBuffer(4).asReadOnlyBuffer(), 16,
                MPI.BYTE, s, 0), "recvInit", "read-only");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Isend(new long[2], 0, 2, MPI.INT, s, 0), "Isend",
                "long[]");
            // Sendrecv checks its receive half first: nothing is sent either.
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Sendrecv(new byte[4], 0, 4, MPI.BYTE, s, 0,
                readOnly, 0, 4, MPI.BYTE, s, 0), "Sendrecv", "read-only");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.sendRecv(new int[2], 2, MPI.INT, s, 0,
                MPI.newIntBuffer(2).asReadOnlyBuffer(), 2, MPI.INT, s, 0), "sendRecv", "read-only");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Sendrecv(new int[2], 0, 2, MPI.INT, s, 0, new long[2], 0,
                2, MPI.INT, s, 0), "Sendrecv", "long[]");
            ringStillWorks();
            return null;
        });
    }

    @Jobs.AnyRanks
    @DisplayName("a Sendrecv whose send half is wrong fails without receiving: the message it would take, "
        + "waiting already or sent later, goes to the next receive")
    void sendrecvWithAWrongSendHalfReceivesNothing(World w) {
        w.run(() -> {
            int me = rank();
            int n = size();
            int from = left();
            int to = right();
            for (boolean waiting : new boolean[] {true, false}) {
                int tag = waiting ? 7 : 8;
                mpi.Request sent = null;
                if (waiting) {
                    sent = MPI.COMM_WORLD.Isend(new int[] {me}, 0, 1, MPI.INT, to, tag);
                    MPI.COMM_WORLD.Barrier();
                }
                int[] in = {-1};
                int[] one = {me};
                assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Sendrecv(one, 0, 1, MPI.INT, n, 0,
                    in, 0, 1, MPI.INT, from, tag), "Sendrecv", "rank");
                assertMpiError(MPI.ERR_TAG, () -> MPI.COMM_WORLD.Sendrecv(one, 0, 1, MPI.INT, to, BAD_TAG,
                    in, 0, 1, MPI.INT, from, tag), "Sendrecv", "tag");
                assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Sendrecv(one, 0, 2, MPI.INT, to, 0,
                    in, 0, 1, MPI.INT, from, tag), "Sendrecv", "count");
                assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Sendrecv(new long[1], 0, 1, MPI.INT, to, 0,
                    in, 0, 1, MPI.INT, from, tag), "Sendrecv", "long[]");
                assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Sendrecv(new Object[] {new Object()}, 0, 1,
                    MPI.OBJECT, to, 0, in, 0, 1, MPI.INT, from, tag), "Sendrecv", "Serializable");
                assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.sendRecv(one, 1, MPI.INT, -5, 0,
                    in, 1, MPI.INT, from, tag), "sendRecv", "rank");
                assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Sendrecv_replace(in, 0, 1, MPI.INT, n, 0,
                    from, tag), "Sendrecv_replace", "rank");
                assertEquals(-1, in[0], "a failed Sendrecv wrote into its receive buffer");
                if (!waiting) {
                    MPI.COMM_WORLD.Barrier();
                    sent = MPI.COMM_WORLD.Isend(new int[] {me}, 0, 1, MPI.INT, to, tag);
                }
                int[] got = {-1};
                MPI.COMM_WORLD.Recv(got, 0, 1, MPI.INT, from, tag);
                assertEquals(from, got[0]);
                sent.Wait();
            }
            ringStillWorks();
            return null;
        });
    }

    @Jobs.AnyRanks
    @DisplayName("a rank outside the communicator: ERR_RANK naming the call and the rank")
    void rankOutsideTheCommunicator(World w) {
        w.run(() -> {
            int[] b = new int[1];
            int n = size();
            assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Send(b, 0, 1, MPI.INT, n, 0), "Send", "rank");
            assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Send(b, 0, 1, MPI.INT, -5, 0), "Send", "rank");
            assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Send(b, 0, 1, MPI.INT, MPI.ANY_SOURCE, 0), "Send",
                "rank");
            assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Recv(b, 0, 1, MPI.INT, n, 0), "Recv", "rank");
            assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Isend(b, 0, 1, MPI.INT, n + 3, 0), "Isend", "rank");
            assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Irecv(b, 0, 1, MPI.INT, -5, 0), "Irecv", "rank");
            assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Probe(n, 0), "Probe", "rank");
            assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.send(b, 1, MPI.INT, n, 0), "send", "rank");
            assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.iRecv(b, 1, MPI.INT, n, 0), "iRecv", "rank");
            assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.iProbe(n, 0), "iProbe", "rank");
            ringStillWorks();
            return null;
        });
    }

    @Jobs.AnyRanks
    @DisplayName("a negative tag (other than ANY_TAG in receives): ERR_TAG naming the call and the tag")
    void negativeTag(World w) {
        w.run(() -> {
            int[] b = new int[1];
            int d = right();
            assertMpiError(MPI.ERR_TAG, () -> MPI.COMM_WORLD.Send(b, 0, 1, MPI.INT, d, BAD_TAG), "Send", "tag");
            assertMpiError(MPI.ERR_TAG, () -> MPI.COMM_WORLD.Send(b, 0, 1, MPI.INT, d, MPI.ANY_TAG), "Send", "tag");
            assertMpiError(MPI.ERR_TAG, () -> MPI.COMM_WORLD.Recv(b, 0, 1, MPI.INT, d, BAD_TAG), "Recv", "tag");
            assertMpiError(MPI.ERR_TAG, () -> MPI.COMM_WORLD.Isend(b, 0, 1, MPI.INT, d, BAD_TAG), "Isend", "tag");
            assertMpiError(MPI.ERR_TAG, () -> MPI.COMM_WORLD.Irecv(b, 0, 1, MPI.INT, d, BAD_TAG), "Irecv", "tag");
            assertMpiError(MPI.ERR_TAG, () -> MPI.COMM_WORLD.Iprobe(d, BAD_TAG), "Iprobe", "tag");
            assertMpiError(MPI.ERR_TAG, () -> MPI.COMM_WORLD.send(b, 1, MPI.INT, d, BAD_TAG), "send", "tag");
            assertMpiError(MPI.ERR_TAG, () -> MPI.COMM_WORLD.recv(b, 1, MPI.INT, d, BAD_TAG), "recv", "tag");
            ringStillWorks();
            return null;
        });
    }

    @Jobs.AnyRanks
    @DisplayName("a null buffer: ERR_BUFFER naming the call and the buffer")
    void nullBuffer(World w) {
        w.run(() -> {
            int d = right();
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Send(null, 0, 1, MPI.INT, d, 0), "Send", "buffer");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Recv(null, 0, 1, MPI.INT, d, 0), "Recv", "buffer");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Isend(null, 0, 1, MPI.INT, d, 0), "Isend", "buffer");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Irecv(null, 0, 1, MPI.INT, d, 0), "Irecv", "buffer");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.send(null, 1, MPI.INT, d, 0), "send", "buffer");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.iRecv(null, 1, MPI.INT, d, 0), "iRecv", "buffer");
            ringStillWorks();
            return null;
        });
    }

    @Jobs.AnyRanks
    @DisplayName("a datatype that does not fit the buffer: ERR_TYPE naming the call and the datatype")
    void datatypeDoesNotFitTheBuffer(World w) {
        w.run(() -> {
            int d = right();
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new int[2], 0, 1, MPI.DOUBLE, d, 0), "Send",
                "type");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Recv(new double[2], 0, 1, MPI.INT, d, 0), "Recv",
                "type");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Isend(new boolean[2], 0, 1, MPI.BYTE, d, 0), "Isend",
                "type");
            // Open MPI's calls read a buffer as memory (docs/DIALECTS.md): a count of the type beyond
            // the buffer's bytes is MPI_ERR_BUFFER, and a boolean[] has no bytes to read.
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.send(MPI.newIntBuffer(1), 1, MPI.DOUBLE, d, 0),
                "send", "beyond the end");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.iRecv(CharBuffer.allocate(1), 2, MPI.SHORT, d, 0),
                "iRecv", "beyond the end");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.recv(new boolean[1], 1, MPI.FLOAT, d, 0), "recv",
                "type");
            ringStillWorks();
            return null;
        });
    }

    @Jobs.AnyRanks
    @DisplayName("calls before MPI.Init and after MPI.Finalize: ERR_OTHER naming the call")
    void useBeforeInitAndAfterFinalize(World w) {
        List<int[]> got = w.runRaw(() -> {
            int[] b = new int[1];
            assertMpiError(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.Send(b, 0, 1, MPI.INT, 0, 0), "Send", "init");
            assertMpiError(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.recv(b, 1, MPI.INT, 0, 0), "recv", "init");
            assertMpiError(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.Irecv(b, 0, 1, MPI.INT, 0, 0), "Irecv", "init");
            MPI.Init(new String[0]);
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int[] in = {-1};
            MPI.COMM_WORLD.Sendrecv(new int[] {me}, 0, 1, MPI.INT, (me + 1) % n, 0,
                in, 0, 1, MPI.INT, (me + n - 1) % n, 0);
            MPI.Finalize();
            assertMpiError(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.Send(b, 0, 1, MPI.INT, 0, 0), "Send", "finali");
            assertMpiError(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.iSend(b, 1, MPI.INT, 0, 0), "iSend", "finali");
            assertMpiError(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.Probe(0, 0), "Probe", "finali");
            return new int[] {me, in[0]};
        });
        for (int r = 0; r < w.size(); r++) {
            assertArrayEquals(new int[] {r, (r + w.size() - 1) % w.size()}, got.get(r));
        }
    }
}
