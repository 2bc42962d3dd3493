package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMentions;
import static org.mpjlite.p2p.Jobs.assertMpiError;
import static org.mpjlite.p2p.Jobs.ints;
import static org.mpjlite.p2p.Jobs.rank;
import static org.mpjlite.p2p.Jobs.size;

import java.util.ArrayList;
import java.util.List;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.DisplayName;
import org.mpjlite.p2p.Jobs.World;

/**
 * Matching on (communicator, source, tag) with wildcards, non-overtaking order, exactly-once
 * delivery, probes, PROC_NULL, truncation and counts smaller than the buffer.
 */
class MatchingTest {
    @Jobs.MultiRanksBothProtocols
    @DisplayName("ANY_SOURCE/ANY_TAG from every other rank: each message exactly once, in order per sender")
    void wildcardReceivesFromSeveralSenders(World w) {
        int perSender = 200;
        List<int[]> received = w.run(() -> {
            if (rank() != 0) {
                for (int seq = 0; seq < perSender; seq++) {
                    MPI.COMM_WORLD.Send(new int[] {rank(), seq}, 0, 2, MPI.INT, 0, seq % 5);
                }
                return null;
            }
            int[] next = new int[size()];
            int[] msg = new int[2];
            for (int i = 0; i < perSender * (size() - 1); i++) {
                Status s = MPI.COMM_WORLD.Recv(msg, 0, 2, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                assertEquals(msg[0], s.source, "status source is the sender");
                assertEquals(msg[1] % 5, s.tag, "status tag is the sent tag");
                assertEquals(next[s.source], msg[1], "messages of rank " + s.source + " in order, none lost");
                next[s.source]++;
            }
            assertNull(MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, MPI.ANY_TAG), "no message left over");
            return next;
        });
        for (int src = 1; src < w.size(); src++) {
            assertEquals(perSender, received.get(0)[src], "messages received from rank " + src);
        }
    }

    @Jobs.PairsBothProtocols
    @DisplayName("non-overtaking: 300 messages alternating eager and rendezvous sizes arrive in send order")
    void nonOvertakingAcrossProtocols(World w) {
        int messages = 300;
        int large = 6000;
        w.run(() -> {
            if (rank() == 0) {
                for (int seq = 0; seq < messages; seq++) {
                    int n = seq % 3 == 1 ? large : 1 + seq % 7;
                    MPI.COMM_WORLD.Send(ints(n, seq), 0, n, MPI.INT, 1, 3);
                }
            } else {
                int[] in = new int[large];
                for (int seq = 0; seq < messages; seq++) {
                    Status s = MPI.COMM_WORLD.Recv(in, 0, large, MPI.INT, 0, MPI.ANY_TAG);
                    int n = seq % 3 == 1 ? large : 1 + seq % 7;
                    assertEquals(n, s.Get_count(MPI.INT), "length of message " + seq);
                    assertEquals(ints(1, seq)[0], in[0], "message " + seq + " arrives in position " + seq);
                    assertEquals(ints(n, seq)[n - 1], in[n - 1]);
                }
            }
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("receives select by tag: the later-sent tag is received first")
    void tagSelectsAmongPendingMessages(World w) {
        w.run(() -> {
            if (rank() == 0) {
                Request[] r = {
                    MPI.COMM_WORLD.Isend(new int[] {1}, 0, 1, MPI.INT, 1, 1),
                    MPI.COMM_WORLD.Isend(new int[] {2}, 0, 1, MPI.INT, 1, 2),
                    MPI.COMM_WORLD.Isend(new int[] {3}, 0, 1, MPI.INT, 1, 3)};
                Request.Waitall(r);
            } else {
                int[] in = new int[1];
                for (int tag : new int[] {3, 1, 2}) {
                    Status s = MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, 0, tag);
                    assertEquals(tag, s.tag);
                    assertEquals(tag, in[0]);
                }
            }
            return null;
        });
    }

    @Jobs.MultiRanksBothProtocols
    @DisplayName("Probe and probe report source, tag and count without consuming; Iprobe is null when nothing waits")
    void probeThenReceive(World w) {
        w.run(() -> {
            if (rank() == 0) {
                assertNull(MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, 99), "Iprobe with nothing sent");
                assertNull(MPI.COMM_WORLD.iProbe(1, MPI.ANY_TAG), "iProbe before rank 1 was told to send");
                for (int src = 1; src < size(); src++) {
                    MPI.COMM_WORLD.Send(new int[0], 0, 0, MPI.INT, src, 0);
                }
                for (int i = 1; i < size(); i++) {
                    Status p = i % 2 == 0 ? MPI.COMM_WORLD.Probe(MPI.ANY_SOURCE, MPI.ANY_TAG)
                        : MPI.COMM_WORLD.probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
                    int src = p.source;
                    assertEquals(src, p.getSource());
                    assertEquals(10 + src, p.getTag());
                    assertEquals(src * 3, p.Get_count(MPI.INT));
                    Status again = MPI.COMM_WORLD.Probe(src, 10 + src);
                    assertEquals(src * 3, again.Get_count(MPI.INT), "probing does not consume");
                    int[] in = new int[p.Get_count(MPI.INT)];
                    Status s = MPI.COMM_WORLD.Recv(in, 0, in.length, MPI.INT, p.source, p.tag);
                    assertEquals(src, s.source);
                    assertArrayEquals(ints(src * 3, src), in);
                }
                assertNull(MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, MPI.ANY_TAG), "every message was received");
            } else {
                MPI.COMM_WORLD.Recv(new int[0], 0, 0, MPI.INT, 0, 0);
                int n = rank() * 3;
                MPI.COMM_WORLD.Send(ints(n, rank()), 0, n, MPI.INT, 0, 10 + rank());
            }
            return null;
        });
    }

