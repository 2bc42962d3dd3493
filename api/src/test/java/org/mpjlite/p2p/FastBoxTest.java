package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.mpjlite.p2p.Jobs.assertMpiError;
import static org.mpjlite.p2p.Jobs.ints;
import static org.mpjlite.p2p.Jobs.rank;
import static org.mpjlite.p2p.Jobs.size;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.DisplayName;
import org.mpjlite.MpjLite;
import org.mpjlite.p2p.Jobs.World;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Small messages through the per-pair fast boxes, side by side with the mailbox: order, content,
 * status and errors are the same whichever way a message went. The lock-free worlds of {@link Jobs}
 * open every box at once; the locked ones have none (the same assertions, as a reference).
 */
class FastBoxTest {
    /** Sizes in ints around the box's 32 bytes: 0-8 ints take it, 9 and more the mailbox. */
    private static int length(int seq) {
        return new int[] {1, 0, 8, 9, 2, 40, 3, 7, 12, 1}[seq % 10];
    }

    @Jobs.MultiRanksBothProtocols
    @DisplayName("all to all, sizes on both sides of the box, receivers late: every message in order, intact")
    void allToAllMixedSizes(World w) {
        int perPair = 150;
        w.run(() -> {
            int me = rank();
            List<Request> sends = new ArrayList<>();
            for (int d = 0; d < size(); d++) {
                if (d != me) {
                    for (int seq = 0; seq < perPair; seq++) {
                        int n = length(seq + d);
                        int[] data = ints(n, me * 1000 + seq);
                        // Receivers run late: boxes fill up and the mailbox takes over, then the box again.
                        sends.add(seq % 13 == 5 ? MPI.COMM_WORLD.Issend(data, 0, n, MPI.INT, d, seq % 4)
                            : MPI.COMM_WORLD.Isend(data, 0, n, MPI.INT, d, seq % 4));
                    }
                }
            }
            int[] next = new int[size()];
            int[] in = new int[64];
            for (int i = 0; i < perPair * (size() - 1); i++) {
                Status s = MPI.COMM_WORLD.Recv(in, 0, in.length, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                int src = s.source;
                int seq = next[src]++;
                int n = length(seq + me);
                assertEquals(seq % 4, s.tag, "tag of message " + seq + " from " + src);
                assertEquals(n, s.Get_count(MPI.INT), "count of message " + seq + " from " + src);
                int[] expected = ints(n, src * 1000 + seq);
                for (int k = 0; k < n; k++) {
                    assertEquals(expected[k], in[k], "element " + k + " of message " + seq + " from " + src);
                }
            }
            Request.Waitall(sends.toArray(new Request[0]));
            assertNull(MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, MPI.ANY_TAG), "nothing left over");
            return null;
        });
    }

