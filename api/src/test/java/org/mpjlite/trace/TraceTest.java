package org.mpjlite.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.JobFailedException;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.trace.TraceFiles.Flow;
import org.mpjlite.trace.TraceFiles.Slice;

/** {@code MpjLite.options().trace(file)}: the timeline of known programs, read back with a JSON parser. */
class TraceTest {
    @TempDir
    Path dir;

    /** Each rank: Init, 3 Sendrecv, Irecv + Isend + Waitall, Send + Recv (eager), Allreduce, Bcast, Barrier, Finalize. */
    private static Integer ring() {
        MPI.Init(new String[0]);
        int me = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int right = (me + 1) % size;
        int left = (me + size - 1) % size;
        int[] out = {me, me, me, me};
        int[] in = new int[4];
        for (int k = 0; k < 3; k++) {
            MPI.COMM_WORLD.Sendrecv(out, 0, 1, MPI.INT, right, k, in, 0, 1, MPI.INT, left, k);
        }
        Request r = MPI.COMM_WORLD.Irecv(in, 0, 4, MPI.INT, left, 9);
        Request s = MPI.COMM_WORLD.Isend(out, 0, 4, MPI.INT, right, 9);
        Request.Waitall(new Request[] {r, s});
        MPI.COMM_WORLD.Send(out, 0, 1, MPI.INT, right, 20);
        MPI.COMM_WORLD.Recv(in, 0, 1, MPI.INT, left, 20);
        double[] x = {me};
        double[] sum = new double[1];
        MPI.COMM_WORLD.Allreduce(x, 0, sum, 0, 1, MPI.DOUBLE, MPI.SUM);
        MPI.COMM_WORLD.Bcast(out, 0, 2, MPI.INT, 0);
        MPI.COMM_WORLD.Barrier();
        MPI.Finalize();
        return in[0];
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4})
    void ringHasASlicePerCallAFlowPerMessageAndCollectivesOnEveryRank(int n) throws Exception {
        Path file = dir.resolve("ring.json");
        Jobs.options().ranks(n).trace(file).run(TraceTest::ring);
        TraceFiles t = TraceFiles.read(file);

        assertEquals(n, t.root.get("otherData").get("ranks").asInt());
        assertFalse(t.root.get("otherData").has("dropped_events"), "nothing dropped");
        for (int r = 0; r < n; r++) {
            assertEquals("rank " + r, t.threadNames.get(r * 1000));
            assertEquals(List.of("Init", "Sendrecv", "Sendrecv", "Sendrecv", "Irecv", "Isend", "Waitall", "Send", "Recv",
                "Allreduce", "Bcast", "Barrier", "Finalize"), t.rank(r).stream().map(Slice::name).toList(), "rank " + r);
            int right = (r + 1) % n;
            Slice send = t.rank(r).get(7);
            assertEquals(right, send.args().get("peer").asInt());
            assertEquals(20, send.args().get("tag").asInt());
            assertEquals(1, send.args().get("count").asInt());
            assertEquals("MPI.INT", send.args().get("datatype").asText());
            assertEquals(4, send.args().get("bytes").asLong());
            assertEquals("MPI.COMM_WORLD", send.args().get("comm").asText());
            Slice recv = t.rank(r).get(8);
            assertEquals((r + n - 1) % n, recv.args().get("peer").asInt(), "a receive shows its source");
            Slice allreduce = t.rank(r).get(9);
            assertEquals(1, allreduce.args().get("count").asInt());
            assertEquals("MPI.DOUBLE", allreduce.args().get("datatype").asText());
            assertEquals(8, allreduce.args().get("bytes").asLong());
            assertEquals(8, t.rank(r).get(10).args().get("bytes").asLong(), "Bcast of 2 ints");
        }
        assertEquals(5 * n, t.flows.size(), "one flow per message: 3 Sendrecv, Isend, Send per rank");
        for (Flow f : t.flows) {
            int from = f.fromTid() / 1000;
            assertEquals((from + 1) % n * 1000, f.toTid(), "every message goes to the right neighbour: " + f);
            String sentBy = t.enclosing(f.fromTid(), f.sentAt()).name();
            String receivedBy = t.enclosing(f.toTid(), f.receivedAt()).name();
            assertTrue(List.of("Sendrecv:Sendrecv", "Isend:Waitall", "Send:Recv").contains(sentBy + ":" + receivedBy),
                sentBy + " -> " + receivedBy);
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3})
    void aDeadlockIsAGlobalInstantWithTheReport(int n) throws Exception {
        Path file = dir.resolve("deadlock.json");
        assertThrows(JobFailedException.class, () -> Jobs.options().ranks(n).trace(file).run(() -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.Barrier();
            int[] buf = new int[1];
            MPI.COMM_WORLD.Recv(buf, 0, 1, MPI.INT, (MPI.COMM_WORLD.Rank() + 1) % n, 7);
            MPI.Finalize();
            return null;
        }));
        TraceFiles t = TraceFiles.read(file);
        assertEquals(1, t.instants.size());
        JsonNode i = t.instants.get(0);
        assertEquals("deadlock", i.get("name").asText());
        String report = i.get("args").get("report").asText();
        assertTrue(report.contains("deadlock") && report.contains("rank 1: Recv(source="), report);
        for (int r = 0; r < n; r++) {
            assertEquals(1, t.count(r, "Barrier"), "what ran before the deadlock is there");
        }
    }

    @Test
    void aRankThatThrowsIsAGlobalInstant() throws Exception {
        Path file = dir.resolve("failure.json");
        assertThrows(JobFailedException.class, () -> Jobs.options().ranks(3).trace(file).run(() -> {
            MPI.Init(new String[0]);
            if (MPI.COMM_WORLD.Rank() == 2) {
                throw new IllegalStateException("broken \"on purpose\"\n");
            }
            MPI.COMM_WORLD.Barrier();
            MPI.Finalize();
            return null;
        }));
        JsonNode i = TraceFiles.read(file).instants.get(0);
        assertEquals("failure", i.get("name").asText());
        assertTrue(i.get("args").get("report").asText().contains("broken \"on purpose\""), i.toString());
        assertEquals(2000, i.get("tid").asInt(), "on the failed rank's track");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 3})
    void aFullRingDropsTheOldestEventsAndSaysSo(int n) throws Exception {
        Path file = dir.resolve("dropped.json");
        Jobs.options().ranks(n).trace(file).traceLimit(50).run(() -> {
            MPI.Init(new String[0]);
            int me = MPI.COMM_WORLD.Rank();
            int size = MPI.COMM_WORLD.Size();
            int[] buf = new int[1];
            for (int k = 0; k < 200; k++) {
                MPI.COMM_WORLD.Sendrecv(buf, 0, 1, MPI.INT, (me + 1) % size, 0, buf, 0, 1, MPI.INT,
                    (me + size - 1) % size, 0);
            }
            MPI.COMM_WORLD.Barrier();
            MPI.Finalize();
            return null;
        });
        TraceFiles t = TraceFiles.read(file);
        JsonNode other = t.root.get("otherData");
        assertEquals(50, other.get("trace_limit").asInt());
        for (int r = 0; r < n; r++) {
            assertEquals(50, t.rank(r).size(), "the ring keeps its limit");
            assertEquals(153, other.get("dropped_events").get("rank " + r).asLong(), "203 calls, 50 kept");
            assertEquals("Barrier", t.rank(r).get(48).name(), "the newest are kept");
            assertEquals("Finalize", t.rank(r).get(49).name());
        }
        assertTrue(other.get("note").asText().contains("dropped"));
        assertFalse(t.flows.isEmpty(), "flows whose two ends were kept remain");
    }

    @Test
    void eachThreadOfARankHasItsOwnTrack() throws Exception {
        Path file = dir.resolve("threads.json");
        Jobs.options().ranks(2).trace(file).run(() -> {
            MPI.Init_thread(new String[0], MPI.THREAD_MULTIPLE);
            int[] buf = new int[1];
            if (MPI.COMM_WORLD.Rank() == 0) {
                Thread worker = new Thread(() -> MPI.COMM_WORLD.Send(buf, 0, 1, MPI.INT, 1, 5), "worker-1");
                worker.start();
                worker.join();
            } else {
                MPI.COMM_WORLD.Recv(buf, 0, 1, MPI.INT, 0, 5);
            }
            MPI.COMM_WORLD.Barrier();
            MPI.Finalize();
            return null;
        });
        TraceFiles t = TraceFiles.read(file);
        assertEquals("rank 0 / worker-1", t.threadNames.get(1));
        assertEquals(List.of("Send"), t.slices.stream().filter(s -> s.tid() == 1).map(Slice::name).toList());
        assertEquals(List.of(new Flow(t.flows.get(0).id(), 1, t.flows.get(0).sentAt(), 1000,
            t.flows.get(0).receivedAt())), t.flows, "from the worker's track to rank 1's Recv");
        assertEquals(List.of("Init_thread", "Barrier", "Finalize"), t.rank(0).stream().map(Slice::name).toList());
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 3})
    void collectivesWithCountsPerRankShowEachRanksBytes(int n) throws Exception {
        Path file = dir.resolve("v.json");
        Jobs.options().ranks(n).trace(file).run(() -> {
            MPI.Init(new String[0]);
            int me = MPI.COMM_WORLD.Rank();
            int size = MPI.COMM_WORLD.Size();
            int[] counts = new int[size];
            int[] displs = new int[size];
            for (int r = 0; r < size; r++) {
                counts[r] = r + 1;
                displs[r] = r * (r + 1) / 2;
            }
            int[] mine = new int[me + 1];
            int[] all = new int[size * (size + 1) / 2];
            MPI.COMM_WORLD.Allgatherv(mine, 0, me + 1, MPI.INT, all, 0, counts, displs, MPI.INT);
            MPI.COMM_WORLD.Gatherv(mine, 0, me + 1, MPI.INT, all, 0, counts, displs, MPI.INT, size - 1);
            MPI.Finalize();
            return null;
        });
        TraceFiles t = TraceFiles.read(file);
        for (int r = 0; r < n; r++) {
            Slice allgatherv = t.rank(r).get(1);
            assertEquals("Allgatherv", allgatherv.name());
            assertEquals(4L * (r + 1), allgatherv.args().get("bytes").asLong(), "rank " + r + " contributes r + 1 ints");
            assertFalse(allgatherv.args().has("count"), "counts differ per rank");
            Slice gatherv = t.rank(r).get(2);
            assertEquals(n - 1, gatherv.args().get("root").asInt());
            assertEquals(4L * (r + 1), gatherv.args().get("bytes").asLong());
        }
    }

    @Test
    void noTraceNoFile() throws Exception {
        Jobs.options().ranks(2).run(TraceTest::ring);
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count());
        }
    }
}
