package org.mpjlite.smpdev.diag;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Writes the ranks' {@link Tracer} events as a Chrome Trace Event file (the JSON object format),
 * which Perfetto (ui.perfetto.dev) and {@code chrome://tracing} open:
 * <ul>
 *   <li>one process (pid 1) for the job, one thread per rank ({@code tid = rank * 1000}, named
 *       {@code "rank 3"}); a rank's other threads (at {@code THREAD_MULTIPLE}) follow its tid and are
 *       named {@code "rank 3 / worker-1"};</li>
 *   <li>a complete event ({@code "X"}) per call, named as the program called it, with
 *       {@code args}: peer (a collective's root), tag, count, datatype, bytes, comm, each when the
 *       call has it (a collective's bytes are the rank's part; for the variants whose counts
 *       differ per rank, such as {@code Gatherv}, bytes without a count); the slice covers the time
 *       the call was blocked;</li>
 *   <li>a flow ({@code "s"} in the sending call's slice, {@code "f"} with {@code "bp":"e"} in the
 *       slice of the call that completed the receive, the same {@code id}) per message; a flow is
 *       written only when both its ends were kept;</li>
 *   <li>an instant ({@code "i"}, scope {@code "g"}) for a failure or deadlock, with its report in
 *       {@code args.report};</li>
 *   <li>{@code otherData}: the rank count, the limit, and when the rings overflowed the events
 *       dropped per rank ({@code "dropped_events": {"rank 0": N, ...}}).</li>
 * </ul>
 * Times ({@code ts}, {@code dur}) are microseconds from the job's start, to the nanosecond.
 * Stateless.
 */
public final class TraceFile {
    private TraceFile() {
    }

    /** Writes the tracers' events to {@code file}; each tracer is one rank, in rank order. */
    public static void write(Path file, List<Tracer> tracers, int limit) throws IOException {
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16)) {
            write(w, tracers, limit);
        }
    }

    static void write(Writer out, List<Tracer> tracers, int limit) throws IOException {
        Set<Long> sent = new HashSet<>();
        Set<Long> received = new HashSet<>();
        for (Tracer t : tracers) {
            for (Tracer.Event e : t.events()) {
                if (e.flowsOut() != null) {
                    for (long f : e.flowsOut()) {
                        sent.add(f);
                    }
                }
                if (e.flowsIn() != null) {
                    for (long f : e.flowsIn()) {
                        received.add(f);
                    }
                }
            }
        }
        Json j = new Json(out);
        out.write("{\"traceEvents\":[\n");
        j.first = true;
        j.event("M", "process_name", 0).raw(",\"args\":{\"name\":").str("MPJ Lite job (" + tracers.size()
            + (tracers.size() == 1 ? " rank)" : " ranks)")).raw("}}");
        for (Tracer t : tracers) {
            int main = t.rank() * Tracer.TRACKS;
            boolean namedMain = false;
            for (Tracer.Track k : t.tracks()) {
                namedMain |= k.tid == main;
                threadName(j, k.tid, k.name);
            }
            if (!namedMain) {
                threadName(j, main, "rank " + t.rank());
            }
        }
        for (Tracer t : tracers) {
            for (Tracer.Event e : t.events()) {
                if (e.text() != null) {
                    j.event("i", e.name(), e.tid()).ts(e.ts()).raw(",\"s\":\"g\",\"args\":{\"report\":").str(e.text())
                        .raw("}}");
                    continue;
                }
                j.event("X", e.name(), e.tid()).ts(e.ts()).raw(",\"dur\":").time(e.dur())
                    .raw(",\"cat\":\"").raw(e.collective() ? "collective" : "p2p").raw("\",\"args\":{");
                if (e.peer() >= 0) {
                    j.arg(e.collective() ? "root" : "peer", Integer.toString(e.peer()));
                }
                if (e.tag() != Integer.MIN_VALUE) {
                    j.arg("tag", Integer.toString(e.tag()));
                }
                if (e.count() >= 0) {
                    j.arg("count", Integer.toString(e.count()));
                }
                if (e.datatype() != null) {
                    j.arg("datatype", null).str(e.datatype());
                }
                if (e.bytes() >= 0) {
                    j.arg("bytes", Long.toString(e.bytes()));
                }
                if (e.comm() != null) {
                    j.arg("comm", null).str(e.comm());
                }
                j.raw("}}");
                // A flow's ends lie strictly inside their slices (a slice lasts at least 2 ns).
                if (e.flowsOut() != null) {
                    for (long f : e.flowsOut()) {
                        if (received.contains(f)) {
                            j.event("s", "message", e.tid()).ts(e.ts() + 1).raw(",\"cat\":\"message\",\"id\":")
                                .raw(Long.toString(f)).raw("}");
                        }
                    }
                }
                if (e.flowsIn() != null) {
                    for (long f : e.flowsIn()) {
                        if (sent.contains(f)) {
                            j.event("f", "message", e.tid()).ts(e.ts() + e.dur() - 1)
                                .raw(",\"bp\":\"e\",\"cat\":\"message\",\"id\":").raw(Long.toString(f)).raw("}");
                        }
                    }
                }
            }
        }
        out.write("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"ranks\":" + tracers.size() + ",\"trace_limit\":"
            + limit);
        long dropped = 0;
        for (Tracer t : tracers) {
            dropped += t.dropped();
        }
        if (dropped > 0) {
            out.write(",\"note\":\"the per-rank ring buffers were full: the oldest events were dropped\""
                + ",\"dropped_events\":{");
            for (int i = 0; i < tracers.size(); i++) {
                out.write((i == 0 ? "\"rank " : ",\"rank ") + i + "\":" + tracers.get(i).dropped());
            }
            out.write("}");
        }
        out.write("}}\n");
    }

    private static void threadName(Json j, int tid, String name) throws IOException {
        j.event("M", "thread_name", tid).raw(",\"args\":{\"name\":").str(name).raw("}}");
        j.event("M", "thread_sort_index", tid).raw(",\"args\":{\"sort_index\":" + tid + "}}");
    }

    /** A JSON event writer: the fields every event has, then what the caller appends. */
    private static final class Json {
        private final Writer out;
        boolean first;
        /** Whether the args object being written has a member yet. */
        private boolean hasArg;

        Json(Writer out) {
            this.out = out;
        }

        Json event(String ph, String name, int tid) throws IOException {
            out.write(first ? "" : ",\n");
            first = false;
            hasArg = false;
            raw("{\"ph\":\"").raw(ph).raw("\",\"name\":").str(name).raw(",\"pid\":1,\"tid\":" + tid);
            return this;
        }

        /** A member of the event's args: {@code name} then {@code value} written raw, or nothing if null. */
        Json arg(String name, String value) throws IOException {
            raw(hasArg ? ",\"" : "\"").raw(name).raw("\":");
            hasArg = true;
            return value == null ? this : raw(value);
        }

        Json ts(long nanos) throws IOException {
            return raw(",\"ts\":").time(nanos);
        }

        /** Nanoseconds as microseconds with three decimals. */
        Json time(long nanos) throws IOException {
            return raw(String.format(Locale.ROOT, "%d.%03d", nanos / 1000, nanos % 1000));
        }

        Json raw(String s) throws IOException {
            out.write(s);
            return this;
        }

        /** A JSON string: quotes, backslashes and control characters escaped. */
        Json str(String s) throws IOException {
            out.write('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> out.write("\\\"");
                    case '\\' -> out.write("\\\\");
                    case '\n' -> out.write("\\n");
                    case '\r' -> out.write("\\r");
                    case '\t' -> out.write("\\t");
                    default -> {
                        if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                            out.write(String.format(Locale.ROOT, "\\u%04x", (int) c));
                        } else {
                            out.write(c);
                        }
                    }
                }
            }
            out.write('"');
            return this;
        }
    }

    /** {@link #write(Path, List, int)} for callers that cannot throw checked exceptions. */
    public static void writeUnchecked(Path file, List<Tracer> tracers, int limit) {
        try {
            write(file, tracers, limit);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the trace " + file + ": " + e.getMessage(), e);
        }
    }
}
