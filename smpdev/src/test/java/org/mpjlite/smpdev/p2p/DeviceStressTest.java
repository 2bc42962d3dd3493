package org.mpjlite.smpdev.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import mpjbuf.PoolStrategy;
import mpjbuf.StorageKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.matching.Envelope;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.JobResult;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.data.BasicType;

/**
 * Many senders, one wildcard receiver, messages of random sizes on both sides of the eager
 * threshold: every message arrives exactly once, in order per sender, with every byte intact —
 * for both mailboxes and every buffer pool. A pooled block handed to two messages at once would
 * show up here as corrupted payloads.
 */
class DeviceStressTest {
    private static final int CONTEXT = 0;
    private static final int MESSAGES_PER_SENDER = 2000;

    static Stream<Arguments> configurations() {
        List<Arguments> out = new ArrayList<>();
        for (MatchingKind matching : MatchingKind.values()) {
            for (PoolStrategy pool : PoolStrategy.values()) {
                for (StorageKind storage : StorageKind.values()) {
                    out.add(Arguments.of(matching, pool, storage));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("configurations")
    void wildcardReceiverGetsEveryMessageOnceInOrderIntact(MatchingKind matching, PoolStrategy pool,
                                                           StorageKind storage) {
        int ranks = 5;
        JobConfig config = JobConfig.builder().ranks(ranks).matching(matching).pool(pool, storage)
            .eagerThreshold(4096).build();
        JobResult result = Job.run(config, rank -> {
            if (rank.id() == 0) {
                receiveAll(rank, ranks - 1);
            } else {
                sendAll(rank);
            }
            return null;
        });
        assertTrue(result.succeeded(), () -> result.failure().describe() + "\n" + stack(result.failure().cause()));
    }

    private static void sendAll(Rank me) {
        Random random = new Random(me.id());
        Rank dest = me.job().rank(0);
        for (int seq = 0; seq < MESSAGES_PER_SENDER; seq++) {
            int n = 1 + random.nextInt(random.nextInt(8) == 0 ? 3000 : 200);
            int[] data = new int[n];
            fill(data, me.id(), seq);
            SendRequest s = PointToPoint.isend(me, dest, CONTEXT, me.id(), seq % 7, data, 0, n, BasicType.INT,
                SendMode.STANDARD, "Send");
            s.await("Send");
        }
    }

    private static void receiveAll(Rank me, int senders) {
        int[] next = new int[senders + 1];
        int[] buffer = new int[4000];
        for (int i = 0; i < senders * MESSAGES_PER_SENDER; i++) {
            RecvRequest r = PointToPoint.irecv(me, CONTEXT, Envelope.ANY_SOURCE, Envelope.ANY_TAG, buffer, 0,
                buffer.length, BasicType.INT, "Recv");
            r.await("Recv");
            assertTrue(!r.failed(), () -> r.error().getMessage());
            int source = r.statusSource();
            int seq = next[source]++;
            assertEquals(seq % 7, r.statusTag(), "tag of message " + seq + " from " + source);
            int[] expected = new int[r.statusCount()];
            fill(expected, source, seq);
            for (int k = 0; k < expected.length; k++) {
                if (buffer[k] != expected[k]) {
                    throw new AssertionError("message " + seq + " from rank " + source + " corrupted at element " + k);
                }
            }
        }
        for (int s = 1; s <= senders; s++) {
            assertEquals(MESSAGES_PER_SENDER, next[s], "messages from rank " + s);
        }
    }

    private static void fill(int[] data, int source, int seq) {
        for (int k = 0; k < data.length; k++) {
            data[k] = (source << 24) ^ (seq << 12) ^ k;
        }
    }

    private static String stack(Throwable t) {
        java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }
}
