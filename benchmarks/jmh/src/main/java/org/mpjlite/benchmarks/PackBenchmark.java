package org.mpjlite.benchmarks;

import java.util.concurrent.TimeUnit;
import mpjbuf.Buffer;
import mpjbuf.BufferFactory;
import mpjbuf.PoolStrategy;
import mpjbuf.StorageKind;
import mpjbuf.Type;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Packing and unpacking one section of each primitive type: {@code mpjbuf.Buffer} write and read
 * of a Java array of {@code bytes} bytes, the copies an eager message, a derived datatype or
 * {@code Pack}/{@code Unpack} makes. The buffer stays allocated: allocation is measured by
 * mpjbuf-lite's own {@code AllocationBenchmark} and {@code EagerMessageBenchmark} (see
 * mpjbuf-lite/README.md), and the copy technique itself by its {@code CopyBenchmark}.
 *
 * <ul>
 *   <li>{@link #pack}: clear, section header, write, commit;</li>
 *   <li>{@link #unpack}: rewind, section header, read.</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class PackBenchmark {
    @Param({"BYTE", "CHAR", "SHORT", "BOOLEAN", "INT", "LONG", "FLOAT", "DOUBLE"})
    public Type type;

    /** Payload bytes per section. */
    @Param({"64", "65536"})
    public int bytes;

    /** Where the pooled block lives ({@code --storage heap|direct}). */
    @Param({"HEAP", "DIRECT"})
    public StorageKind storage;

    private BufferFactory factory;
    private Buffer buffer;
    private Object array;
    private int count;

    @Setup
    public void setUp() {
        factory = BufferFactory.create(PoolStrategy.BUDDY1, storage);
        count = bytes / type.size();
        buffer = factory.getBuffer(Buffer.sectionBytes(type, count));
        array = switch (type) {
            case BYTE -> new byte[count];
            case CHAR -> new char[count];
            case SHORT -> new short[count];
            case BOOLEAN -> new boolean[count];
            case INT -> new int[count];
            case LONG -> new long[count];
            case FLOAT -> new float[count];
            case DOUBLE -> new double[count];
            case OBJECT -> throw new IllegalArgumentException("OBJECT is not a primitive type");
        };
        pack();
    }

    @TearDown
    public void tearDown() {
        buffer.free();
    }

    @Benchmark
    public Buffer pack() {
        buffer.clear();
        buffer.putSectionHeader(type);
        switch (type) {
            case BYTE -> buffer.write((byte[]) array, 0, count);
            case CHAR -> buffer.write((char[]) array, 0, count);
            case SHORT -> buffer.write((short[]) array, 0, count);
            case BOOLEAN -> buffer.write((boolean[]) array, 0, count);
            case INT -> buffer.write((int[]) array, 0, count);
            case LONG -> buffer.write((long[]) array, 0, count);
            case FLOAT -> buffer.write((float[]) array, 0, count);
            case DOUBLE -> buffer.write((double[]) array, 0, count);
            default -> throw new IllegalStateException(type.toString());
        }
        buffer.commit();
        return buffer;
    }

    @Benchmark
    public Object unpack() {
        buffer.commit();
        buffer.getSectionHeader();
        switch (type) {
            case BYTE -> buffer.read((byte[]) array, 0, count);
            case CHAR -> buffer.read((char[]) array, 0, count);
            case SHORT -> buffer.read((short[]) array, 0, count);
            case BOOLEAN -> buffer.read((boolean[]) array, 0, count);
            case INT -> buffer.read((int[]) array, 0, count);
            case LONG -> buffer.read((long[]) array, 0, count);
            case FLOAT -> buffer.read((float[]) array, 0, count);
            case DOUBLE -> buffer.read((double[]) array, 0, count);
            default -> throw new IllegalStateException(type.toString());
        }
        return array;
    }
}
