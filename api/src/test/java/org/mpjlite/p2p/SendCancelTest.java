package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.left;
import static org.mpjlite.p2p.Jobs.rank;
import static org.mpjlite.p2p.Jobs.right;

import java.nio.IntBuffer;
import java.util.List;
import mpi.Comm;
import mpi.MPI;
import mpi.Message;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.DisplayName;
import org.mpjlite.p2p.Jobs.World;

/**
 * Cancel of a send (MPI-4.1 3.8.4): a pending send (synchronous, or above the eager threshold)
 * whose message no receive or matched probe has matched is cancelled, and its message is never
 * received; one that is matched, or an eager send (complete when it returns), completes normally.
 * Either way the Wait after the Cancel returns. The race of a cancel and a match is the jcstress
 * test {@code SendCancelVersusReceive}.
 */
class SendCancelTest {
    /** Above the default eager threshold (16 KiB) in ints: such a send waits for its receive. */
    private static final int LARGE = 6000;
    private static final int TAG = 80;
    private static final int ACK = 81;

    @Jobs.AnyRanks
    @DisplayName("Pending sends nobody receives are cancelled (both dialects, persistent too); later messages get the receives")
    void pendingSendsNobodyReceivesAreCancelled(World w) {
        List<int[]> got = w.run(() -> {
            Comm comm = MPI.COMM_WORLD;
            int me = rank();
            Request[] sends = {
                comm.Issend(new int[] {me}, 0, 1, MPI.INT, right(), TAG),
                comm.Isend(new int[LARGE], 0, LARGE, MPI.INT, right(), TAG),
                comm.isSend(IntBuffer.wrap(new int[] {me}), 1, MPI.INT, right(), TAG),
                comm.iSend(MPI.newIntBuffer(LARGE), LARGE, MPI.INT, right(), TAG),
            };
            Prequest persistent = comm.Ssend_init(new int[] {me}, 0, 1, MPI.INT, right(), TAG);
            persistent.Start();
            sends[0].Cancel();
            sends[1].Cancel();
            sends[2].cancel();
            sends[3].cancel();
            persistent.Cancel();
            Status[] statuses = Request.Waitall(sends);
            for (int i = 0; i < statuses.length; i++) {
                assertTrue(statuses[i].Test_cancelled(), "send " + i + " cancelled");
                assertTrue(statuses[i].isCancelled(), "send " + i + " cancelled");
            }
            assertTrue(persistent.Wait().Test_cancelled(), "persistent send cancelled");
            comm.Barrier();
            // Every rank has cancelled: none of those messages is left to probe or receive.
            assertNull(comm.Iprobe(left(), TAG));
            assertNull(comm.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG));
            // The persistent request starts again, and this time its message is received.
            Request r = comm.Irecv(new int[1], 0, 1, MPI.INT, left(), TAG);
            comm.Barrier();
            persistent.Start();
            Status sent = persistent.Wait();
            assertFalse(sent.Test_cancelled());
            r.Wait();
            comm.Send(new int[] {me + 100}, 0, 1, MPI.INT, right(), TAG);
            int[] in = new int[1];
            Status s = comm.Recv(in, 0, 1, MPI.INT, left(), TAG);
            assertFalse(s.Test_cancelled());
            assertEquals(1, s.Get_count(MPI.INT));
            persistent.Free();
            return in;
        });
        for (int r = 0; r < w.size(); r++) {
            assertArrayEquals(new int[] {(r + w.size() - 1) % w.size() + 100}, got.get(r), "rank " + r);
        }
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Cancel after the receive matched: not cancelled, the data arrived (eager, synchronous, rendezvous)")
    void cancelAfterTheReceiveMatchedHasNoEffect(World w) {
        w.run(() -> {
            Comm comm = MPI.COMM_WORLD;
            if (rank() == 0) {
                Request[] sends = {
                    comm.Isend(new int[] {1}, 0, 1, MPI.INT, 1, TAG),
                    comm.Issend(new int[] {2}, 0, 1, MPI.INT, 1, TAG),
                    comm.Isend(filled(3), 0, LARGE, MPI.INT, 1, TAG),
                };
                comm.Recv(new int[0], 0, 0, MPI.INT, 1, ACK); // rank 1 has received all three
                for (Request s : sends) {
                    s.Cancel();
                }
                for (Status s : Request.Waitall(sends)) {
                    assertFalse(s.Test_cancelled());
                }
            } else {
                int[] in = new int[LARGE];
                comm.Recv(in, 0, 1, MPI.INT, 0, TAG);
                assertEquals(1, in[0]);
                comm.Recv(in, 0, 1, MPI.INT, 0, TAG);
                assertEquals(2, in[0]);
                comm.Recv(in, 0, LARGE, MPI.INT, 0, TAG);
                assertArrayEquals(filled(3), in);
                comm.Send(new int[0], 0, 0, MPI.INT, 0, ACK);
            }
            return null;
        });
    }

