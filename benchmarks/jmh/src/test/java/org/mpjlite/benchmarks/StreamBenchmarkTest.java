package org.mpjlite.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpjlite.smpdev.MatchingKind;

/**
 * {@link StreamBenchmark} outside JMH: every window is acknowledged (the acknowledgement carries
 * one byte), and the teardown's stop message ends the receiving thread, so that a trial cannot hang.
 */
class StreamBenchmarkTest {
    @ParameterizedTest
    @CsvSource({"LOCKED, 8", "LOCK_FREE, 8", "LOCK_FREE, 64"})
    void windowsAreAcknowledgedAndTheTrialEnds(MatchingKind matching, int size) throws InterruptedException {
        StreamBenchmark b = new StreamBenchmark();
        b.matching = matching;
        b.size = size;
        b.setUp();
        for (int i = 0; i < 500; i++) {
            assertEquals(1, b.window(), "window " + i + " acknowledged");
        }
        b.tearDown();
    }
}
