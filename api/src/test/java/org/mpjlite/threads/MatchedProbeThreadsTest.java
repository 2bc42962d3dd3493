package org.mpjlite.threads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Message;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.smpdev.Tunables;

/**
 * Matched probe at THREAD_MULTIPLE: several threads of every rank mProbe {@code ANY_SOURCE} on one
 * communicator and receive what they matched (mRecv and imRecv), sizing the buffer from the
 * probe's status; every message, small, rendezvous-size or synchronous, is received exactly once
 * and intact. On 1, 2, 3, 5 and 8 ranks, both matching structures, eager and rendezvous.
 */
class MatchedProbeThreadsTest {
    private static final int THREADS = 4;
    private static final int PER_PAIR = 24;
    /** Above the default eager threshold (16 KiB) in ints: such a message goes by rendezvous. */
    private static final int LARGE = 6000;

    static Stream<World> threadWorlds() {
        return Stream.concat(Jobs.worlds(IntStream.of(1, 2, 3, 5, 8), Tunables.DEFAULT_EAGER_THRESHOLD),
            Jobs.worlds(IntStream.of(2, 3), 0));
    }

    /** The length of message {@code seq}: a mix of small and rendezvous-size messages. */
    private static int length(int seq) {
        return seq % 5 == 0 ? LARGE + seq : 2 + seq;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("threadWorlds")
    @DisplayName("4 threads mProbe(ANY_SOURCE)+mRecv on one communicator: every message received exactly once")
    void threadsReceiveEveryMessageExactlyOnce(World w) {
        List<Integer> got = w.runRaw(() -> {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            Intracomm comm = MPI.COMM_WORLD.dup();
            int me = comm.getRank();
            int size = comm.getSize();
            List<Request> sends = new ArrayList<>();
            for (int seq = 0; seq < PER_PAIR; seq++) {
                for (int d = 0; d < size; d++) {
                    int[] data = payload(me, seq);
                    // Synchronous sends too: they complete only when their matched message is received.
                    sends.add(seq % 3 == 1 ? comm.isSend(data, data.length, MPI.INT, d, seq % 7)
                        : comm.iSend(data, data.length, MPI.INT, d, seq % 7));
                }
            }
            int expected = size * PER_PAIR;
            AtomicInteger claimed = new AtomicInteger();
            Set<Long> received = ConcurrentHashMap.newKeySet();
            AtomicInteger duplicates = new AtomicInteger();
            Workers.runOn(THREADS, t -> {
                while (claimed.getAndIncrement() < expected) {
                    Message m = new Message();
                    assertTrue(m.isNull());
                    Status probed = m.mProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, comm);
                    assertFalse(m.isNull());
                    int n = probed.getCount(MPI.INT);
                    int[] buf = new int[n];
                    Status st;
                    if (t % 2 == 0) {
                        st = m.mRecv(buf, n, MPI.INT);
                    } else {
                        st = m.imRecv(buf, n, MPI.INT).waitStatus();
                    }
                    assertTrue(m.isNull());
                    int src = buf[0];
                    int seq = buf[1];
                    assertEquals(probed.getSource(), st.getSource());
                    assertEquals(src, st.getSource());
                    assertEquals(probed.getTag(), st.getTag());
                    assertEquals(seq % 7, st.getTag());
                    assertEquals(n, st.getCount(MPI.INT));
                    assertArrayEquals(payload(src, seq), buf);
                    if (!received.add(((long) src << 32) | seq)) {
                        duplicates.incrementAndGet();
                    }
                }
            });
            Request.waitAll(sends.toArray(new Request[0]));
            assertEquals(0, duplicates.get(), "messages received twice");
            assertEquals(expected, received.size(), "every message received once");
            // Nothing left to match on the communicator.
            assertNull(comm.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG));
            comm.free();
            MPI.Finalize();
            return received.size();
        });
        assertEquals(w.size(), got.size());
    }

    /** Message {@code seq} of rank {@code src}: its source and number, then filler. */
    private static int[] payload(int src, int seq) {
        int[] data = new int[length(seq)];
        data[0] = src;
        data[1] = seq;
        for (int i = 2; i < data.length; i++) {
            data[i] = src * 1_000_003 + seq * 1009 + i;
        }
        return data;
    }
}
