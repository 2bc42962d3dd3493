package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.bytes;
import static org.mpjlite.p2p.Jobs.ints;
import static org.mpjlite.p2p.Jobs.left;
import static org.mpjlite.p2p.Jobs.rank;
import static org.mpjlite.p2p.Jobs.right;
import static org.mpjlite.p2p.Jobs.size;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.mpjlite.p2p.Jobs.World;

/** Blocking Send/Recv in all four send modes, both dialects, eager and rendezvous sizes. */
class BlockingSendRecvTest {
    private static final int TAG = 11;

    @Jobs.AnyRanks
    @DisplayName("mpiJava: each rank sends its rank to the right and receives the left's (Send before Recv)")
    void ringShiftMpiJava(World w) {
        List<int[]> got = w.run(() -> {
            int[] out = {rank(), -1, 42};
            MPI.COMM_WORLD.Send(out, 0, 1, MPI.INT, right(), TAG);
            int[] in = {-1, -1, -1};
            Status s = MPI.COMM_WORLD.Recv(in, 1, 2, MPI.INT, left(), TAG);
            assertEquals(left(), s.source);
            assertEquals(TAG, s.tag);
            assertEquals(1, s.Get_count(MPI.INT));
            return in;
        });
        for (int r = 0; r < w.size(); r++) {
            assertArrayEquals(new int[] {-1, (r + w.size() - 1) % w.size(), -1}, got.get(r), "rank " + r);
        }
    }

