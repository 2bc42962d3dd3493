package org.mpjlite.benchmarks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.concurrent.TimeUnit;
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
 * Candidate ways of copying an {@code int[]} into buffer storage at an aligned offset, in native and swapped byte
 * order: the JDK 16+ absolute bulk put on a typed view (what {@code mpjbuf.Buffer} uses), a per-element loop over
 * the same view, and a per-element loop through a {@code byteBufferViewVarHandle}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CopyBenchmark {
    private static final VarHandle NATIVE_INTS =
        MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final VarHandle SWAPPED_INTS = MethodHandles.byteBufferViewVarHandle(int[].class,
        ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);

    @Param({"2", "16", "256", "65536"})
    public int ints;

    @Param
    public StorageKind storage;

    @Param({"true", "false"})
    public boolean nativeOrder;

    private int[] source;
    private ByteBuffer bytes;
    private IntBuffer view;

    @Setup
    public void setUp() {
        source = new int[ints];
        for (int i = 0; i < ints; i++) {
            source[i] = i * 31;
        }
        final int capacity = 8 + ints * 4;
        final ByteBuffer memory = storage == StorageKind.DIRECT ?
            ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
        final ByteOrder order = nativeOrder ? ByteOrder.nativeOrder() :
            ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        bytes = memory.order(order);
        view = bytes.asIntBuffer();
    }

    @Benchmark
    public IntBuffer bulkView() {
        return view.put(2, source, 0, ints);
    }

    @Benchmark
    public IntBuffer loopView() {
        final IntBuffer view = this.view;
        final int[] source = this.source;
        for (int i = 0; i < source.length; i++) {
            view.put(2 + i, source[i]);
        }
        return view;
    }

    @Benchmark
    public ByteBuffer loopVarHandle() {
        final ByteBuffer bytes = this.bytes;
        final int[] source = this.source;
        // Each VarHandle must be a constant for the JIT to intrinsify it, hence one loop per order.
        if (nativeOrder) {
            for (int i = 0; i < source.length; i++) {
                NATIVE_INTS.set(bytes, 8 + (i << 2), source[i]);
            }
        } else {
            for (int i = 0; i < source.length; i++) {
                SWAPPED_INTS.set(bytes, 8 + (i << 2), source[i]);
            }
        }
        return bytes;
    }
}