    @Jobs.Pairs
    @DisplayName("a full box, then the mailbox, then the box again: 500 unexpected messages received in order")
    void runsFarAhead(World w) {
        int messages = 500;
        w.run(() -> {
            if (rank() == 0) {
                for (int seq = 0; seq < messages; seq++) {
                    MPI.COMM_WORLD.Send(new int[] {seq}, 0, 1, MPI.INT, 1, 9);
                }
                MPI.COMM_WORLD.Send(new int[0], 0, 0, MPI.INT, 1, 10); // all sent
            } else {
                Status last = MPI.COMM_WORLD.Probe(0, 10); // everything has been sent before it
                assertEquals(0, last.Get_count(MPI.INT));
                int[] in = new int[1];
                for (int seq = 0; seq < messages; seq++) {
                    MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, 0, 9);
                    assertEquals(seq, in[0]);
                }
                MPI.COMM_WORLD.Recv(in, 0, 0, MPI.INT, 0, 10);
            }
            return null;
        });
    }

    @Jobs.AnyRanks
    @DisplayName("probe, count and elements of a box message; a rank sends to itself through its own box")
    void probeAndSelf(World w) {
        w.run(() -> {
            int me = rank();
            int to = (me + 1) % size();
            for (int i = 0; i < 40; i++) {
                MPI.COMM_WORLD.Send(new double[] {i, -i, 0.5 * i}, 0, 3, MPI.DOUBLE, to, i);
                MPI.COMM_WORLD.Send(new short[] {(short) i}, 0, 1, MPI.SHORT, me, 100 + i);
            }
            int from = (me + size() - 1) % size();
            double[] in = new double[3];
            short[] mine = new short[1];
            for (int i = 0; i < 40; i++) {
                Status p = MPI.COMM_WORLD.Probe(from, i);
                assertEquals(3, p.Get_count(MPI.DOUBLE));
                assertEquals(3, p.Get_elements(MPI.DOUBLE));
                assertEquals(i, p.tag);
                MPI.COMM_WORLD.Recv(in, 0, 3, MPI.DOUBLE, from, i);
                assertArrayEquals(new double[] {i, -i, 0.5 * i}, in);
                MPI.COMM_WORLD.Recv(mine, 0, 1, MPI.SHORT, me, MPI.ANY_TAG);
                assertEquals(i, mine[0]);
            }
            return null;
        });
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"BIG_ENDIAN", "LITTLE_ENDIAN"})
    @DisplayName("direct ByteBuffers of either byte order (Open MPI dialect): bytes and ints arrive as sent")
    void byteBuffers(String orderName) {
        ByteOrder order = orderName.equals("BIG_ENDIAN") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        MpjLite.options().ranks(2).fastBoxAfter(0).run(() -> {
            MPI.Init(new String[0]);
            ByteBuffer b = ByteBuffer.allocateDirect(32).order(order);
            for (int i = 0; i < 30; i++) {
                if (rank() == 0) {
                    for (int k = 0; k < 8; k++) {
                        b.put(k, (byte) (i + k));
                    }
                    MPI.COMM_WORLD.send(b, 8, MPI.BYTE, 1, 1);
                    b.putInt(0, i * 7919);
                    b.putInt(4, -i);
                    MPI.COMM_WORLD.send(b, 2, MPI.INT, 1, 2);
                } else {
                    b.clear();
                    Status s = MPI.COMM_WORLD.recv(b, 32, MPI.BYTE, 0, 1);
                    assertEquals(8, s.getCount(MPI.BYTE));
                    for (int k = 0; k < 8; k++) {
                        assertEquals((byte) (i + k), b.get(k));
                    }
                    int[] in = new int[2];
                    MPI.COMM_WORLD.recv(in, 2, MPI.INT, 0, 2);
                    assertArrayEquals(new int[] {i * 7919, -i}, in);
                }
            }
            MPI.Finalize();
            return null;
        });
    }

    @Jobs.Pairs
    @DisplayName("through a box, a type mismatch names the send call and a longer message is ERR_TRUNCATE")
    void errorsThroughTheBox(World w) {
        w.run(() -> {
            if (rank() == 0) {
                for (int i = 0; i < 20; i++) {
                    MPI.COMM_WORLD.Send(new int[] {i}, 0, 1, MPI.INT, 1, 0); // opens and warms the box
                }
                MPI.COMM_WORLD.Rsend(new int[] {1, 2}, 0, 2, MPI.INT, 1, 1);
                MPI.COMM_WORLD.Send(new int[] {1, 2, 3, 4, 5, 6}, 0, 6, MPI.INT, 1, 2);
            } else {
                int[] in = new int[6];
                for (int i = 0; i < 20; i++) {
                    MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, 0, 0);
                }
                assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Recv(new double[2], 0, 2, MPI.DOUBLE, 0, 1),
                    "Recv", "Rsend(count=2, MPI.INT)", "MPI.DOUBLE");
                Status s = MPI.COMM_WORLD.Probe(0, 2);
                assertEquals(6, s.Get_count(MPI.INT));
                assertMpiError(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.Recv(in, 0, 4, MPI.INT, 0, 2),
                    "Recv", "longer", "6 elements");
                assertArrayEquals(new int[] {1, 2, 3, 4, 0, 0}, in, "the part that fits");
            }
            return null;
        });
    }

    @Jobs.MultiRanks
    @DisplayName("THREAD_SERIALIZED: sends from two threads in turn keep their order")
    void serializedThreads(World w) {
        w.runRaw(() -> {
            MPI.InitThread(new String[0], MPI.THREAD_SERIALIZED);
            int perThread = 60;
            if (rank() == 0) {
                AtomicReference<Throwable> failed = new AtomicReference<>();
                for (int round = 0; round < 2 * perThread; round++) {
                    int seq = round;
                    // Each send runs on a new thread, started after the previous one ended: ordered.
                    Thread t = new Thread(() -> {
                        for (int d = 1; d < size(); d++) {
                            MPI.COMM_WORLD.Send(new long[] {seq}, 0, 1, MPI.LONG, d, seq % 3);
                        }
                    });
                    t.setUncaughtExceptionHandler((th, e) -> failed.set(e));
                    t.start();
                    t.join();
                }
                assertNull(failed.get());
            } else {
                long[] in = new long[1];
                for (int seq = 0; seq < 2 * perThread; seq++) {
                    Status s = MPI.COMM_WORLD.Recv(in, 0, 1, MPI.LONG, 0, MPI.ANY_TAG);
                    assertEquals(seq, in[0]);
                    assertEquals(seq % 3, s.tag);
                }
            }
            MPI.Finalize();
            return null;
        });
    }
}