    @Jobs.Pairs
    @DisplayName("Cancel of a send a matched probe took: not cancelled; mRecv gets the data and completes the send")
    void aMatchedProbeMatchesTheSend(World w) {
        w.run(() -> {
            Comm comm = MPI.COMM_WORLD;
            if (rank() == 0) {
                Request ssend = comm.isSend(new int[] {7}, 1, MPI.INT, 1, TAG);
                Request large = comm.iSend(filled(8), LARGE, MPI.INT, 1, TAG);
                comm.recv(new int[0], 0, MPI.INT, 1, ACK); // rank 1 has probed both
                ssend.cancel();
                large.cancel();
                comm.send(new int[0], 0, MPI.INT, 1, ACK);
                assertFalse(ssend.waitStatus().isCancelled());
                assertFalse(large.waitStatus().isCancelled());
            } else {
                Message first = new Message();
                Message second = new Message();
                first.mProbe(0, TAG, comm);
                second.mProbe(0, TAG, comm);
                comm.send(new int[0], 0, MPI.INT, 0, ACK);
                comm.recv(new int[0], 0, MPI.INT, 0, ACK); // rank 0 has cancelled
                int[] in = new int[LARGE];
                first.mRecv(in, 1, MPI.INT);
                assertEquals(7, in[0]);
                Status s = second.mRecv(in, LARGE, MPI.INT);
                assertEquals(LARGE, s.getCount(MPI.INT));
                assertArrayEquals(filled(8), in);
            }
            return null;
        });
    }

    @Jobs.MultiRanks
    @DisplayName("A cancelled send between two others of the same sender: the receives get the other two, in order")
    void aCancelledSendKeepsTheOrderOfTheRest(World w) {
        List<int[]> got = w.run(() -> {
            Comm comm = MPI.COMM_WORLD;
            comm.Send(new int[] {1}, 0, 1, MPI.INT, right(), TAG);
            Request cancelled = comm.Issend(new int[] {2}, 0, 1, MPI.INT, right(), TAG);
            Request last = comm.Isend(filled(3), 0, LARGE, MPI.INT, right(), TAG);
            cancelled.Cancel();
            assertTrue(cancelled.Wait().Test_cancelled());
            comm.Barrier(); // no receive is posted before every cancel has won
            int[] in = new int[LARGE];
            int[] firsts = new int[2];
            comm.Recv(in, 0, LARGE, MPI.INT, left(), TAG);
            firsts[0] = in[0];
            Status s = comm.Recv(in, 0, LARGE, MPI.INT, left(), TAG);
            firsts[1] = in[0];
            assertEquals(LARGE, s.Get_count(MPI.INT));
            assertFalse(last.Wait().Test_cancelled());
            return firsts;
        });
        for (int r = 0; r < w.size(); r++) {
            assertArrayEquals(new int[] {1, 3}, got.get(r), "rank " + r);
        }
    }

    @Jobs.AnyRanks
    @DisplayName("A thread waiting for a pending send wakes when another thread cancels it")
    void aWaitingThreadWakesWhenAnotherCancels(World w) {
        w.run(() -> {
            Comm comm = MPI.COMM_WORLD;
            Request ssend = comm.Issend(new int[] {rank()}, 0, 1, MPI.INT, right(), TAG);
            Status[] seen = new Status[1];
            Thread waiter = new Thread(() -> seen[0] = ssend.Wait(), "waiter of rank " + rank());
            waiter.start();
            // Let the waiter get into Wait: parked, or after a while spinning there; the cancel must end it.
            long until = System.nanoTime() + 20_000_000L;
            while (waiter.getState() != Thread.State.WAITING && waiter.getState() != Thread.State.TIMED_WAITING
                && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            ssend.Cancel();
            waiter.join();
            assertTrue(seen[0].Test_cancelled());
            comm.Barrier();
            assertNull(comm.Iprobe(MPI.ANY_SOURCE, TAG), "the cancelled message is gone");
            return null;
        });
    }

    /** {@code LARGE} ints, the first {@code first}, the rest counting up from it. */
    private static int[] filled(int first) {
        int[] a = new int[LARGE];
        for (int i = 0; i < LARGE; i++) {
            a[i] = first + i;
        }
        return a;
    }
}
