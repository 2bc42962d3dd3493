package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.ints;
import static org.mpjlite.p2p.Jobs.left;
import static org.mpjlite.p2p.Jobs.rank;
import static org.mpjlite.p2p.Jobs.right;
import static org.mpjlite.p2p.Jobs.size;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.DisplayName;
import org.mpjlite.p2p.Jobs.World;

/**
 * Isend/Irecv and the other non-blocking sends, every Wait/Test family of both dialects (with the
 * index semantics of Waitany/Waitsome), Cancel, Free and Is_null.
 *
 * <p>Tests that need a request to be still incomplete hold the sender back with a "go" message:
 * rank 1 sends the later messages only after rank 0 tells it to.
 */
class NonBlockingTest {
    private static final int GO = 1000;
    private static final int ACK = 1001;

    /** Rank 0 tells rank 1 to go on. */
    private static void go() {
        MPI.COMM_WORLD.Send(new int[0], 0, 0, MPI.INT, 1, GO);
    }

    /** Rank 1 waits for rank 0's go. */
    private static void awaitGo() {
        MPI.COMM_WORLD.Recv(new int[0], 0, 0, MPI.INT, 0, GO);
    }

    @Jobs.AnyRanks
    @DisplayName("Isend/Irecv around the ring with every send mode, Waitall statuses in order")
    void ringOfEverySendMode(World w) {
        List<int[]> got = w.run(() -> {
            int[] in = new int[4 * 3];
            Request[] recvs = new Request[4];
            for (int mode = 0; mode < 4; mode++) {
                recvs[mode] = MPI.COMM_WORLD.Irecv(in, mode * 3, 3, MPI.INT, left(), mode);
            }
            // The receives are posted before anyone's ready send: everyone has posted after this.
            MPI.COMM_WORLD.Sendrecv(new int[0], 0, 0, MPI.INT, right(), GO, new int[0], 0, 0, MPI.INT, left(), GO);
            MPI.Buffer_attach(ByteBuffer.allocate(3 * 4 + MPI.BSEND_OVERHEAD));
            Request[] sends = {
                MPI.COMM_WORLD.Isend(ints(3, rank() * 10), 0, 3, MPI.INT, right(), 0),
                MPI.COMM_WORLD.Issend(ints(3, rank() * 10 + 1), 0, 3, MPI.INT, right(), 1),
                MPI.COMM_WORLD.Ibsend(ints(3, rank() * 10 + 2), 0, 3, MPI.INT, right(), 2),
                MPI.COMM_WORLD.Irsend(ints(3, rank() * 10 + 3), 0, 3, MPI.INT, right(), 3)};
            Status[] rs = Request.Waitall(recvs);
            Request.Waitall(sends);
            MPI.Buffer_detach();
            for (int mode = 0; mode < 4; mode++) {
                assertEquals(left(), rs[mode].source);
                assertEquals(mode, rs[mode].tag);
                assertEquals(3, rs[mode].Get_count(MPI.INT));
                assertTrue(recvs[mode].Is_null(), "a completed request is the null request");
                assertTrue(sends[mode].Is_null());
            }
            return in;
        });
        for (int r = 0; r < w.size(); r++) {
            int l = (r + w.size() - 1) % w.size();
            for (int mode = 0; mode < 4; mode++) {
                assertArrayEquals(ints(3, l * 10 + mode), Arrays.copyOfRange(got.get(r), mode * 3, mode * 3 + 3),
                    "rank " + r + ", mode " + mode);
            }
        }
    }

