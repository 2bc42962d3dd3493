package mpi;

import java.nio.FloatBuffer;

/**
 * A view of one complex number of {@code MPI.FLOAT_COMPLEX} data (Open MPI Java's
 * {@code FloatComplex}): element {@code 2 * index} of a {@code float} buffer or array is the real
 * part, the next one the imaginary part. Reads and writes go straight to the buffer.
 *
 * <p>Not thread-safe: as thread-safe as the buffer it views.
 */
public final class FloatComplex {
    private final FloatBuffer buffer;
    private final int offset;

    private FloatComplex(FloatBuffer buffer, int index) {
        if (buffer == null) {
            throw new IllegalArgumentException("FloatComplex: the buffer is null");
        }
        if (index < 0 || 2L * index + 1 >= buffer.capacity()) {
            throw new IndexOutOfBoundsException("FloatComplex: complex number " + index + " is not in a buffer of "
                + buffer.capacity() + " floats");
        }
        this.buffer = buffer;
        this.offset = 2 * index;
    }

    /** The first complex number of {@code buffer}. */
    public static FloatComplex get(FloatBuffer buffer) {
        return new FloatComplex(buffer, 0);
    }

    /** Complex number {@code index} of {@code buffer} (its elements {@code 2 * index} and {@code 2 * index + 1}). */
    public static FloatComplex get(FloatBuffer buffer, int index) {
        return new FloatComplex(buffer, index);
    }

    /** The first complex number of {@code array}. */
    public static FloatComplex get(float[] array) {
        return get(array, 0);
    }

    /** Complex number {@code index} of {@code array}. */
    public static FloatComplex get(float[] array, int index) {
        return new FloatComplex(FloatBuffer.wrap(array), index);
    }

    public float getReal() {
        return buffer.get(offset);
    }

    public float getImag() {
        return buffer.get(offset + 1);
    }

    public void putReal(float real) {
        buffer.put(offset, real);
    }

    public void putImag(float imag) {
        buffer.put(offset + 1, imag);
    }

    /** The buffer from this complex number on: what to pass to a call that sends or receives it. */
    public FloatBuffer getBuffer() {
        return offset == 0 ? buffer : MPI.slice(buffer, offset);
    }
}