    @Jobs.Pairs
    @DisplayName("Iprobe polls until a message arrives, then reports it")
    void iprobePolling(World w) {
        w.run(() -> {
            if (rank() == 0) {
                MPI.COMM_WORLD.Send(new long[] {5, 6}, 0, 2, MPI.LONG, 1, 4);
            } else {
                Status s;
                while ((s = MPI.COMM_WORLD.Iprobe(0, 4)) == null) {
                    Thread.onSpinWait();
                }
                assertEquals(0, s.source);
                assertEquals(4, s.tag);
                assertEquals(2, s.Get_count(MPI.LONG));
                long[] in = new long[2];
                MPI.COMM_WORLD.Recv(in, 0, 2, MPI.LONG, 0, 4);
                assertArrayEquals(new long[] {5, 6}, in);
            }
            return null;
        });
    }

    @Jobs.AnyRanks
    @DisplayName("PROC_NULL as source or destination completes at once: source PROC_NULL, tag ANY_TAG, count 0")
    void procNull(World w) {
        w.run(() -> {
            int[] buf = {7, 7};
            MPI.COMM_WORLD.Send(buf, 0, 2, MPI.INT, MPI.PROC_NULL, 1);
            MPI.COMM_WORLD.Ssend(buf, 0, 2, MPI.INT, MPI.PROC_NULL, 1);
            MPI.COMM_WORLD.send(buf, 2, MPI.INT, MPI.PROC_NULL, 1);
            List<Status> statuses = new ArrayList<>();
            statuses.add(MPI.COMM_WORLD.Recv(buf, 0, 2, MPI.INT, MPI.PROC_NULL, 1));
            statuses.add(MPI.COMM_WORLD.recv(buf, 2, MPI.INT, MPI.PROC_NULL, MPI.ANY_TAG));
            Request recv = MPI.COMM_WORLD.Irecv(buf, 0, 2, MPI.INT, MPI.PROC_NULL, 1);
            Status tested = recv.Test();
            assertNotNull(tested, "an Irecv from PROC_NULL is complete at once");
            statuses.add(tested);
            statuses.add(MPI.COMM_WORLD.Isend(buf, 0, 2, MPI.INT, MPI.PROC_NULL, 1).Wait());
            statuses.add(MPI.COMM_WORLD.iRecv(MPI.newIntBuffer(2), 2, MPI.INT, MPI.PROC_NULL, 1).waitStatus());
            statuses.add(MPI.COMM_WORLD.Sendrecv(buf, 0, 1, MPI.INT, MPI.PROC_NULL, 1,
                buf, 1, 1, MPI.INT, MPI.PROC_NULL, 1));
            statuses.add(MPI.COMM_WORLD.Probe(MPI.PROC_NULL, 1));
            for (Status s : statuses) {
                assertEquals(MPI.PROC_NULL, s.source, s::toString);
                assertEquals(MPI.PROC_NULL, s.getSource(), s::toString);
                assertEquals(MPI.ANY_TAG, s.tag, s::toString);
                assertEquals(0, s.Get_count(MPI.INT), s::toString);
                assertEquals(0, s.getCount(MPI.INT), s::toString);
            }
            assertArrayEquals(new int[] {7, 7}, buf, "a receive from PROC_NULL leaves the buffer alone");
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Get_count/getCount report the elements received when fewer than the buffer holds")
    void fewerElementsThanTheBuffer(World w) {
        w.run(() -> {
            if (rank() == 0) {
                MPI.COMM_WORLD.Send(new double[] {1.5, 2.5, 3.5}, 0, 3, MPI.DOUBLE, 1, 0);
                MPI.COMM_WORLD.send(new short[] {9}, 1, MPI.SHORT, 1, 0);
            } else {
                double[] in = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
                Status s = MPI.COMM_WORLD.Recv(in, 1, 9, MPI.DOUBLE, 0, 0);
                assertEquals(3, s.Get_count(MPI.DOUBLE));
                assertArrayEquals(new double[] {-1, 1.5, 2.5, 3.5, -1, -1, -1, -1, -1, -1}, in);
                short[] shorts = new short[4];
                s = MPI.COMM_WORLD.recv(shorts, 4, MPI.SHORT, 0, 0);
                assertEquals(1, s.getCount(MPI.SHORT));
                assertArrayEquals(new short[] {9, 0, 0, 0}, shorts);
            }
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("a message longer than the buffer: ERR_TRUNCATE naming both sizes; the sender completes; later traffic is fine")
    void truncation(World w) {
        w.run(() -> {
            if (rank() == 0) {
                MPI.COMM_WORLD.Send(ints(12, 1), 0, 12, MPI.INT, 1, 0);
                MPI.COMM_WORLD.send(ints(5000, 2), 5000, MPI.INT, 1, 1);
                MPI.COMM_WORLD.Isend(ints(13, 3), 0, 13, MPI.INT, 1, 2).Wait();
                MPI.COMM_WORLD.Send(ints(2, 4), 0, 2, MPI.INT, 1, 3);
            } else {
                int[] small = new int[7];
                MPIException e = assertMpiError(MPI.ERR_TRUNCATE,
                    () -> MPI.COMM_WORLD.Recv(small, 0, 7, MPI.INT, 0, 0), "Recv");
                assertSizesNamed(e, 12, 7);
                e = assertMpiError(MPI.ERR_TRUNCATE,
                    () -> MPI.COMM_WORLD.recv(new int[4000], 4000, MPI.INT, 0, 1), "recv");
                assertSizesNamed(e, 5000, 4000);
                Request r = MPI.COMM_WORLD.Irecv(small, 0, 7, MPI.INT, 0, 2);
                e = assertMpiError(MPI.ERR_TRUNCATE, r::Wait);
                assertSizesNamed(e, 13, 7);
                Status s = MPI.COMM_WORLD.Recv(small, 0, 7, MPI.INT, 0, MPI.ANY_TAG);
                assertEquals(3, s.tag, "the truncated messages were consumed");
                assertEquals(2, s.Get_count(MPI.INT));
                assertEquals(ints(2, 4)[1], small[1]);
            }
            return null;
        });
    }

    /** The message names the message size and the buffer size, in elements or in bytes. */
    private static void assertSizesNamed(MPIException e, int sent, int capacity) {
        String m = e.getMessage();
        boolean elements = m.contains(String.valueOf(sent)) && m.contains(String.valueOf(capacity));
        boolean bytes = m.contains(String.valueOf(sent * 4)) && m.contains(String.valueOf(capacity * 4));
        assertTrue(elements || bytes, () -> "should name " + sent + " and " + capacity + ": " + m);
        assertMentions(m, "truncat|longer");
    }
}
