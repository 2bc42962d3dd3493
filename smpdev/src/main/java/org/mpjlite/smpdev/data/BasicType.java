package org.mpjlite.smpdev.data;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import mpjbuf.Type;

/**
 * The primitive element types a message can carry, with the Java arrays and NIO buffers that hold
 * them. A {@link ByteBuffer} holds any type (elements in the buffer's byte order); a typed NIO
 * buffer or an array holds only its own.
 */
public enum BasicType {
    BYTE("MPI.BYTE", 1, byte[].class, ByteBuffer.class, Type.BYTE),
    CHAR("MPI.CHAR", 2, char[].class, CharBuffer.class, Type.CHAR),
    SHORT("MPI.SHORT", 2, short[].class, ShortBuffer.class, Type.SHORT),
    BOOLEAN("MPI.BOOLEAN", 1, boolean[].class, ByteBuffer.class, Type.BOOLEAN),
    INT("MPI.INT", 4, int[].class, IntBuffer.class, Type.INT),
    LONG("MPI.LONG", 8, long[].class, LongBuffer.class, Type.LONG),
    FLOAT("MPI.FLOAT", 4, float[].class, FloatBuffer.class, Type.FLOAT),
    DOUBLE("MPI.DOUBLE", 8, double[].class, DoubleBuffer.class, Type.DOUBLE),
    /** Packed bytes (MPI.PACKED): stored and matched as bytes. */
    PACKED("MPI.PACKED", 1, byte[].class, ByteBuffer.class, Type.BYTE),
    /**
     * Serializable objects (mpiJava's MPI.OBJECT) in an {@code Object[]} (or any array of a reference
     * type): one element per array slot, a nominal size of 1, serialized when sent.
     */
    OBJECT("MPI.OBJECT", 1, Object[].class, null, Type.OBJECT);

    private final String mpiName;
    private final int size;
    private final Class<?> arrayClass;
    private final Class<? extends Buffer> bufferClass;
    private final Type bufType;

    BasicType(String mpiName, int size, Class<?> arrayClass, Class<? extends Buffer> bufferClass, Type bufType) {
        this.mpiName = mpiName;
        this.size = size;
        this.arrayClass = arrayClass;
        this.bufferClass = bufferClass;
        this.bufType = bufType;
    }

    /** Bytes per element. */
    public int size() {
        return size;
    }

    /** The name a user writes: {@code MPI.INT}. */
    public String mpiName() {
        return mpiName;
    }

    public Class<?> arrayClass() {
        return arrayClass;
    }

    /** A new array of this type's Java element type. */
    public Object newArray(int n) {
        return java.lang.reflect.Array.newInstance(arrayClass.getComponentType(), n);
    }

    /** The mpjbuf section type of these elements. */
    public Type bufType() {
        return bufType;
    }

    /** True when a message of type {@code sent} may be received as this type. */
    public boolean receives(BasicType sent) {
        return sent == this || (isBytes() && sent.isBytes());
    }

    private boolean isBytes() {
        return this == BYTE || this == PACKED;
    }

    /**
     * How many elements of this type the buffer holds (arrays: length; NIO buffers: capacity,
     * since buffers are addressed from index 0 whatever their position), or -1 when this type
     * cannot live in that buffer ({@code int[]} with {@code MPI.DOUBLE}).
     */
    public int capacityOf(Object buffer) {
        if (this == OBJECT) {
            return buffer instanceof Object[] ? ((Object[]) buffer).length : -1;
        }
        if (buffer.getClass() == arrayClass) {
            return java.lang.reflect.Array.getLength(buffer);
        }
        if (buffer instanceof ByteBuffer) {
            return ((ByteBuffer) buffer).capacity() / size;
        }
        if (bufferClass != null && bufferClass.isInstance(buffer)) {
            return ((Buffer) buffer).capacity();
        }
        return -1;
    }

    /** A user-facing name of a buffer's type: {@code int[]}, {@code direct ByteBuffer}. */
    public static String describe(Object buffer) {
        if (buffer == null) {
            return "null";
        }
        if (buffer instanceof Buffer) {
            Buffer b = (Buffer) buffer;
            String kind = buffer instanceof ByteBuffer ? "ByteBuffer" : buffer.getClass().getSimpleName()
                .replaceAll("^(Direct|Heap)", "").replaceAll("(U|S|RU|RS|R)$", "");
            return (b.isDirect() ? "direct " : "heap ") + kind;
        }
        return buffer.getClass().getSimpleName();
    }
}
