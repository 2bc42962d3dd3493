package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMpiError;
import static org.mpjlite.p2p.Jobs.ints;
import static org.mpjlite.p2p.Jobs.left;
import static org.mpjlite.p2p.Jobs.rank;
import static org.mpjlite.p2p.Jobs.right;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.List;
import mpi.MPI;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.DisplayName;
import org.mpjlite.p2p.Jobs.World;

/** Persistent requests of every send mode, restarted in loops; both dialects. */
class PersistentRequestTest {
    private static final int ROUNDS = 50;

    @Jobs.AnyRanks
    @DisplayName("Start and Startall of an active, freed or repeated request: ERR_REQUEST naming the call and "
        + "the request; a Startall that fails starts none of its requests")
    void startingWhatCannotStart(World w) {
        w.run(() -> {
            int[] out = {rank()};
            int[] in = {-1};
            int[] never = {-1};
            Prequest send = MPI.COMM_WORLD.Send_init(out, 0, 1, MPI.INT, right(), 4);
            Prequest recv = MPI.COMM_WORLD.Recv_init(in, 0, 1, MPI.INT, left(), 4);
            // Would take the ring's next message if it were ever started.
            Prequest idle = MPI.COMM_WORLD.Recv_init(never, 0, 1, MPI.INT, left(), 4);
            recv.Start();
            assertMpiError(MPI.ERR_REQUEST, recv::Start, "Start", "active");
            assertMpiError(MPI.ERR_REQUEST, recv::start, "start", "active");
            assertMpiError(MPI.ERR_REQUEST, () -> Prequest.Startall(new Prequest[] {idle, recv}), "Startall",
                "request 1", "active");
            assertMpiError(MPI.ERR_REQUEST, () -> Prequest.Startall(new Prequest[] {idle, null, idle}), "Startall",
                "request 2", "request 0");
            Prequest[] many = new Prequest[40];
            many[3] = idle;
            many[39] = idle;
            assertMpiError(MPI.ERR_REQUEST, () -> Prequest.Startall(many), "Startall", "request 39", "request 3");
            assertMpiError(MPI.ERR_REQUEST, () -> Prequest.startAll(new Prequest[] {send, send}), "startAll",
                "request 1", "request 0");
            assertMpiError(MPI.ERR_ARG, () -> Prequest.Startall(null), "Startall", "null");
            // An error of the operation itself names the call that started it.
            Prequest unserializable = MPI.COMM_WORLD.Send_init(new Object[] {new Object()}, 0, 1, MPI.OBJECT, right(), 4);
            assertMpiError(MPI.ERR_ARG, unserializable::Start, "Start", "Serializable");
            assertMpiError(MPI.ERR_ARG, () -> Prequest.Startall(new Prequest[] {unserializable}), "Startall",
                "Serializable");
            unserializable.Free();
            send.Start();
            Request.Waitall(new Request[] {send, recv});
            assertEquals(left(), in[0]);
            // Nothing started idle: the next message goes to the next receive posted.
            out[0] = rank() + 100;
            send.Start();
            int[] got = {-1};
            MPI.COMM_WORLD.Recv(got, 0, 1, MPI.INT, left(), 4);
            send.Wait();
            assertEquals(left() + 100, got[0]);
            assertEquals(-1, never[0]);
            idle.Free();
            assertMpiError(MPI.ERR_REQUEST, idle::Start, "Start", "freed");
            assertMpiError(MPI.ERR_REQUEST, () -> Prequest.Startall(new Prequest[] {recv, idle}), "Startall",
                "request 1", "freed");
            // Nor did that Startall start recv.
            out[0] = rank() + 200;
            send.Start();
            MPI.COMM_WORLD.Recv(got, 0, 1, MPI.INT, left(), 4);
            send.Wait();
            assertEquals(left() + 200, got[0]);
            assertEquals(left(), in[0]);
            send.Free();
            recv.Free();
            return null;
        });
    }

