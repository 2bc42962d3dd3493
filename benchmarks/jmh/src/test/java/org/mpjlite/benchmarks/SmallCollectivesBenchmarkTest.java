package org.mpjlite.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link SmallCollectivesBenchmark} outside JMH: the trial's partner makes the same calls as JMH's
 * thread, every call returns the data of member 0 (zeros: Allreduce adds the partner's zeros), and
 * the teardown's stop value ends the partner, so that a trial cannot hang.
 */
class SmallCollectivesBenchmarkTest {
    @ParameterizedTest
    @CsvSource({"ALLREDUCE, 8", "ALLREDUCE, 48", "ALLREDUCE, 256", "BCAST, 8", "BCAST, 48", "BCAST, 256"})
    void callsMatchAndTheTrialEnds(String collective, int size) throws InterruptedException {
        SmallCollectivesBenchmark b = new SmallCollectivesBenchmark();
        b.collective = collective;
        b.size = size;
        b.setUp();
        for (int i = 0; i < 2000; i++) {
            assertEquals(0, b.call(), collective + " call " + i);
        }
        b.tearDown();
    }
}
