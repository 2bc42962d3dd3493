package org.mpjlite.benchmarks;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What validating a message costs by itself, with no messaging, for byte[] ({@code -a arrays}) and
 * direct ByteBuffers ({@code -a buffer}): {@link #fillAndCheck} fills a buffer with the pattern of
 * an iteration and checks a buffer against it, one whole message after the other, and
 * {@link #checkThenFill} does both in one pass a chunk at a time, exactly as the OSU programs'
 * {@code -c} mode does (benchmarks/osu/src/main/java/bench/OSULatency.java, {@code Payload}).
 *
 * <p>{@code fillAndCheck} is the yardstick for the goal "validation costs no more than filling and
 * checking the data": one {@code OSULatency -c} round trip does one fill and one check on rank 0, so
 * its one-way latency should exceed the plain one by at most half this score.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class ValidationCostBenchmark {
    private static final int SHIFTS = 256;
    private static final int CHUNK = 16 * 1024;

    /** {@code -a}: direct ByteBuffers or Java arrays. */
    @Param({"buffer", "arrays"})
    public String kind;

    @Param({"8", "1024", "65536", "4194304"})
    public int size;

    private byte[] pattern;
    private ByteBuffer patternView;
    private byte[] array;
    private ByteBuffer direct;
    private ByteBuffer directView;
    private boolean arrays;
    private int iteration;

    @Setup
    public void setUp() {
        arrays = kind.equals("arrays");
        pattern = new byte[size + SHIFTS];
        new Random(42).nextBytes(pattern);
        patternView = ByteBuffer.wrap(pattern);
        array = new byte[size];
        direct = ByteBuffer.allocateDirect(size).order(ByteOrder.nativeOrder());
        directView = direct.duplicate();
    }

    /** Fills the message of the next iteration and checks it, whole message after whole message. */
    @Benchmark
    public boolean fillAndCheck() {
        int from = iteration++ & (SHIFTS - 1);
        if (arrays) {
            System.arraycopy(pattern, from, array, 0, size);
            return Arrays.mismatch(array, 0, size, pattern, from, from + size) < 0;
        }
        direct.put(0, pattern, from, size);
        directView.position(0).limit(size);
        patternView.limit(from + size).position(from);
        return directView.mismatch(patternView) < 0;
    }

    /**
     * Checks the message of an iteration and writes the next one, 16 KB at a time, as rank 0 does
     * once per round trip (here into one buffer: the check reads it before the fill overwrites it).
     */
    @Benchmark
    public boolean checkThenFill() {
        int from = iteration++ & (SHIFTS - 1);
        int next = iteration & (SHIFTS - 1);
        boolean same = true;
        for (int at = 0; at < size; at += CHUNK) {
            int len = Math.min(CHUNK, size - at);
            if (arrays) {
                same &= Arrays.mismatch(array, at, at + len, pattern, from + at, from + at + len) < 0;
                System.arraycopy(pattern, next + at, array, at, len);
            } else {
                directView.limit(at + len).position(at);
                patternView.limit(from + at + len).position(from + at);
                same &= directView.mismatch(patternView) < 0;
                direct.put(at, pattern, next + at, len);
            }
        }
        return same;
    }
}
