package org.mpjlite.benchmarks.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpjlite.run.MpjRun;

/**
 * No false reports: every benchmark program runs with the deadlock detector (on by default) and
 * {@code --check}, on the rank counts it supports, and ends with exit code 0 and nothing on the
 * launcher's error stream: no warning, no error, no report. The programs run with tiny sizes and
 * iteration counts; their latency loops poll, wait on many requests and reuse buffers between
 * iterations, all of which the checks must accept.
 */
class CheckedBenchmarksTest {
    @ParameterizedTest(name = "{0} {2} on {1} ranks")
    @CsvSource(delimiter = '|', value = {
        "bench.PingPongVsArraycopy|2|-m 1:64 -x 2 -i 5",
        "bench.OSULatency|2|-m 1:64 -x 1 -i 3", "bench.OSULatency|2|-m 1:64 -x 1 -i 3 -a arrays -c",
        "bench.OSUBandwidth|2|-m 1:64 -x 1 -i 3", "bench.OSUBiBandwidth|2|-m 1:64 -x 1 -i 3",
        "bench.OSUMultiLatency|2|-m 1:16 -x 2 -i 5", "bench.OSUMultiLatency|8|-m 1:16 -x 2 -i 5",
        "bench.OSUBarrier|2|-x 2 -i 20", "bench.OSUBarrier|3|-x 2 -i 20", "bench.OSUBarrier|8|-x 2 -i 20",
        "bench.OSUBcast|2|-m 1:64 -x 2 -i 5", "bench.OSUBcast|3|-m 1:64 -x 2 -i 5 -a buffer",
        "bench.OSUBcast|8|-m 1:64 -x 2 -i 5",
        "bench.OSUGather|2|-m 1:64 -x 2 -i 5", "bench.OSUGather|3|-m 1:64 -x 2 -i 5",
        "bench.OSUGather|8|-m 1:64 -x 2 -i 5",
        "bench.OSUScatter|2|-m 1:64 -x 2 -i 5", "bench.OSUScatter|3|-m 1:64 -x 2 -i 5",
        "bench.OSUScatter|8|-m 1:64 -x 2 -i 5",
        "bench.OSUAllgather|2|-m 1:64 -x 2 -i 5", "bench.OSUAllgather|3|-m 1:64 -x 2 -i 5",
        "bench.OSUAllgather|8|-m 1:64 -x 2 -i 5",
        "bench.OSUAlltoall|2|-m 1:64 -x 2 -i 5", "bench.OSUAlltoall|3|-m 1:64 -x 2 -i 5",
        "bench.OSUAlltoall|8|-m 1:64 -x 2 -i 5",
        "bench.OSUReduce|2|-m 4:64 -x 2 -i 5", "bench.OSUReduce|3|-m 4:64 -x 2 -i 5",
        "bench.OSUReduce|8|-m 4:64 -x 2 -i 5",
        "bench.OSUAllreduce|2|-m 4:64 -x 2 -i 5", "bench.OSUAllreduce|3|-m 4:64 -x 2 -i 5 -a buffer",
        "bench.OSUAllreduce|8|-m 4:64 -x 2 -i 5"})
    @Timeout(120)
    void runsCleanUnderCheck(String mainClass, int ranks, String args) {
        List<String> command = new ArrayList<>(List.of("-np", String.valueOf(ranks), "--check", "-cp",
            OsuBenchmarksTest.classes(), mainClass));
        if (args != null) {
            command.addAll(List.of(args.split(" ")));
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = MpjRun.run(command.toArray(new String[0]), System.out, errors);
        }
        String reported = err.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, reported);
        assertEquals("", reported, "no warning, error or report");
    }
}
