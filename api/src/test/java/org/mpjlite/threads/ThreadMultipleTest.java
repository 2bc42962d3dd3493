package org.mpjlite.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;

/**
 * THREAD_MULTIPLE: four threads per rank call MPI at once, and the matching rules still hold:
 * nothing lost or duplicated, specific receives in each sender thread's order, wildcard receives of
 * several threads each getting a distinct message and, per receiving thread, each sender thread's
 * messages in order. On 2, 3 and 4 ranks, both matching structures, eager and rendezvous.
 */
class ThreadMultipleTest {
    private static final int THREADS = 4;
    private static final int MESSAGES = 40;
    /** Tags of the wildcard phase start here, away from the specific phase's tags 0..THREADS-1. */
    private static final int WILDCARD_TAGS = 100;

    static Stream<World> worlds() {
        return IntStream.of(2, 3, 4).boxed().flatMap(n -> Stream.of(MatchingKind.values()).flatMap(k ->
            Stream.of(new World(n, k, Tunables.DEFAULT_EAGER_THRESHOLD), new World(n, k, 0))));
    }

    /** A message's payload: who sent it, from which thread, its number in that thread's stream. */
    private static int[] payload(int rank, int thread, int seq) {
        return new int[] {rank, thread, seq};
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    @DisplayName("4 threads per rank: specific receives in order, wildcard receives each get a distinct message")
    void fourThreadsPerRankExchangeWithoutLossDuplicationOrReordering(World w) {
        w.runRaw(() -> {
            assertEquals(MPI.THREAD_MULTIPLE, MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE));
            assertEquals(MPI.THREAD_MULTIPLE, MPI.queryThread());
            int me = MPI.COMM_WORLD.Rank();
            int size = MPI.COMM_WORLD.Size();

            // Specific: thread t talks to thread t of every other rank on tag t; one sender thread
            // and one receiver thread per (source, tag), so the stream arrives in order.
            Workers.runOn(THREADS, t -> {
                List<Request> sends = new ArrayList<>();
                for (int seq = 0; seq < MESSAGES; seq++) {
                    for (int d = 0; d < size; d++) {
                        if (d != me) {
                            sends.add(MPI.COMM_WORLD.Isend(payload(me, t, seq), 0, 3, MPI.INT, d, t));
                        }
                    }
                }
                for (int s = 0; s < size; s++) {
                    if (s == me) {
                        continue;
                    }
                    for (int seq = 0; seq < MESSAGES; seq++) {
                        int[] got = new int[3];
                        Status st = MPI.COMM_WORLD.Recv(got, 0, 3, MPI.INT, s, t);
                        assertEquals(s, st.source);
                        assertEquals(t, st.tag);
                        assertEquals(s, got[0]);
                        assertEquals(t, got[1]);
                        assertEquals(seq, got[2], "message of thread " + t + " of rank " + s + " out of order");
                    }
                }
                Request.Waitall(sends.toArray(new Request[0]));
            });
            MPI.COMM_WORLD.Barrier();

            // Wildcards: every thread sends MESSAGES to every rank (itself included), and receives
            // size * MESSAGES messages with ANY_SOURCE / ANY_TAG.
            Set<List<Integer>> received = ConcurrentHashMap.newKeySet();
            Workers.runOn(THREADS, t -> {
                List<Request> sends = new ArrayList<>();
                for (int seq = 0; seq < MESSAGES; seq++) {
                    for (int d = 0; d < size; d++) {
                        sends.add(MPI.COMM_WORLD.Isend(payload(me, t, seq), 0, 3, MPI.INT, d, WILDCARD_TAGS + t));
                    }
                }
                int[][] lastSeq = new int[size][THREADS];
                for (int[] row : lastSeq) {
                    java.util.Arrays.fill(row, -1);
                }
                for (int i = 0; i < size * MESSAGES; i++) {
                    int[] got = new int[3];
                    Status st = MPI.COMM_WORLD.Recv(got, 0, 3, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                    assertEquals(got[0], st.source);
                    assertEquals(WILDCARD_TAGS + got[1], st.tag);
                    assertTrue(received.add(List.of(got[0], got[1], got[2])), "received twice: " + List.of(got[0],
                        got[1], got[2]));
                    assertTrue(got[2] > lastSeq[got[0]][got[1]], "thread " + t + " got message " + got[2]
                        + " of thread " + got[1] + " of rank " + got[0] + " after message " + lastSeq[got[0]][got[1]]);
                    lastSeq[got[0]][got[1]] = got[2];
                }
                Request.Waitall(sends.toArray(new Request[0]));
            });
            Set<List<Integer>> expected = new HashSet<>();
            for (int s = 0; s < size; s++) {
                for (int t = 0; t < THREADS; t++) {
                    for (int seq = 0; seq < MESSAGES; seq++) {
                        expected.add(List.of(s, t, seq));
                    }
                }
            }
            assertEquals(expected, received, "every message exactly once");
            assertEquals(null, MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, MPI.ANY_TAG), "nothing left over");
            MPI.Finalize();
            return null;
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    @DisplayName("Probe then Recv from several threads: each thread sizes and receives the messages of its tag")
    void probeThenReceiveFromSeveralThreads(World w) {
        w.runRaw(() -> {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            int me = MPI.COMM_WORLD.Rank();
            int size = MPI.COMM_WORLD.Size();
            Workers.runOn(THREADS, t -> {
                List<Request> sends = new ArrayList<>();
                for (int seq = 0; seq < MESSAGES; seq++) {
                    int[] data = new int[1 + seq % 7 + me];
                    java.util.Arrays.fill(data, me * 1000 + seq);
                    sends.add(MPI.COMM_WORLD.Isend(data, 0, data.length, MPI.INT, (me + 1) % size, t));
                }
                int from = (me + size - 1) % size;
                for (int seq = 0; seq < MESSAGES; seq++) {
                    // Half the threads block in Probe, the others poll with Iprobe.
                    Status st;
                    if (t % 2 == 0) {
                        st = MPI.COMM_WORLD.Probe(MPI.ANY_SOURCE, t);
                    } else {
                        while ((st = MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, t)) == null) {
                            Thread.yield(); // polling is what this thread tests; yield the core to the senders
                        }
                    }
                    int n = st.Get_count(MPI.INT);
                    assertEquals(from, st.source);
                    assertEquals(1 + seq % 7 + from, n, "size of message " + seq);
                    int[] got = new int[n];
                    Status rs = MPI.COMM_WORLD.Recv(got, 0, n, MPI.INT, st.source, t);
                    assertEquals(n, rs.Get_count(MPI.INT));
                    for (int v : got) {
                        assertEquals(from * 1000 + seq, v);
                    }
                }
                Request.Waitall(sends.toArray(new Request[0]));
            });
            MPI.Finalize();
            return null;
        });
    }
}
