package mpi;

import java.nio.DoubleBuffer;

/**
 * A view of one complex number of {@code MPI.DOUBLE_COMPLEX} data (Open MPI Java's
 * {@code DoubleComplex}): element {@code 2 * index} of a {@code double} buffer or array is the real
 * part, the next one the imaginary part. Reads and writes go straight to the buffer.
 *
 * <p>Not thread-safe: as thread-safe as the buffer it views.
 */
public final class DoubleComplex {
    private final DoubleBuffer buffer;
    private final int offset;

    private DoubleComplex(DoubleBuffer buffer, int index) {
        if (buffer == null) {
            throw new IllegalArgumentException("DoubleComplex: the buffer is null");
        }
        if (index < 0 || 2L * index + 1 >= buffer.capacity()) {
            throw new IndexOutOfBoundsException("DoubleComplex: complex number " + index + " is not in a buffer of "
                + buffer.capacity() + " doubles");
        }
        this.buffer = buffer;
        this.offset = 2 * index;
    }

    /** The first complex number of {@code buffer}. */
    public static DoubleComplex get(DoubleBuffer buffer) {
        return new DoubleComplex(buffer, 0);
    }

    /** Complex number {@code index} of {@code buffer} (its elements {@code 2 * index} and {@code 2 * index + 1}). */
    public static DoubleComplex get(DoubleBuffer buffer, int index) {
        return new DoubleComplex(buffer, index);
    }

    /** The first complex number of {@code array}. */
    public static DoubleComplex get(double[] array) {
        return get(array, 0);
    }

    /** Complex number {@code index} of {@code array}. */
    public static DoubleComplex get(double[] array, int index) {
        return new DoubleComplex(DoubleBuffer.wrap(array), index);
    }

    public double getReal() {
        return buffer.get(offset);
    }

    public double getImag() {
        return buffer.get(offset + 1);
    }

    public void putReal(double real) {
        buffer.put(offset, real);
    }

    public void putImag(double imag) {
        buffer.put(offset + 1, imag);
    }

    /** The buffer from this complex number on: what to pass to a call that sends or receives it. */
    public DoubleBuffer getBuffer() {
        return offset == 0 ? buffer : MPI.slice(buffer, offset);
    }
}