    @Jobs.MultiRanksBothProtocols
    @DisplayName("Send_init/Recv_init around the ring, Startall and Waitall 50 times; each round's data arrives")
    void ringWithStartall(World w) {
        List<Integer> sums = w.run(() -> {
            int[] out = new int[2];
            int[] in = new int[2];
            Prequest send = MPI.COMM_WORLD.Send_init(out, 0, 2, MPI.INT, right(), 3);
            Prequest recv = MPI.COMM_WORLD.Recv_init(in, 0, 2, MPI.INT, left(), 3);
            int sum = 0;
            for (int round = 0; round < ROUNDS; round++) {
                out[0] = rank();
                out[1] = round;
                Prequest.Startall(new Prequest[] {recv, send});
                Status[] s = Request.Waitall(new Request[] {recv, send});
                assertEquals(left(), s[0].source);
                assertEquals(3, s[0].tag);
                assertArrayEquals(new int[] {left(), round}, in, "round " + round);
                assertFalse(recv.Is_null(), "a persistent request stays allocated after completion");
                sum += in[1];
            }
            send.Free();
            recv.Free();
            assertTrue(send.Is_null());
            return sum;
        });
        sums.forEach(s -> assertEquals(ROUNDS * (ROUNDS - 1) / 2, s));
    }

