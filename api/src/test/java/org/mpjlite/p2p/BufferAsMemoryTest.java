package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mpjlite.p2p.Jobs.assertMpiError;
import static org.mpjlite.p2p.Jobs.left;
import static org.mpjlite.p2p.Jobs.rank;
import static org.mpjlite.p2p.Jobs.right;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import mpi.MPI;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import org.mpjlite.p2p.Jobs.World;

/**
 * Open MPI's point-to-point calls treat a buffer as memory: the count is in the datatype's units
 * over the buffer's bytes, whatever the buffer's element type (native byte order). mpiJava's calls
 * keep the buffer typed.
 */
class BufferAsMemoryTest {
    private static final int TAG = 9;

    /** The native-order bytes of {@code values}. */
    private static byte[] bytesOf(int[] values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.nativeOrder());
        b.asIntBuffer().put(values);
        return b.array();
    }

    private static int[] intsOf(byte[] bytes) {
        int[] values = new int[bytes.length / 4];
        ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).asIntBuffer().get(values);
        return values;
    }

    @Jobs.AnyRanks
    void bytesOfAnIntArrayLandInTheBytesOfAnother(World world) {
        world.run(() -> {
            int[] out = {rank() * 1000 + 1, rank() * 1000 + 2, rank() * 1000 + 3};
            int[] in = {-1, -1, -1};
            Request r = MPI.COMM_WORLD.iRecv(in, 6, MPI.BYTE, left(), TAG);
            MPI.COMM_WORLD.send(out, 6, MPI.BYTE, right(), TAG);
            Status s = r.waitStatus();
            assertEquals(6, s.getCount(MPI.BYTE));
            byte[] expected = bytesOf(new int[] {-1, -1, -1});
            System.arraycopy(bytesOf(new int[] {left() * 1000 + 1, left() * 1000 + 2}), 0, expected, 0, 6);
            assertArrayEquals(intsOf(expected), in, "the first 6 bytes replaced, the rest kept");
            return null;
        });
    }

    @Jobs.MultiRanksBothProtocols
    void directCharBufferAsBytesAndIntArrayAsChars(World world) {
        world.run(() -> {
            int n = 5000;
            CharBuffer out = MPI.newCharBuffer(n);
            for (int i = 0; i < n; i++) {
                out.put(i, (char) (rank() + i));
            }
            long[] in = new long[n / 4];
            MPI.COMM_WORLD.sendRecv(out, 2 * n, MPI.BYTE, right(), TAG, in, 2 * n, MPI.BYTE, left(), TAG);
            ByteBuffer got = ByteBuffer.allocate(in.length * 8).order(ByteOrder.nativeOrder());
            got.asLongBuffer().put(in);
            for (int i = 0; i < n; i++) {
                assertEquals((char) (left() + i), got.getChar(2 * i), "char " + i);
            }

            int[] ints = {rank(), rank() + 1};
            int[] back = new int[2];
            MPI.COMM_WORLD.barrier();
            Request r = MPI.COMM_WORLD.iRecv(back, 4, MPI.CHAR, left(), TAG + 1);
            MPI.COMM_WORLD.barrier();
            MPI.COMM_WORLD.rSend(ints, 4, MPI.CHAR, right(), TAG + 1);
            assertEquals(4, r.waitStatus().getCount(MPI.CHAR));
            assertArrayEquals(new int[] {left(), left() + 1}, back);
            return null;
        });
    }

    @Jobs.AnyRanks
    void persistentRequestsReadAndWriteTheBuffersAtEveryStart(World world) {
        world.run(() -> {
            double[] out = new double[2];
            float[] in = new float[4];
            Prequest send = MPI.COMM_WORLD.sendInit(out, 4, MPI.INT, right(), TAG);
            Prequest recv = MPI.COMM_WORLD.recvInit(in, 4, MPI.INT, left(), TAG);
            for (int round = 0; round < 3; round++) {
                out[0] = rank() + round;
                out[1] = -round;
                recv.start();
                send.start();
                Request.waitAll(new Request[] {send, recv});
                ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
                b.asFloatBuffer().put(in);
                assertEquals(left() + round, b.getDouble(0), "round " + round);
                assertEquals(-round, b.getDouble(8), "round " + round);
            }
            send.free();
            recv.free();
            return null;
        });
    }

    @Jobs.AnyRanks
    void aMessageOfBytesIsReceivedAsTheRawBytesOfTypedElements(World world) {
        world.run(() -> {
            byte[] out = new byte[10];
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) (rank() * 16 + i);
            }
            int[] in = {-1, -1, -1};
            Request r = MPI.COMM_WORLD.iRecv(in, 3, MPI.INT, left(), TAG);
            MPI.COMM_WORLD.send(out, 10, MPI.BYTE, right(), TAG);
            Status s = r.waitStatus();
            assertEquals(10, s.getCount(MPI.BYTE));
            assertEquals(MPI.UNDEFINED, s.getCount(MPI.INT), "10 bytes are not whole ints");
            assertEquals(MPI.UNDEFINED, s.getElements(MPI.INT));
            byte[] sent = new byte[8];
            for (int i = 0; i < 8; i++) {
                sent[i] = (byte) (left() * 16 + i);
            }
            int[] whole = intsOf(sent);
            assertEquals(whole[0], in[0]);
            assertEquals(whole[1], in[1]);

            // Whole elements: counted; a typed message into another type stays an error, as do
            // bytes received by mpiJava's calls.
            MPI.COMM_WORLD.sendRecv(out, 8, MPI.BYTE, right(), TAG, in, 3, MPI.INT, left(), TAG);
            Jobs.assertMentions(String.valueOf(MPI.COMM_WORLD.sendRecv(out, 8, MPI.BYTE, right(), TAG, in, 3, MPI.INT,
                left(), TAG).getElements(MPI.INT)), "2");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.sendRecv(new int[1], 1, MPI.INT, right(), TAG,
                new double[1], 1, MPI.DOUBLE, left(), TAG), "sendRecv", "MPI.INT");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Sendrecv(out, 0, 8, MPI.BYTE, right(), TAG,
                in, 0, 2, MPI.INT, left(), TAG), "Sendrecv", "MPI.BYTE");
            return null;
        });
    }

    @Jobs.AnyRanks
    void aBufferTooSmallForTheCountIsStillAnError(World world) {
        world.run(() -> {
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.send(new int[2], 9, MPI.BYTE, right(), TAG), "send",
                "beyond the end");
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.iRecv(new short[1], 1, MPI.INT, left(), TAG),
                "iRecv", "beyond the end");
            return null;
        });
    }

    @Jobs.AnyRanks
    void mpiJavaCallsKeepTheirTypedBuffers(World world) {
        world.run(() -> {
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new int[4], 0, 4, MPI.BYTE, right(), TAG), "Send",
                "int[]");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Irecv(new char[4], 0, 4, MPI.BYTE, left(), TAG), "Irecv",
                "char[]");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.send(new boolean[4], 4, MPI.BYTE, right(), TAG), "send",
                "boolean[]");
            return null;
        });
    }
}
