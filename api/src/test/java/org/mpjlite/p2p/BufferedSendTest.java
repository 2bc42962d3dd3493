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
import mpi.MPI;
import org.junit.jupiter.api.DisplayName;
import org.mpjlite.p2p.Jobs.World;

/** Bsend and bSend through the attached buffer; ERR_BUFFER without one or with one too small. */
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
    @DisplayName("Bsend/bSend/Ibsend without an attached buffer, after detach, or too large: ERR_BUFFER")
    void bsendWithoutEnoughBuffer(World w) {
        w.run(() -> {
            int[] data = new int[1000];
            assertMpiError(MPI.ERR_BUFFER,
                () -> MPI.COMM_WORLD.Bsend(data, 0, 10, MPI.INT, right(), 0), "Bsend", "buffer");
            assertMpiError(MPI.ERR_BUFFER,
                () -> MPI.COMM_WORLD.bSend(data, 10, MPI.INT, right(), 0), "bSend", "buffer");
            assertMpiError(MPI.ERR_BUFFER,
                () -> MPI.COMM_WORLD.Ibsend(data, 0, 10, MPI.INT, right(), 0).Wait(), "send", "buffer");
            MPI.Buffer_attach(ByteBuffer.allocate(100 + MPI.BSEND_OVERHEAD));
            assertMpiError(MPI.ERR_BUFFER,
                () -> MPI.COMM_WORLD.Bsend(data, 0, 1000, MPI.INT, right(), 0), "Bsend", "buffer");
            MPI.Buffer_detach();
            assertMpiError(MPI.ERR_BUFFER,
                () -> MPI.COMM_WORLD.Bsend(data, 0, 1, MPI.INT, right(), 0), "Bsend", "buffer");
            assertMpiError(MPI.ERR_BUFFER, MPI::Buffer_detach, "buffer");
            return null;
        });
    }
}