    @Jobs.AnyRanks
    @DisplayName("Open MPI: ring shift with getRank/getSize, send/recv of a direct IntBuffer and an int[]")
    void ringShiftOpenMpi(World w) {
        List<int[]> got = w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int n = MPI.COMM_WORLD.getSize();
            assertEquals(rank(), me);
            assertEquals(size(), n);
            IntBuffer out = MPI.newIntBuffer(2);
            out.put(0, me).put(1, me * 10);
            MPI.COMM_WORLD.send(out, 2, MPI.INT, (me + 1) % n, TAG);
            MPI.COMM_WORLD.send(new int[] {me * 100}, 1, MPI.INT, (me + 1) % n, TAG + 1);
            int[] in = new int[3];
            Status s = MPI.COMM_WORLD.recv(in, 2, MPI.INT, (me + n - 1) % n, TAG);
            assertEquals((me + n - 1) % n, s.getSource());
            assertEquals(TAG, s.getTag());
            assertEquals(2, s.getCount(MPI.INT));
            s = MPI.COMM_WORLD.recv(MPI.slice(in, 2), 1, MPI.INT, MPI.ANY_SOURCE, TAG + 1);
            assertEquals(1, s.getCount(MPI.INT));
            return in;
        });
        for (int r = 0; r < w.size(); r++) {
            int l = (r + w.size() - 1) % w.size();
            assertArrayEquals(new int[] {l, l * 10, l * 100}, got.get(r), "rank " + r);
        }
    }

    @Jobs.MultiRanks
    @DisplayName("small messages are buffered: every rank sends to every other rank before receiving any")
    void smallSendsReturnBeforeTheReceiverArrives(World w) {
        List<int[]> got = w.run(() -> {
            for (int d = 0; d < size(); d++) {
                if (d != rank()) {
                    MPI.COMM_WORLD.Send(new int[] {rank() * 1000 + d}, 0, 1, MPI.INT, d, TAG);
                }
            }
            int[] in = new int[size()];
            for (int src = 0; src < size(); src++) {
                if (src != rank()) {
                    MPI.COMM_WORLD.Recv(in, src, 1, MPI.INT, src, TAG);
                }
            }
            return in;
        });
        for (int r = 0; r < w.size(); r++) {
            for (int src = 0; src < w.size(); src++) {
                assertEquals(src == r ? 0 : src * 1000 + r, got.get(r)[src], "rank " + r + " from " + src);
            }
        }
    }

    @Jobs.PairsBothProtocols
    @DisplayName("byte messages of 8 B, around the eager threshold and 64 KiB arrive whole, both ways")
    void sizesAroundTheEagerThreshold(World w) {
        int[] sizes = {8, 16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1, 64 * 1024};
        w.run(() -> {
            int peer = 1 - rank();
            for (int n : sizes) {
                byte[] in = new byte[n + 4];
                if (rank() == 0) {
                    MPI.COMM_WORLD.Send(bytes(n, n), 0, n, MPI.BYTE, peer, n);
                    Status s = MPI.COMM_WORLD.Recv(in, 4, n, MPI.BYTE, peer, n);
                    assertEquals(n, s.Get_count(MPI.BYTE));
                    assertArrayEquals(bytes(n, n + 1), Arrays.copyOfRange(in, 4, n + 4), "size " + n);
                } else {
                    Status s = MPI.COMM_WORLD.Recv(in, 0, n, MPI.BYTE, peer, n);
                    assertEquals(n, s.Get_count(MPI.BYTE));
                    assertArrayEquals(bytes(n, n), Arrays.copyOf(in, n), "size " + n);
                    MPI.COMM_WORLD.Send(bytes(n, n + 1), 0, n, MPI.BYTE, peer, n);
                }
            }
            return null;
        });
    }

    @Jobs.Pairs
    @Timeout(30)
    @DisplayName("1 MiB: mpiJava byte[] and Open MPI direct ByteBuffer, both protocols")
    void oneMebibyte(World w) {
        int n = 1 << 20;
        for (World shape : List.of(w, w.rendezvousOnly())) {
            shape.run(() -> {
                if (rank() == 0) {
                    MPI.COMM_WORLD.Send(bytes(n, 3), 0, n, MPI.BYTE, 1, TAG);
                    ByteBuffer bb = MPI.newByteBuffer(n);
                    Status s = MPI.COMM_WORLD.recv(bb, n, MPI.BYTE, 1, TAG);
                    assertEquals(n, s.getCount(MPI.BYTE));
                    byte[] back = new byte[n];
                    bb.get(0, back);
                    assertArrayEquals(bytes(n, 4), back);
                } else {
                    byte[] in = new byte[n];
                    MPI.COMM_WORLD.Recv(in, 0, n, MPI.BYTE, 0, TAG);
                    assertArrayEquals(bytes(n, 3), in);
                    ByteBuffer bb = MPI.newByteBuffer(n);
                    bb.put(0, bytes(n, 4));
                    MPI.COMM_WORLD.send(bb, n, MPI.BYTE, 0, TAG);
                }
                return null;
            });
        }
    }

    @Jobs.Pairs
    @DisplayName("the eager threshold is configurable: up to it Send returns at once, above it Send waits for the receive")
    void configurableEagerThreshold(World w) {
        int threshold = 1024;
        AtomicInteger receivesPosted = new AtomicInteger();
        new World(2, w.matching(), threshold).run(() -> {
            int[] sizes = {threshold, threshold + 1};
            for (int round = 0; round < sizes.length; round++) {
                int n = sizes[round];
                if (rank() == 0) {
                    MPI.COMM_WORLD.Send(bytes(n, 1), 0, n, MPI.BYTE, 1, TAG);
                    // Eager: rank 1 is still asleep, its receive for this round not posted yet.
                    // Rendezvous: Send returned after that receive was posted.
                    assertEquals(n > threshold ? round + 1 : round, receivesPosted.get(),
                        n + " bytes: receives posted when Send returned");
                    MPI.COMM_WORLD.Recv(new byte[0], 0, 0, MPI.BYTE, 1, TAG + 1);
                } else {
                    Thread.sleep(200);
                    receivesPosted.incrementAndGet();
                    byte[] in = new byte[n];
                    MPI.COMM_WORLD.Recv(in, 0, n, MPI.BYTE, 0, TAG);
                    assertArrayEquals(bytes(n, 1), in);
                    MPI.COMM_WORLD.Send(new byte[0], 0, 0, MPI.BYTE, 0, TAG + 1);
                }
            }
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Ssend and sSend return only after the receive has been posted")
    void ssendCompletesOnlyWhenMatched(World w) {
        AtomicBoolean receivePosted = new AtomicBoolean();
        w.run(() -> {
            if (rank() == 0) {
                MPI.COMM_WORLD.Ssend(new int[] {7}, 0, 1, MPI.INT, 1, TAG);
                assertTrue(receivePosted.get(), "Ssend returned before the receive was posted");
                receivePosted.set(false);
                MPI.COMM_WORLD.Send(new int[0], 0, 0, MPI.INT, 1, TAG + 1);
                MPI.COMM_WORLD.sSend(new int[] {8}, 1, MPI.INT, 1, TAG);
                assertTrue(receivePosted.get(), "sSend returned before the receive was posted");
            } else {
                int[] in = new int[1];
                Thread.sleep(150);
                receivePosted.set(true);
                MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, 0, TAG);
                assertEquals(7, in[0]);
                MPI.COMM_WORLD.Recv(in, 0, 0, MPI.INT, 0, TAG + 1);
                Thread.sleep(150);
                receivePosted.set(true);
                MPI.COMM_WORLD.recv(in, 1, MPI.INT, 0, TAG);
                assertEquals(8, in[0]);
            }
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Rsend and rSend to a receive that is already posted deliver the data")
    void rsendToAPostedReceive(World w) {
        int n = 5000;
        w.run(() -> {
            int[] in = new int[n];
            if (rank() == 1) {
                for (int round = 0; round < 2; round++) {
                    Request r = MPI.COMM_WORLD.Irecv(in, 0, n, MPI.INT, 0, TAG);
                    MPI.COMM_WORLD.Send(new int[0], 0, 0, MPI.INT, 0, TAG + 1);
                    Status s = r.Wait();
                    assertEquals(n, s.Get_count(MPI.INT));
                    assertArrayEquals(ints(n, round), in);
                }
            } else {
                MPI.COMM_WORLD.Recv(in, 0, 0, MPI.INT, 1, TAG + 1);
                MPI.COMM_WORLD.Rsend(ints(n, 0), 0, n, MPI.INT, 1, TAG);
                MPI.COMM_WORLD.Recv(in, 0, 0, MPI.INT, 1, TAG + 1);
                MPI.COMM_WORLD.rSend(ints(n, 1), n, MPI.INT, 1, TAG);
            }
            return null;
        });
    }

    @Jobs.AnyRanks
    @DisplayName("a message of 0 elements is matched and reports count 0")
    void emptyMessage(World w) {
        List<Integer> counts = w.run(() -> {
            MPI.COMM_WORLD.Send(new byte[0], 0, 0, MPI.BYTE, right(), TAG);
            Status s = MPI.COMM_WORLD.Recv(new byte[3], 0, 3, MPI.BYTE, left(), TAG);
            assertEquals(left(), s.source);
            return s.Get_count(MPI.BYTE);
        });
        assertTrue(counts.stream().allMatch(c -> c == 0), counts::toString);
    }
}
