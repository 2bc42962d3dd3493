package org.mpjlite.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A trace file read back with Jackson, and the checks every trace must pass: the JSON object
 * format, one named track per rank, slices of one track nested or disjoint, every flow's ends
 * inside slices of their tracks, the send before the receive.
 */
final class TraceFiles {
    /** A complete event, times in nanoseconds. */
    record Slice(String name, int tid, long ts, long dur, JsonNode args) {
        long end() {
            return ts + dur;
        }

        boolean covers(long t) {
            return ts < t && t < end();
        }
    }

    /** A flow: where it starts and where it finishes (tid and time in nanoseconds). */
    record Flow(long id, int fromTid, long sentAt, int toTid, long receivedAt) {
    }

    final JsonNode root;
    final List<Slice> slices = new ArrayList<>();
    final List<Flow> flows = new ArrayList<>();
    final Map<Integer, String> threadNames = new HashMap<>();
    final List<JsonNode> instants = new ArrayList<>();

    private TraceFiles(JsonNode root) {
        this.root = root;
    }

    /** Reads {@code file} and checks what every trace must satisfy. */
    static TraceFiles read(Path file) throws IOException {
        TraceFiles t = new TraceFiles(new ObjectMapper().readTree(file.toFile()));
        t.check();
        return t;
    }

    static long nanos(JsonNode microseconds) {
        return Math.round(microseconds.asDouble() * 1000);
    }

    private void check() {
        assertEquals("ns", root.get("displayTimeUnit").asText());
        assertTrue(root.get("otherData").isObject());
        Map<Long, JsonNode> starts = new HashMap<>();
        Map<Long, JsonNode> finishes = new HashMap<>();
        for (JsonNode e : root.get("traceEvents")) {
            assertEquals(1, e.get("pid").asInt(), "one process: the job");
            String ph = e.get("ph").asText();
            switch (ph) {
                case "M" -> {
                    if (e.get("name").asText().equals("thread_name")) {
                        threadNames.put(e.get("tid").asInt(), e.get("args").get("name").asText());
                    }
                }
                case "X" -> slices.add(new Slice(e.get("name").asText(), e.get("tid").asInt(), nanos(e.get("ts")),
                    nanos(e.get("dur")), e.get("args")));
                case "s" -> assertEquals(null, starts.put(e.get("id").asLong(), e), "one start per flow");
                case "f" -> {
                    assertEquals("e", e.get("bp").asText(), "a flow finishes in its enclosing slice");
                    assertEquals(null, finishes.put(e.get("id").asLong(), e), "one finish per flow");
                }
                case "i" -> {
                    assertEquals("g", e.get("s").asText(), "a failure is global");
                    instants.add(e);
                }
                default -> throw new AssertionError("unexpected event " + e);
            }
        }
        assertEquals(starts.keySet(), finishes.keySet(), "every flow start has its finish and back");
        for (Slice s : slices) {
            assertNotNull(threadNames.get(s.tid()), "the track of " + s + " is named");
        }
        Map<Integer, List<Slice>> byTrack = slices.stream().collect(Collectors.groupingBy(Slice::tid));
        for (List<Slice> track : byTrack.values()) {
            track.sort(Comparator.comparingLong(Slice::ts).thenComparing(Comparator.comparingLong(Slice::dur).reversed()));
            for (int i = 1; i < track.size(); i++) {
                Slice a = track.get(i - 1);
                Slice b = track.get(i);
                assertTrue(b.ts() >= a.end() || b.end() <= a.end(), "slices overlap partially: " + a + " and " + b);
            }
        }
        for (Map.Entry<Long, JsonNode> e : starts.entrySet()) {
            JsonNode s = e.getValue();
            JsonNode f = finishes.get(e.getKey());
            Flow flow = new Flow(e.getKey(), s.get("tid").asInt(), nanos(s.get("ts")), f.get("tid").asInt(),
                nanos(f.get("ts")));
            assertTrue(flow.sentAt() <= flow.receivedAt(), "sent before received: " + flow);
            assertNotNull(enclosing(flow.fromTid(), flow.sentAt()), "a flow starts inside a slice: " + flow);
            assertNotNull(enclosing(flow.toTid(), flow.receivedAt()), "a flow finishes inside a slice: " + flow);
            flows.add(flow);
        }
    }

    /** The slice of track {@code tid} that covers time {@code t}, or null. */
    Slice enclosing(int tid, long t) {
        return slices.stream().filter(s -> s.tid() == tid && s.covers(t)).findFirst().orElse(null);
    }

    /** The slices of a rank's main track, in time order. */
    List<Slice> rank(int rank) {
        return slices.stream().filter(s -> s.tid() == rank * 1000).sorted(Comparator.comparingLong(Slice::ts)).toList();
    }

    /** How many slices of a rank's main track have this name. */
    long count(int rank, String name) {
        return rank(rank).stream().filter(s -> s.name().equals(name)).count();
    }
}
