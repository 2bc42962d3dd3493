package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.ints;
import static org.mpjlite.p2p.Jobs.left;
import static org.mpjlite.p2p.Jobs.rank;
import static org.mpjlite.p2p.Jobs.right;
import static org.mpjlite.p2p.Jobs.size;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.DisplayName;
import org.mpjlite.p2p.Jobs.World;

/**
 * Receives a rank's main thread posts while an earlier receive of its waits: the lock-free
 * mailbox queues them for the owner's next call instead of taking its lock, and they must match
 * exactly as if posted at once. Each test posts one receive first, so that the ones after it are
 * queued, and checks data, statuses and order through the API, with messages that arrive before
 * and after the posts, eager and rendezvous.
 */
class ReceivesPostedBehindAWaitingOneTest {
    private static final int LARGE = 3000;

    @Jobs.MultiRanksBothProtocols
    @DisplayName("a window of receives by tag, in the reverse of the send order: each gets the message its tag names")
    void windowByTagInReverseOrder(World w) {
        int tags = 12;
        for (boolean sentFirst : new boolean[] {false, true}) {
            w.run(() -> {
                if (rank() != 0) {
                    if (!sentFirst) {
                        MPI.COMM_WORLD.Barrier();
                    }
                    Request[] sends = new Request[tags];
                    for (int tag = 0; tag < tags; tag++) {
                        int n = length(tag);
                        sends[tag] = MPI.COMM_WORLD.Isend(ints(n, rank() * 100 + tag), 0, n, MPI.INT, 0, tag);
                    }
                    if (sentFirst) {
                        MPI.COMM_WORLD.Barrier();
                    }
                    Request.Waitall(sends);
                    return null;
                }
                if (sentFirst) {
                    MPI.COMM_WORLD.Barrier();
                }
                int senders = size() - 1;
                int[][] in = new int[senders * tags][LARGE];
                Request[] receives = new Request[senders * tags];
                for (int s = 1; s <= senders; s++) {
                    for (int t = tags - 1; t >= 0; t--) {
                        int i = (s - 1) * tags + t;
                        receives[i] = MPI.COMM_WORLD.Irecv(in[i], 0, LARGE, MPI.INT, s, t);
                    }
                }
                if (!sentFirst) {
                    MPI.COMM_WORLD.Barrier();
                }
                Status[] statuses = Request.Waitall(receives);
                for (int s = 1; s <= senders; s++) {
                    for (int t = 0; t < tags; t++) {
                        int i = (s - 1) * tags + t;
                        int n = length(t);
                        assertEquals(s, statuses[i].source, "source of the receive for rank " + s + ", tag " + t);
                        assertEquals(t, statuses[i].tag, "tag of the receive for rank " + s + ", tag " + t);
                        assertEquals(n, statuses[i].Get_count(MPI.INT), "count from rank " + s + ", tag " + t);
                        assertArrayEquals(ints(n, s * 100 + t), Arrays.copyOf(in[i], n),
                            "data from rank " + s + ", tag " + t + (sentFirst ? ", sent before the posts" : ""));
                    }
                }
                assertNull(MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, MPI.ANY_TAG), "no message left over");
                return null;
            });
        }
    }

    @Jobs.MultiRanksBothProtocols
    @DisplayName("wildcard receives behind a specific one: it gets its message, they get the rest in each sender's order")
    void wildcardsBehindASpecificReceive(World w) {
        int perSender = 40;
        w.run(() -> {
            if (rank() != 0) {
                MPI.COMM_WORLD.Barrier();
                for (int seq = 0; seq < perSender; seq++) {
                    int n = wildcardLength(seq);
                    int[] msg = ints(n, seq);
                    msg[0] = rank();
                    msg[1] = seq;
                    MPI.COMM_WORLD.Send(msg, 0, n, MPI.INT, 0, 0);
                }
                if (rank() == 1) {
                    MPI.COMM_WORLD.Send(new int[] {-1, -7}, 0, 2, MPI.INT, 0, 7);
                }
                return null;
            }
            int[] specific = new int[2];
            Request first = MPI.COMM_WORLD.Irecv(specific, 0, 2, MPI.INT, 1, 7);
            int count = perSender * (size() - 1);
            int[][] in = new int[count][LARGE];
            Request[] rest = new Request[count];
            for (int i = 0; i < count; i++) {
                rest[i] = MPI.COMM_WORLD.Irecv(in[i], 0, LARGE, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            }
            MPI.COMM_WORLD.Barrier();
            Status[] statuses = Request.Waitall(rest);
            Status s7 = first.Wait();
            assertEquals(7, s7.tag, "the receive posted first for tag 7");
            assertArrayEquals(new int[] {-1, -7}, specific, "the tag-7 message in the receive posted for it");
            int[] next = new int[size()];
            for (int i = 0; i < count; i++) {
                int src = statuses[i].source;
                assertEquals(0, statuses[i].tag, "wildcard receive " + i + " took a tag-0 message");
                assertEquals(src, in[i][0], "status source of wildcard receive " + i);
                assertEquals(next[src], in[i][1], "rank " + src + "'s messages in send order, none lost");
                assertEquals(wildcardLength(next[src]), statuses[i].Get_count(MPI.INT),
                    "count of wildcard receive " + i);
                next[src]++;
            }
            for (int src = 1; src < size(); src++) {
                assertEquals(perSender, next[src], "messages from rank " + src);
            }
            return null;
        });
    }

    @Jobs.MultiRanksBothProtocols
    @DisplayName("every rank blocked in a rendezvous Send that only a queued receive of its neighbour matches")
    void blockedSendsMatchedByQueuedReceives(World w) {
        w.run(() -> {
            int[] small = new int[1];
            int[] large = new int[LARGE];
            Request[] receives = {
                MPI.COMM_WORLD.Irecv(small, 0, 1, MPI.INT, left(), 1),
                MPI.COMM_WORLD.Irecv(large, 0, LARGE, MPI.INT, left(), 2)};
            for (int round = 0; round < 3; round++) {
                MPI.COMM_WORLD.Ssend(ints(LARGE, rank() + round), 0, LARGE, MPI.INT, right(), 2);
                MPI.COMM_WORLD.Send(new int[] {rank() * 10 + round}, 0, 1, MPI.INT, right(), 1);
                Status[] statuses = Request.Waitall(receives);
                assertEquals(1, statuses[0].tag);
                assertEquals(left() * 10 + round, small[0], "the small message of round " + round);
                assertEquals(LARGE, statuses[1].Get_count(MPI.INT));
                assertArrayEquals(ints(LARGE, left() + round), large, "the large message of round " + round);
                if (round < 2) {
                    receives[0] = MPI.COMM_WORLD.Irecv(small, 0, 1, MPI.INT, left(), 1);
                    receives[1] = MPI.COMM_WORLD.Irecv(large, 0, LARGE, MPI.INT, left(), 2);
                }
            }
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("a queued receive cancelled: reported cancelled, and the message it would have taken stays for the next")
    void queuedReceiveCancelled(World w) {
        w.run(() -> {
            if (rank() == 1) {
                MPI.COMM_WORLD.Barrier();
                Request sent = MPI.COMM_WORLD.Isend(new int[] {22}, 0, 1, MPI.INT, 0, 2);
                MPI.COMM_WORLD.Send(new int[] {11}, 0, 1, MPI.INT, 0, 1);
                sent.Wait();
                return null;
            }
            WaitingThenQueued posted = WaitingThenQueued.post();
            posted.queued().Cancel();
            assertTrue(posted.queued().Wait().Test_cancelled(), "the queued receive is cancelled");
            assertEquals(0, posted.two()[0], "a cancelled receive writes nothing");
            MPI.COMM_WORLD.Barrier();
            Status got = posted.waiting().Wait();
            assertFalse(got.Test_cancelled());
            assertEquals(11, posted.one()[0]);
            Status later = MPI.COMM_WORLD.Recv(posted.two(), 0, 1, MPI.INT, 1, 2);
            assertEquals(2, later.tag);
            assertEquals(22, posted.two()[0], "the tag-2 message went to the receive posted after the cancel");
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Iprobe never reports a message a queued receive takes")
    void probeDoesNotSeeAMessageAQueuedReceiveTakes(World w) {
        w.run(() -> {
            if (rank() == 1) {
                Request sent = MPI.COMM_WORLD.Isend(new int[] {22}, 0, 1, MPI.INT, 0, 2);
                MPI.COMM_WORLD.Barrier();
                MPI.COMM_WORLD.Barrier();
                MPI.COMM_WORLD.Send(new int[] {11}, 0, 1, MPI.INT, 0, 1);
                sent.Wait();
                return null;
            }
            WaitingThenQueued posted = WaitingThenQueued.post();
            MPI.COMM_WORLD.Barrier();
            assertNull(MPI.COMM_WORLD.Iprobe(1, 2), "the tag-2 message belongs to the queued receive");
            assertNull(MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, MPI.ANY_TAG), "nothing else has come");
            MPI.COMM_WORLD.Barrier();
            assertEquals(1, posted.queued().Wait().Get_count(MPI.INT));
            assertEquals(22, posted.two()[0]);
            posted.waiting().Wait();
            assertEquals(11, posted.one()[0]);
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("a receive another thread posts after the main thread's queued ones comes after them")
    void anotherThreadsReceiveAfterQueuedOnes(World w) {
        w.run(() -> {
            int messages = 6;
            if (rank() == 1) {
                MPI.COMM_WORLD.Barrier();
                for (int seq = 0; seq < messages; seq++) {
                    int n = seq % 2 == 0 ? 1 : LARGE;
                    int[] msg = ints(n, seq);
                    msg[0] = seq;
                    MPI.COMM_WORLD.Send(msg, 0, n, MPI.INT, 0, 5);
                }
                return null;
            }
            int[][] in = new int[messages][LARGE];
            Request[] mine = new Request[messages - 1];
            for (int i = 0; i < messages - 1; i++) {
                mine[i] = MPI.COMM_WORLD.Irecv(in[i], 0, LARGE, MPI.INT, 1, MPI.ANY_TAG);
            }
            AtomicReference<Request> theirs = new AtomicReference<>();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread other = new Thread(() -> {
                try {
                    theirs.set(MPI.COMM_WORLD.Irecv(in[messages - 1], 0, LARGE, MPI.INT, 1, MPI.ANY_TAG));
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            other.start();
            other.join();
            assertNull(failed.get(), () -> "the other thread's Irecv failed: " + failed.get());
            MPI.COMM_WORLD.Barrier();
            Request.Waitall(mine);
            theirs.get().Wait();
            for (int seq = 0; seq < messages; seq++) {
                String which = seq == messages - 1 ? " (the other thread's)" : "";
                assertEquals(seq, in[seq][0], "receive " + seq + which + " took message " + seq);
            }
            return null;
        });
    }

    /**
     * Two receives of one int from rank 1, posted by rank 0's main thread: tag 1 into {@code one},
     * which waits, then tag 2 into {@code two}, which is queued behind it.
     */
    private record WaitingThenQueued(int[] one, Request waiting, int[] two, Request queued) {
        static WaitingThenQueued post() {
            int[] one = new int[1];
            int[] two = new int[1];
            Request waiting = MPI.COMM_WORLD.Irecv(one, 0, 1, MPI.INT, 1, 1);
            return new WaitingThenQueued(one, waiting, two, MPI.COMM_WORLD.Irecv(two, 0, 1, MPI.INT, 1, 2));
        }
    }

    /** The length (in ints) of a sender's message {@code seq} in the wildcard test: every fifth long. */
    private static int wildcardLength(int seq) {
        return seq % 5 == 2 ? LARGE : 2;
    }

    /** Eager and rendezvous lengths mixed (in ints): the default threshold sends the long ones by rendezvous. */
    private static int length(int tag) {
        return tag % 3 == 1 ? LARGE : 1 + tag;
    }
}