    @Jobs.MultiRanksBothProtocols
    @DisplayName("A persistent receive from any source with any tag, restarted: each Wait and waitStatus has its start's"
        + " source, tag and count, and statuses kept from earlier starts do not change; a PROC_NULL one is empty")
    void statusesOfEveryStart(World w) {
        w.run(() -> {
            int[] three = new int[3];
            int[] two = new int[2];
            int[] in = new int[3];
            Prequest sendThree = MPI.COMM_WORLD.Send_init(three, 0, 3, MPI.INT, right(), 5);
            Prequest sendTwo = MPI.COMM_WORLD.sendInit(two, 2, MPI.INT, right(), 6);
            Prequest recv = MPI.COMM_WORLD.Recv_init(in, 0, 3, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            Prequest none = MPI.COMM_WORLD.recvInit(in, 1, MPI.INT, MPI.PROC_NULL, 9);
            List<Status> kept = new java.util.ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                boolean odd = round % 2 == 1;
                three[0] = round;
                two[0] = -round;
                recv.Start();
                Prequest send = odd ? sendTwo : sendThree;
                send.Start();
                send.Wait();
                Status s = odd ? recv.waitStatus() : recv.Wait();
                assertEquals(left(), s.getSource(), "round " + round);
                assertEquals(odd ? 6 : 5, s.getTag(), "round " + round);
                assertEquals(odd ? 2 : 3, s.getCount(MPI.INT), "round " + round);
                assertEquals(odd ? -round : round, in[0], "round " + round);
                kept.add(s);
                none.start();
                Status empty = odd ? none.waitStatus() : none.Wait();
                assertEquals(MPI.PROC_NULL, empty.getSource(), "round " + round);
                assertEquals(MPI.ANY_TAG, empty.getTag(), "round " + round);
                assertEquals(0, empty.getCount(MPI.INT), "round " + round);
            }
            for (int round = 0; round < ROUNDS; round++) {
                boolean odd = round % 2 == 1;
                assertEquals(odd ? 6 : 5, kept.get(round).getTag(), "kept status of round " + round);
                assertEquals(odd ? 2 : 3, kept.get(round).getCount(MPI.INT), "kept status of round " + round);
            }
            for (Prequest p : new Prequest[] {sendThree, sendTwo, recv, none}) {
                p.Free();
            }
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Ssend_init, Bsend_init and Rsend_init restarted with Start/Wait deliver every round")
    void everySendModeRestarted(World w) {
        int n = 3000;
        w.run(() -> {
            int[] buf = new int[n];
            if (rank() == 0) {
                MPI.Buffer_attach(ByteBuffer.allocate(n * 4 + MPI.BSEND_OVERHEAD));
                Prequest[] sends = {
                    MPI.COMM_WORLD.Ssend_init(buf, 0, n, MPI.INT, 1, 0),
                    MPI.COMM_WORLD.Bsend_init(buf, 0, n, MPI.INT, 1, 1),
                    MPI.COMM_WORLD.Rsend_init(buf, 0, n, MPI.INT, 1, 2)};
                for (int round = 0; round < 10; round++) {
                    for (int mode = 0; mode < 3; mode++) {
                        System.arraycopy(ints(n, round * 3 + mode), 0, buf, 0, n);
                        // The receiver's "ready" makes the ready send legal.
                        MPI.COMM_WORLD.Recv(new int[0], 0, 0, MPI.INT, 1, 99);
                        sends[mode].Start();
                        sends[mode].Wait();
                    }
                }
                MPI.Buffer_detach();
            } else {
                Prequest recv = MPI.COMM_WORLD.Recv_init(buf, 0, n, MPI.INT, 0, MPI.ANY_TAG);
                for (int round = 0; round < 10; round++) {
                    for (int mode = 0; mode < 3; mode++) {
                        recv.Start();
                        MPI.COMM_WORLD.Send(new int[0], 0, 0, MPI.INT, 0, 99);
                        Status s = recv.Wait();
                        assertEquals(mode, s.tag);
                        assertArrayEquals(ints(n, round * 3 + mode), buf, "round " + round + ", mode " + mode);
                    }
                }
            }
            return null;
        });
    }

    @Jobs.MultiRanksBothProtocols
    @DisplayName("Open MPI: sendInit/recvInit with direct buffers, static startAll and waitAll in a loop")
    void openMpiRing(World w) {
        List<Integer> last = w.run(() -> {
            IntBuffer out = MPI.newIntBuffer(1);
            IntBuffer in = MPI.newIntBuffer(1);
            Prequest send = MPI.COMM_WORLD.sendInit(out, 1, MPI.INT, right(), 8);
            Prequest recv = MPI.COMM_WORLD.recvInit(in, 1, MPI.INT, left(), 8);
            for (int round = 0; round < ROUNDS; round++) {
                out.put(0, rank() * 1000 + round);
                Prequest.startAll(new Prequest[] {send, recv});
                Request.waitAll(new Request[] {send, recv});
                assertEquals(left() * 1000 + round, in.get(0), "round " + round);
            }
            recv.start();
            send.start();
            recv.waitFor();
            send.waitFor();
            send.free();
            recv.free();
            return in.get(0);
        });
        for (int r = 0; r < w.size(); r++) {
            assertEquals(((r + w.size() - 1) % w.size()) * 1000 + ROUNDS - 1, last.get(r));
        }
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Open MPI: sSendInit, bSendInit and rSendInit restarted with start/waitFor")
    void openMpiEverySendMode(World w) {
        w.run(() -> {
            IntBuffer buf = MPI.newIntBuffer(4);
            if (rank() == 0) {
                MPI.attachBuffer(new byte[4 * 4 + MPI.BSEND_OVERHEAD]);
                Prequest[] sends = {
                    MPI.COMM_WORLD.sSendInit(buf, 4, MPI.INT, 1, 0),
                    MPI.COMM_WORLD.bSendInit(buf, 4, MPI.INT, 1, 1),
                    MPI.COMM_WORLD.rSendInit(buf, 4, MPI.INT, 1, 2)};
                for (int round = 0; round < 5; round++) {
                    for (int mode = 0; mode < 3; mode++) {
                        buf.put(0, round).put(1, mode).put(2, -1).put(3, 42);
                        MPI.COMM_WORLD.recv(new int[0], 0, MPI.INT, 1, 99);
                        sends[mode].start();
                        sends[mode].waitFor();
                    }
                }
                MPI.detachBuffer();
            } else {
                Prequest recv = MPI.COMM_WORLD.recvInit(buf, 4, MPI.INT, 0, MPI.ANY_TAG);
                for (int round = 0; round < 5; round++) {
                    for (int mode = 0; mode < 3; mode++) {
                        recv.start();
                        MPI.COMM_WORLD.send(new int[0], 0, MPI.INT, 0, 99);
                        Status s = recv.waitStatus();
                        assertEquals(mode, s.getTag());
                        int[] got = new int[4];
                        buf.get(0, got);
                        assertArrayEquals(new int[] {round, mode, -1, 42}, got);
                    }
                }
            }
            return null;
        });
    }
}
