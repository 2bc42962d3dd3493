package org.mpjlite.collective;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.function.IntFunction;
import mpi.Datatype;
import mpi.MPI;

/**
 * A kind of buffer the suite moves data in: a Java array of each primitive type (mpiJava style), and
 * NIO buffers of the Open MPI style (direct ByteBuffers viewed as a type, typed heap buffers).
 * Values are handled as longs: {@link #set} stores a value with the type's own conversion (so
 * integer overflow wraps as Java's arithmetic does) and {@link #get} reads it back.
 */
enum Kind {
    BYTE_ARRAY(MPI.BYTE, byte[]::new),
    CHAR_ARRAY(MPI.CHAR, char[]::new),
    SHORT_ARRAY(MPI.SHORT, short[]::new),
    BOOLEAN_ARRAY(MPI.BOOLEAN, boolean[]::new),
    INT_ARRAY(MPI.INT, int[]::new),
    LONG_ARRAY(MPI.LONG, long[]::new),
    FLOAT_ARRAY(MPI.FLOAT, float[]::new),
    DOUBLE_ARRAY(MPI.DOUBLE, double[]::new),
    INT_DIRECT(MPI.INT, n -> MPI.newByteBuffer(n * 4)),
    FLOAT_DIRECT(MPI.FLOAT, n -> MPI.newByteBuffer(n * 4)),
    LONG_DIRECT(MPI.LONG, n -> MPI.newByteBuffer(n * 8)),
    INT_HEAP_BUFFER(MPI.INT, IntBuffer::allocate),
    DOUBLE_HEAP_BUFFER(MPI.DOUBLE, DoubleBuffer::allocate),
    BYTE_BIG_ENDIAN(MPI.BYTE, n -> ByteBuffer.allocate(n).order(ByteOrder.BIG_ENDIAN));

    final Datatype type;
    private final IntFunction<Object> create;

    Kind(Datatype type, IntFunction<Object> create) {
        this.type = type;
        this.create = create;
    }

    Object create(int n) {
        return create.apply(n);
    }

    boolean isBuffer() {
        return name().contains("DIRECT") || name().contains("BUFFER") || name().contains("ENDIAN");
    }

    boolean isBoolean() {
        return this == BOOLEAN_ARRAY;
    }

    boolean isFloating() {
        return type == MPI.FLOAT || type == MPI.DOUBLE;
    }

    /** A buffer of {@code n} elements, element i holding {@code value.applyAsLong(i)}. */
    Object filled(int n, java.util.function.IntToLongFunction value) {
        Object b = create(n);
        for (int i = 0; i < n; i++) {
            set(b, i, value.applyAsLong(i));
        }
        return b;
    }

    /** The value as this type stores it. */
    long normalize(long v) {
        if (isBoolean()) {
            return v != 0 ? 1 : 0;
        }
        return switch (type.toString()) {
            case "MPI.BYTE" -> (byte) v;
            case "MPI.CHAR" -> (char) v;
            case "MPI.SHORT" -> (short) v;
            case "MPI.INT" -> (int) v;
            case "MPI.FLOAT" -> (long) (float) v;
            case "MPI.DOUBLE" -> (long) (double) v;
            default -> v;
        };
    }

    void set(Object b, int i, long v) {
        switch (this) {
            case BYTE_ARRAY -> ((byte[]) b)[i] = (byte) v;
            case CHAR_ARRAY -> ((char[]) b)[i] = (char) v;
            case SHORT_ARRAY -> ((short[]) b)[i] = (short) v;
            case BOOLEAN_ARRAY -> ((boolean[]) b)[i] = v != 0;
            case INT_ARRAY -> ((int[]) b)[i] = (int) v;
            case LONG_ARRAY -> ((long[]) b)[i] = v;
            case FLOAT_ARRAY -> ((float[]) b)[i] = v;
            case DOUBLE_ARRAY -> ((double[]) b)[i] = v;
            case INT_DIRECT -> ((ByteBuffer) b).putInt(i * 4, (int) v);
            case FLOAT_DIRECT -> ((ByteBuffer) b).putFloat(i * 4, v);
            case LONG_DIRECT -> ((ByteBuffer) b).putLong(i * 8, v);
            case INT_HEAP_BUFFER -> ((IntBuffer) b).put(i, (int) v);
            case DOUBLE_HEAP_BUFFER -> ((DoubleBuffer) b).put(i, v);
            case BYTE_BIG_ENDIAN -> ((ByteBuffer) b).put(i, (byte) v);
            default -> throw new AssertionError(this);
        }
    }

    long get(Object b, int i) {
        return switch (this) {
            case BYTE_ARRAY -> ((byte[]) b)[i];
            case CHAR_ARRAY -> ((char[]) b)[i];
            case SHORT_ARRAY -> ((short[]) b)[i];
            case BOOLEAN_ARRAY -> ((boolean[]) b)[i] ? 1 : 0;
            case INT_ARRAY -> ((int[]) b)[i];
            case LONG_ARRAY -> ((long[]) b)[i];
            case FLOAT_ARRAY -> (long) ((float[]) b)[i];
            case DOUBLE_ARRAY -> (long) ((double[]) b)[i];
            case INT_DIRECT -> ((ByteBuffer) b).getInt(i * 4);
            case FLOAT_DIRECT -> (long) ((ByteBuffer) b).getFloat(i * 4);
            case LONG_DIRECT -> ((ByteBuffer) b).getLong(i * 8);
            case INT_HEAP_BUFFER -> ((IntBuffer) b).get(i);
            case DOUBLE_HEAP_BUFFER -> (long) ((DoubleBuffer) b).get(i);
            case BYTE_BIG_ENDIAN -> ((ByteBuffer) b).get(i);
        };
    }

    /** Element count of a buffer of this kind. */
    int length(Object b) {
        if (b instanceof ByteBuffer bb) {
            return bb.capacity() / type.getSize();
        }
        if (b instanceof Buffer nb) {
            return nb.capacity();
        }
        return java.lang.reflect.Array.getLength(b);
    }

    /** Asserts elements {@code [from, from + n)} of {@code b} hold {@code expected.applyAsLong(i)} (i from 0). */
    void assertHolds(Object b, int from, int n, java.util.function.IntToLongFunction expected, String what) {
        for (int i = 0; i < n; i++) {
            long want = normalize(expected.applyAsLong(i));
            long got = get(b, from + i);
            if (want != got) {
                throw new AssertionError(what + " (" + this + "): element " + (from + i) + " is " + got + ", expected "
                    + want);
            }
        }
    }
}
