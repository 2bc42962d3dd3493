package org.mpjlite.benchmarks;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import mpjbuf.Buffer;
import mpjbuf.BufferFactory;
import mpjbuf.PoolStrategy;
import mpjbuf.StorageKind;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Figure 4 of the MPJ Express buffering paper: time to obtain and release one buffer of a given size, one buffer
 * live at a time, for both buddy strategies over direct and heap storage against plain {@link ByteBuffer}
 * allocation (whose cost includes the garbage collection it causes, averaged over the run). {@link PlotResults}
 * draws its JMH CSV ({@code -rf csv}) as one line per allocator against the size.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AllocationBenchmark {
    /** What allocates: a buddy strategy and storage kind, or the JDK directly. */
    public enum Allocator {
        BUDDY1_DIRECT, BUDDY1_HEAP, BUDDY2_DIRECT, BUDDY2_HEAP, ALLOCATE_DIRECT, ALLOCATE
    }

    @Param({"128", "1024", "8192", "65536", "524288", "4194304", "16777216"})
    public int size;

    @Param
    public Allocator allocator;

    private BufferFactory factory;

    @Setup
    public void setUp() {
        switch (allocator) {
            case BUDDY1_DIRECT -> factory = BufferFactory.create(PoolStrategy.BUDDY1, StorageKind.DIRECT);
            case BUDDY1_HEAP -> factory = BufferFactory.create(PoolStrategy.BUDDY1, StorageKind.HEAP);
            case BUDDY2_DIRECT -> factory = BufferFactory.create(PoolStrategy.BUDDY2, StorageKind.DIRECT);
            case BUDDY2_HEAP -> factory = BufferFactory.create(PoolStrategy.BUDDY2, StorageKind.HEAP);
            default -> factory = null;
        }
    }

    @Benchmark
    public Object allocateAndFree() {
        switch (allocator) {
            case ALLOCATE_DIRECT:
                return ByteBuffer.allocateDirect(size);
            case ALLOCATE:
                return ByteBuffer.allocate(size);
            default:
                final Buffer buffer = factory.getBuffer(size);
                factory.destroyBuffer(buffer);
                return buffer;
        }
    }
}
