package org.mpjlite.benchmarks;

import java.util.concurrent.TimeUnit;
import mpjbuf.Buffer;
import mpjbuf.BufferFactory;
import mpjbuf.PoolStrategy;
import mpjbuf.StorageKind;
import mpjbuf.Type;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The buffering share of an 8-byte eager message: get a buffer, write one section, commit, read it back, free.
 * The target is well under 100 ns with no allocation once warm.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EagerMessageBenchmark {
    @Param
    public PoolStrategy strategy;

    @Param
    public StorageKind storage;

    private BufferFactory factory;
    private final byte[] message = {1, 2, 3, 4, 5, 6, 7, 8};
    private final byte[] received = new byte[8];

    @Setup
    public void setUp() {
        factory = BufferFactory.create(strategy, storage);
    }

    @Benchmark
    public byte[] sendAndReceiveEightBytes() {
        final Buffer buffer = factory.getBuffer(Buffer.sectionBytes(Type.BYTE, message.length));
        buffer.putSectionHeader(Type.BYTE);
        buffer.write(message, 0, message.length);
        buffer.commit();
        buffer.getSectionHeader();
        buffer.read(received, 0, received.length);
        factory.destroyBuffer(buffer);
        return received;
    }
}