    @Jobs.AnyRanks
    @DisplayName("Open MPI: iSend/isSend/ibSend/irSend and iRecv of direct buffers, waitAllStatus")
    void ringOfEverySendModeOpenMpi(World w) {
        List<int[]> got = w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            IntBuffer[] in = new IntBuffer[4];
            Request[] recvs = new Request[4];
            for (int mode = 0; mode < 4; mode++) {
                in[mode] = MPI.newIntBuffer(2);
                recvs[mode] = MPI.COMM_WORLD.iRecv(in[mode], 2, MPI.INT, left(), mode);
            }
            MPI.COMM_WORLD.sendRecv(new int[0], 0, MPI.INT, right(), GO, new int[0], 0, MPI.INT, left(), GO);
            MPI.attachBuffer(new byte[2 * 4 + MPI.BSEND_OVERHEAD]);
            Request[] sends = new Request[4];
            for (int mode = 0; mode < 4; mode++) {
                IntBuffer out = MPI.newIntBuffer(2).put(0, me).put(1, mode);
                sends[mode] = switch (mode) {
                    case 0 -> MPI.COMM_WORLD.iSend(out, 2, MPI.INT, right(), mode);
                    case 1 -> MPI.COMM_WORLD.isSend(out, 2, MPI.INT, right(), mode);
                    case 2 -> MPI.COMM_WORLD.ibSend(out, 2, MPI.INT, right(), mode);
                    default -> MPI.COMM_WORLD.irSend(out, 2, MPI.INT, right(), mode);
                };
            }
            Status[] rs = Request.waitAllStatus(recvs);
            Request.waitAll(sends);
            MPI.detachBuffer();
            int[] out = new int[8];
            for (int mode = 0; mode < 4; mode++) {
                assertEquals(left(), rs[mode].getSource());
                assertEquals(mode, rs[mode].getTag());
                assertTrue(recvs[mode].isNull());
                out[2 * mode] = in[mode].get(0);
                out[2 * mode + 1] = in[mode].get(1);
            }
            return out;
        });
        for (int r = 0; r < w.size(); r++) {
            int l = (r + w.size() - 1) % w.size();
            assertArrayEquals(new int[] {l, 0, l, 1, l, 2, l, 3}, got.get(r), "rank " + r);
        }
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Test is null and test() false until the message is sent; then the status, and the request is null")
    void testBeforeAndAfterCompletion(World w) {
        w.run(() -> {
            if (rank() == 0) {
                int[] a = new int[1];
                int[] b = new int[1];
                Request r = MPI.COMM_WORLD.Irecv(a, 0, 1, MPI.INT, 1, 5);
                Request q = MPI.COMM_WORLD.Irecv(b, 0, 1, MPI.INT, 1, 6);
                assertNull(r.Test(), "Test before the send");
                assertFalse(q.test(), "test() before the send");
                assertNull(q.testStatus(), "testStatus() before the send");
                assertFalse(r.Is_null());
                go();
                Status s;
                while ((s = r.Test()) == null) {
                    Thread.onSpinWait();
                }
                assertEquals(1, s.source);
                assertEquals(5, s.tag);
                assertEquals(51, a[0]);
                assertTrue(r.Is_null());
                while (!q.test()) {
                    Thread.onSpinWait();
                }
                assertEquals(61, b[0]);
                assertTrue(q.isNull());
            } else {
                awaitGo();
                MPI.COMM_WORLD.Send(new int[] {51}, 0, 1, MPI.INT, 0, 5);
                MPI.COMM_WORLD.Send(new int[] {61}, 0, 1, MPI.INT, 0, 6);
            }
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Testall/testAll: null/false while one is pending, then every status in array order")
    void testallOnlyWhenAllComplete(World w) {
        w.run(() -> {
            if (rank() == 0) {
                int[] in = new int[3];
                Request[] r = new Request[3];
                for (int t = 0; t < 3; t++) {
                    r[t] = MPI.COMM_WORLD.Irecv(in, t, 1, MPI.INT, 1, t);
                }
                r[0].Wait();
                assertNull(Request.Testall(r), "Testall with two pending");
                assertFalse(Request.testAll(r), "testAll with two pending");
                go();
                Status[] all;
                while ((all = Request.Testall(r)) == null) {
                    Thread.onSpinWait();
                }
                assertEquals(3, all.length);
                for (int t = 1; t < 3; t++) {
                    assertEquals(t, all[t].tag);
                    assertEquals(1, all[t].source);
                }
                assertArrayEquals(new int[] {100, 101, 102}, in);
            } else {
                MPI.COMM_WORLD.Send(new int[] {100}, 0, 1, MPI.INT, 0, 0);
                awaitGo();
                MPI.COMM_WORLD.Send(new int[] {102}, 0, 1, MPI.INT, 0, 2);
                MPI.COMM_WORLD.Send(new int[] {101}, 0, 1, MPI.INT, 0, 1);
            }
            return null;
        });
    }

    /**
     * Rank 1 sends tags 2, 0, 3, 1 to rank 0 one at a time, each after an ack: the request that
     * completes is known at every step.
     */
    private static final int[] ONE_AT_A_TIME = {2, 0, 3, 1};

    private static void sendOneAtATime() {
        for (int tag : ONE_AT_A_TIME) {
            MPI.COMM_WORLD.Send(new int[] {tag * 11}, 0, 1, MPI.INT, 0, tag);
            MPI.COMM_WORLD.Recv(new int[0], 0, 0, MPI.INT, 0, ACK);
        }
    }

    private static void ack() {
        MPI.COMM_WORLD.Send(new int[0], 0, 0, MPI.INT, 1, ACK);
    }

    /** Irecv of tag i into in[i], i = 0..3. */
    private static Request[] postFour(int[] in) {
        Request[] r = new Request[4];
        for (int t = 0; t < 4; t++) {
            r[t] = MPI.COMM_WORLD.Irecv(in, t, 1, MPI.INT, 1, t);
        }
        return r;
    }

    /** Window lengths around the device's reuse of receive requests (64 at a time). */
    private static final int[] WINDOWS = {1, 63, 64, 65, 150, 7, 64, 2};

    @Jobs.MultiRanksBothProtocols
    @DisplayName("Windows of 1 to 150 Irecvs, completed by each Wait/Test family and mixed with Recv: every message "
        + "once, in order, with its status; a completed request stays null while later receives run")
    void windowsOfReceives(World w) {
        w.run(() -> {
            List<Request> completed = new ArrayList<>();
            for (int round = 0; round < WINDOWS.length; round++) {
                int k = WINDOWS[round];
                int[][] in = new int[k][2];
                Request[] recvs = new Request[k];
                for (int i = 0; i < k; i++) {
                    recvs[i] = MPI.COMM_WORLD.Irecv(in[i], 0, 2, MPI.INT, left(), round);
                }
                Request[] sends = new Request[k];
                for (int i = 0; i < k; i++) {
                    sends[i] = MPI.COMM_WORLD.Isend(new int[] {round, i}, 0, 2, MPI.INT, right(), round);
                }
                Status[] statuses = completeAll(round % 4, recvs);
                Request.Waitall(sends);
                for (int i = 0; i < k; i++) {
                    assertArrayEquals(new int[] {round, i}, in[i], "round " + round + ", receive " + i);
                    assertEquals(left(), statuses[i].source);
                    assertEquals(round, statuses[i].tag);
                    assertEquals(2, statuses[i].Get_count(MPI.INT));
                    assertTrue(recvs[i].Is_null());
                }
                completed.addAll(Arrays.asList(recvs));
                // A blocking receive between windows: its request goes round the same reuse.
                int[] token = new int[1];
                MPI.COMM_WORLD.Sendrecv(new int[] {round}, 0, 1, MPI.INT, right(), ACK, token, 0, 1, MPI.INT, left(), ACK);
                assertEquals(round, token[0]);
                for (Request r : completed) {
                    assertTrue(r.Is_null(), "a completed request stays null");
                    Status empty = r.Test();
                    assertEquals(MPI.ANY_SOURCE, empty.source, "a null request tests complete with an empty status");
                    assertEquals(MPI.ANY_TAG, empty.tag);
                }
            }
            return null;
        });
    }

    /** Completes every request with one Wait/Test family; the statuses in array order. */
    private static Status[] completeAll(int family, Request[] r) {
        Status[] out = new Status[r.length];
        switch (family) {
            case 0 -> {
                return Request.Waitall(r);
            }
            case 1 -> {
                for (int n = 0; n < r.length; n++) {
                    Status s = Request.Waitany(r);
                    out[s.index] = s;
                }
            }
            case 2 -> {
                for (int i = 0; i < r.length; i++) {
                    Status s;
                    while ((s = r[i].Test()) == null) {
                        Thread.yield(); // ranks may outnumber the cores: let the sender run
                    }
                    out[i] = s;
                }
            }
            default -> {
                // Open MPI's waitAll returns no statuses: getStatus reads each first, leaving it active.
                for (int i = 0; i < r.length; i++) {
                    while ((out[i] = r[i].getStatus()) == null) {
                        Thread.yield();
                    }
                    assertFalse(r[i].isNull(), "getStatus leaves the request active");
                }
                Request.waitAll(r);
            }
        }
        return out;
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Waitany: status.index is the completed request, which becomes null; all null gives UNDEFINED")
    void waitanyIndexSemantics(World w) {
        w.run(() -> {
            if (rank() == 1) {
                sendOneAtATime();
                return null;
            }
            int[] in = new int[4];
            Request[] r = postFour(in);
            for (int tag : ONE_AT_A_TIME) {
                Status s = Request.Waitany(r);
                assertEquals(tag, s.index, "index of the request that completed");
                assertEquals(tag, s.getIndex());
                assertEquals(tag, s.tag);
                assertEquals(tag * 11, in[tag]);
                assertTrue(r[tag].Is_null(), "the completed request is now null");
                ack();
            }
            assertEquals(MPI.UNDEFINED, Request.Waitany(r).index, "Waitany of null requests");
            assertEquals(MPI.UNDEFINED, Request.waitAny(r), "waitAny of null requests");
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Open MPI waitAny returns the index, waitAnyStatus the status with getIndex()")
    void waitAnyOpenMpi(World w) {
        w.run(() -> {
            if (rank() == 1) {
                sendOneAtATime();
                return null;
            }
            int[] in = new int[4];
            Request[] r = postFour(in);
            for (int step = 0; step < ONE_AT_A_TIME.length; step++) {
                int tag = ONE_AT_A_TIME[step];
                if (step % 2 == 0) {
                    assertEquals(tag, Request.waitAny(r));
                } else {
                    Status s = Request.waitAnyStatus(r);
                    assertEquals(tag, s.getIndex());
                    assertEquals(tag, s.getTag());
                }
                assertTrue(r[tag].isNull());
                assertEquals(tag * 11, in[tag]);
                ack();
            }
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Testany: null while none is complete, then the completed one's index; testAny UNDEFINED when none")
    void testanyIndexSemantics(World w) {
        w.run(() -> {
            if (rank() == 1) {
                awaitGo();
                sendOneAtATime();
                return null;
            }
            int[] in = new int[4];
            Request[] r = postFour(in);
            assertNull(Request.Testany(r), "Testany before anything was sent");
            assertEquals(MPI.UNDEFINED, Request.testAny(r), "testAny before anything was sent");
            assertNull(Request.testAnyStatus(r), "testAnyStatus before anything was sent");
            go();
            for (int tag : ONE_AT_A_TIME) {
                Status s;
                while ((s = Request.Testany(r)) == null) {
                    Thread.onSpinWait();
                }
                assertEquals(tag, s.index);
                assertEquals(tag, s.tag);
                assertTrue(r[tag].Is_null());
                ack();
            }
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Waitsome/Testsome/waitSome/testSome return each completed index exactly once with its status")
    void waitsomeAndTestsome(World w) {
        w.run(() -> {
            if (rank() == 1) {
                for (int round = 0; round < 4; round++) {
                    awaitGo();
                    MPI.COMM_WORLD.Send(new int[] {round * 10 + 1}, 0, 1, MPI.INT, 0, 1);
                    MPI.COMM_WORLD.Send(new int[] {round * 10 + 3}, 0, 1, MPI.INT, 0, 3);
                    awaitGo();
                    MPI.COMM_WORLD.Send(new int[] {round * 10}, 0, 1, MPI.INT, 0, 0);
                    MPI.COMM_WORLD.Send(new int[] {round * 10 + 2}, 0, 1, MPI.INT, 0, 2);
                }
                return null;
            }
            for (int round = 0; round < 4; round++) {
                int[] in = new int[4];
                Request[] r = postFour(in);
                if (round == 1) {
                    assertEquals(0, Request.Testsome(r).length, "Testsome with nothing complete");
                    assertEquals(0, Request.testSome(r).length, "testSome with nothing complete");
                }
                boolean[] seen = new boolean[4];
                go();
                collect(round, r, seen, 2);
                assertTrue(seen[1] && seen[3], "first tags 1 and 3 complete");
                go();
                collect(round, r, seen, 4);
                for (int t = 0; t < 4; t++) {
                    assertEquals(round * 10 + t, in[t]);
                    assertTrue(r[t].Is_null());
                }
            }
            return null;
        });
    }

    /** Collects completions with the family of {@code round} until {@code total} have completed. */
    private static void collect(int round, Request[] r, boolean[] seen, int total) {
        int done = count(seen);
        while (done < total) {
            int[] indexes = switch (round) {
                case 0 -> indexesOf(Request.Waitsome(r));
                case 1 -> indexesOf(Request.Testsome(r));
                case 2 -> Request.waitSome(r);
                default -> Request.testSome(r);
            };
            for (int i : indexes) {
                assertFalse(seen[i], "index " + i + " reported twice");
                seen[i] = true;
                done++;
            }
        }
    }

    private static int[] indexesOf(Status[] statuses) {
        int[] out = new int[statuses.length];
        for (int i = 0; i < statuses.length; i++) {
            assertEquals(statuses[i].index, statuses[i].tag, "index matches the request's tag");
            out[i] = statuses[i].index;
        }
        return out;
    }

    private static int count(boolean[] seen) {
        int n = 0;
        for (boolean b : seen) {
            n += b ? 1 : 0;
        }
        return n;
    }

    @Jobs.AnyRanks
    @DisplayName("Cancel of an unmatched Irecv: Test_cancelled/isCancelled true; the message goes to a later receive")
    void cancelUnmatchedReceive(World w) {
        w.run(() -> {
            int[] in = {-1};
            Request r = MPI.COMM_WORLD.Irecv(in, 0, 1, MPI.INT, rank(), 77);
            r.Cancel();
            Status s = r.Wait();
            assertTrue(s.Test_cancelled());
            assertTrue(s.isCancelled());
            Request q = MPI.COMM_WORLD.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, MPI.ANY_SOURCE, 78);
            q.cancel();
            assertTrue(q.waitStatus().isCancelled());
            MPI.COMM_WORLD.Send(new int[] {5}, 0, 1, MPI.INT, rank(), 77);
            Status got = MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, rank(), 77);
            assertFalse(got.Test_cancelled());
            assertEquals(5, in[0], "the cancelled receive did not take the message");
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Cancel of a matched Irecv has no effect: not cancelled, data received")
    void cancelMatchedReceive(World w) {
        w.run(() -> {
            if (rank() == 0) {
                int[] in = new int[2];
                Request r = MPI.COMM_WORLD.Irecv(in, 0, 2, MPI.INT, 1, 1);
                // Rank 1's Ssend of tag 1 has returned before it sends tag 2: r is matched.
                MPI.COMM_WORLD.Recv(new int[0], 0, 0, MPI.INT, 1, 2);
                r.Cancel();
                Status s = r.Wait();
                assertFalse(s.Test_cancelled());
                assertEquals(1, s.tag);
                assertArrayEquals(new int[] {3, 4}, in);
            } else {
                MPI.COMM_WORLD.Ssend(new int[] {3, 4}, 0, 2, MPI.INT, 0, 1);
                MPI.COMM_WORLD.Send(new int[0], 0, 0, MPI.INT, 0, 2);
            }
            return null;
        });
    }

    @Jobs.MultiRanks
    @DisplayName("Free of an active Isend: the request is null and the message is still delivered")
    void freeActiveSend(World w) {
        List<Integer> got = w.run(() -> {
            Request r = MPI.COMM_WORLD.Isend(new int[] {rank() + 500}, 0, 1, MPI.INT, right(), 9);
            r.Free();
            assertTrue(r.Is_null());
            Request q = MPI.COMM_WORLD.iSend(MPI.newIntBuffer(1).put(0, rank() + 600), 1, MPI.INT, right(), 10);
            q.free();
            assertTrue(q.isNull());
            int[] in = new int[2];
            MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, left(), 9);
            MPI.COMM_WORLD.Recv(in, 1, 1, MPI.INT, left(), 10);
            return in[0] * 10000 + in[1];
        });
        for (int r = 0; r < w.size(); r++) {
            int l = (r + w.size() - 1) % w.size();
            assertEquals((l + 500) * 10000 + l + 600, got.get(r), "rank " + r);
        }
    }

    @Jobs.MultiRanksBothProtocols
    @DisplayName("all-to-all with Isend/Irecv and Waitall: every pair exchanges distinct data")
    void allToAll(World w) {
        List<int[]> got = w.run(() -> {
            int n = size();
            int[] in = new int[n];
            Request[] r = new Request[2 * n];
            for (int p = 0; p < n; p++) {
                r[p] = MPI.COMM_WORLD.Irecv(in, p, 1, MPI.INT, p, 4);
                r[n + p] = MPI.COMM_WORLD.Isend(new int[] {rank() * 100 + p}, 0, 1, MPI.INT, p, 4);
            }
            Status[] s = Request.Waitall(r);
            for (int p = 0; p < n; p++) {
                assertEquals(p, s[p].source);
            }
            return in;
        });
        for (int r = 0; r < w.size(); r++) {
            for (int p = 0; p < w.size(); p++) {
                assertEquals(p * 100 + r, got.get(r)[p], "rank " + r + " from " + p);
            }
        }
    }

    @Jobs.Pairs
    @DisplayName("Wait on a null request returns at once; Waitall/waitAll accept null entries and nulls")
    void nullRequests(World w) {
        w.run(() -> {
            Request done = MPI.COMM_WORLD.Isend(new int[1], 0, 1, MPI.INT, rank(), 1);
            done.Wait();
            MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, rank(), 1);
            assertTrue(done.Is_null());
            assertNotNull(done.Wait(), "Wait on the null request");
            assertTrue(MPI.REQUEST_NULL.Is_null());
            assertEquals(2, Request.Waitall(new Request[] {done, MPI.REQUEST_NULL}).length);
            Request.waitAll(new Request[] {done});
            return null;
        });
    }
}
