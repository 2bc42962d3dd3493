package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.mpjlite.p2p.Jobs.assertMpiError;
import static org.mpjlite.p2p.Jobs.ints;
import static org.mpjlite.p2p.Jobs.left;
import static org.mpjlite.p2p.Jobs.rank;
import static org.mpjlite.p2p.Jobs.right;

import java.nio.ByteBuffer;
import java.util.Arrays;
import mpi.MPI;
import mpi.Prequest;
import mpi.Request;
import org.junit.jupiter.api.DisplayName;
import org.mpjlite.p2p.Jobs.World;

/**
 * Bsend and bSend through the attached buffer; mpiJava's ERR_BUFFER without one or with one too small;
 * Open MPI's bSend of an eager-sized message without one.
 */
class BufferedSendTest {
    @Jobs.AnyRanks
    @DisplayName("Bsend of several messages into the attached buffer, received in order, then Buffer_detach")
    void bsendThroughTheAttachedBuffer(World w) {
        int n = 100;
        int messages = 4;
        w.run(() -> {
            MPI.Buffer_attach(ByteBuffer.allocate(messages * (n * 4 + MPI.BSEND_OVERHEAD)));
            for (int m = 0; m < messages; m++) {
                MPI.COMM_WORLD.Bsend(ints(n, rank() * 10 + m), 0, n, MPI.INT, right(), 1);
            }
            int[] in = new int[n];
            for (int m = 0; m < messages; m++) {
                MPI.COMM_WORLD.Recv(in, 0, n, MPI.INT, left(), 1);
                assertArrayEquals(ints(n, left() * 10 + m), in, "message " + m);
            }
            MPI.Buffer_detach();
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Bsend of 64 KiB returns before the receive is posted: both ranks Bsend, then Recv")
    void bsendDoesNotWaitForTheReceiver(World w) {
        int n = 64 * 1024;
        w.run(() -> {
            int peer = 1 - rank();
            MPI.Buffer_attach(ByteBuffer.allocateDirect(n + MPI.BSEND_OVERHEAD));
            MPI.COMM_WORLD.Bsend(Jobs.bytes(n, rank()), 0, n, MPI.BYTE, peer, 0);
            byte[] in = new byte[n];
            MPI.COMM_WORLD.Recv(in, 0, n, MPI.BYTE, peer, 0);
            assertArrayEquals(Jobs.bytes(n, peer), in);
            MPI.Buffer_detach();
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Open MPI: attachBuffer(byte[]), bSend, detachBuffer returns the same array")
    void openMpiAttachBSendDetach(World w) {
        w.run(() -> {
            int peer = 1 - rank();
            byte[] attached = new byte[2 * (8 * 8 + MPI.BSEND_OVERHEAD)];
            MPI.attachBuffer(attached);
            MPI.COMM_WORLD.bSend(new long[] {rank(), 1, 2, 3, 4, 5, 6, 7}, 8, MPI.LONG, peer, 0);
            MPI.COMM_WORLD.bSend(new long[] {rank(), 8}, 2, MPI.LONG, peer, 1);
            long[] in = new long[8];
            MPI.COMM_WORLD.recv(in, 8, MPI.LONG, peer, 0);
            assertArrayEquals(new long[] {peer, 1, 2, 3, 4, 5, 6, 7}, in);
            MPI.COMM_WORLD.recv(in, 2, MPI.LONG, peer, 1);
            assertEquals(8, in[1]);
            assertSame(attached, MPI.detachBuffer());
            return null;
        });
    }

    @Jobs.AnyRanks
    @DisplayName("mpiJava: Bsend/Ibsend without an attached buffer, after detach, or too large: ERR_BUFFER, even to a "
        + "posted receive")
    void bsendWithoutEnoughBuffer(World w) {
        w.run(() -> {
            int[] data = new int[1000];
            assertMpiError(MPI.ERR_BUFFER,
                () -> MPI.COMM_WORLD.Bsend(data, 0, 10, MPI.INT, right(), 0), "Bsend", "buffer");
            assertMpiError(MPI.ERR_BUFFER,
                () -> MPI.COMM_WORLD.Ibsend(data, 0, 10, MPI.INT, right(), 0).Wait(), "send", "buffer");
            MPI.Buffer_attach(ByteBuffer.allocate(100 + MPI.BSEND_OVERHEAD));
            assertMpiError(MPI.ERR_BUFFER,
                () -> MPI.COMM_WORLD.Bsend(data, 0, 1000, MPI.INT, right(), 0), "Bsend", "buffer");
            MPI.Buffer_detach();
            assertMpiError(MPI.ERR_BUFFER,
                () -> MPI.COMM_WORLD.Bsend(data, 0, 1, MPI.INT, right(), 0), "Bsend", "buffer");
            assertMpiError(MPI.ERR_BUFFER, MPI::Buffer_detach, "buffer");
            // Whether or not the receive is posted: a posted one takes a standard send's message
            // afterwards, not the failed Bsend's.
            int[] got = {-2};
            mpi.Request posted = MPI.COMM_WORLD.Irecv(got, 0, 1, MPI.INT, left(), 6);
            MPI.COMM_WORLD.Barrier();
            assertMpiError(MPI.ERR_BUFFER,
                () -> MPI.COMM_WORLD.Bsend(new int[] {-1}, 0, 1, MPI.INT, right(), 6), "Bsend", "buffer");
            assertMpiError(MPI.ERR_BUFFER,
                () -> MPI.COMM_WORLD.Ibsend(new int[] {-1}, 0, 1, MPI.INT, right(), 6).Wait(), "send", "buffer");
            MPI.COMM_WORLD.Send(new int[] {rank()}, 0, 1, MPI.INT, right(), 6);
            posted.Wait();
            assertEquals(left(), got[0]);
            return null;
        });
    }

    @Jobs.AnyRanks
    @DisplayName("Open MPI: bSend/ibSend/bSendInit up to the eager threshold need no buffer (Open MPI sends them"
        + " eagerly); larger ones need room in the attached buffer")
    void openMpiBufferedSendOfEagerSizeNeedsNoBuffer(World w) {
        int eagerInts = w.eagerThreshold() / 4;
        w.run(() -> {
            int me = rank();
            // No buffer attached: three small messages to the right neighbour, before it receives.
            MPI.COMM_WORLD.bSend(ints(10, me), 10, MPI.INT, right(), 1);
            Request r = MPI.COMM_WORLD.ibSend(ints(eagerInts, me + 100), eagerInts, MPI.INT, right(), 2);
            r.waitFor();
            Prequest p = MPI.COMM_WORLD.bSendInit(ints(3, me + 200), 3, MPI.INT, right(), 3);
            p.start();
            p.waitFor();
            p.free();
            int[] in = new int[eagerInts];
            MPI.COMM_WORLD.recv(in, 10, MPI.INT, left(), 1);
            assertArrayEquals(ints(10, left()), Arrays.copyOf(in, 10));
            MPI.COMM_WORLD.recv(in, eagerInts, MPI.INT, left(), 2);
            assertArrayEquals(ints(eagerInts, left() + 100), in);
            MPI.COMM_WORLD.recv(in, 3, MPI.INT, left(), 3);
            assertArrayEquals(ints(3, left() + 200), Arrays.copyOf(in, 3));
            // One int more than the threshold needs the buffer: none attached, then one too small.
            int[] big = new int[eagerInts + 1];
            assertMpiError(MPI.ERR_BUFFER,
                () -> MPI.COMM_WORLD.bSend(big, big.length, MPI.INT, right(), 4), "bSend", "buffer");
            assertMpiError(MPI.ERR_BUFFER,
                () -> MPI.COMM_WORLD.ibSend(big, big.length, MPI.INT, right(), 4), "ibSend", "buffer");
            MPI.attachBuffer(new byte[16 + MPI.BSEND_OVERHEAD]);
            assertMpiError(MPI.ERR_BUFFER,
                () -> MPI.COMM_WORLD.bSend(big, big.length, MPI.INT, right(), 4), "bSend", "buffer");
            // A small message does not take the room of the attached buffer, which stays whole.
            MPI.COMM_WORLD.bSend(ints(8, me), 8, MPI.INT, right(), 5);
            MPI.COMM_WORLD.bSend(ints(8, me + 1), 8, MPI.INT, right(), 5);
            MPI.COMM_WORLD.recv(in, 8, MPI.INT, left(), 5);
            assertArrayEquals(ints(8, left()), Arrays.copyOf(in, 8));
            MPI.COMM_WORLD.recv(in, 8, MPI.INT, left(), 5);
            assertArrayEquals(ints(8, left() + 1), Arrays.copyOf(in, 8));
            MPI.detachBuffer();
            MPI.COMM_WORLD.barrier();
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Open MPI: bSend larger than the eager threshold goes through the attached buffer")
    void openMpiBufferedSendAboveTheThresholdUsesTheBuffer(World w) {
        int n = w.eagerThreshold() / 4 + 16;
        w.run(() -> {
            int peer = 1 - rank();
            MPI.attachBuffer(new byte[n * 4 + MPI.BSEND_OVERHEAD]);
            MPI.COMM_WORLD.bSend(ints(n, rank()), n, MPI.INT, peer, 0);
            // The buffer holds the first until the peer receives it: a second large one does not fit.
            assertMpiError(MPI.ERR_BUFFER,
                () -> MPI.COMM_WORLD.bSend(ints(n, 0), n, MPI.INT, peer, 1), "bSend", "buffer");
            MPI.COMM_WORLD.barrier(); // neither receives before both have tried their second
            int[] in = new int[n];
            MPI.COMM_WORLD.recv(in, n, MPI.INT, peer, 0);
            assertArrayEquals(ints(n, peer), in);
            MPI.detachBuffer();
            return null;
        });
    }
}
