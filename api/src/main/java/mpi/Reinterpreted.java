package mpi;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import org.mpjlite.smpdev.data.BasicType;

/**
 * A buffer read as the bytes it holds, for Open MPI's dialect. Open MPI's bindings hand the C library
 * the memory of an array or NIO buffer whatever its element type, so {@code send(intArray, 8,
 * MPI.BYTE, ...)} sends the first 8 bytes of the ints, {@code recv(charBuffer, n, MPI.BYTE, ...)}
 * fills its first n bytes, and counts are in the datatype's units over the buffer's bytes. MPJ Lite
 * does the same in the Open MPI dialect (calls named in camel case: {@code send}, {@code iRecv}): the
 * bytes the call addresses are copied, in native byte order as Open MPI sees them, into a
 * {@link ByteBuffer} (which holds elements of any type) before a send, and a receive lands in such a
 * copy that is written back into the user's buffer once the receive completes. A buffer too small
 * for the count remains {@code MPI_ERR_BUFFER}. mpiJava's calls ({@code Send}, {@code Irecv}) keep
 * their strict typing ({@code MPI_ERR_TYPE}), as MPJ Express does; so do {@code boolean[]} and
 * object buffers, which have no byte layout in Java.
 *
 * <p>Confined to the calling rank's thread, or to the thread that completes the receive.
 */
final class Reinterpreted {
    private final Object user;
    private final int elements;
    /** The bytes of the user's buffer the call addresses, in native order. */
    final ByteBuffer bytes;

    private Reinterpreted(Object user, int elements, int elementSize) {
        this.user = user;
        this.elements = elements;
        this.bytes = ByteBuffer.allocate(elements * elementSize).order(ByteOrder.nativeOrder());
        copy(user, bytes, elements, true);
    }

    /**
     * The buffer a send of {@code count} items of {@code type} from {@code buf} uses: a copy of the
     * bytes it addresses when the call is Open MPI's and the buffer's element type is not the
     * datatype's, else {@code buf} itself.
     */
    static Object forSend(String call, Object buf, int offset, int count, Datatype type) {
        Reinterpreted r = of(call, buf, offset, count, type);
        return r == null ? buf : r.bytes;
    }

    /**
     * The copy a receive into {@code buf} lands in (write it back with {@link #writeBack()} once the
     * receive completes), or null when the receive uses {@code buf} itself.
     */
    static Reinterpreted forRecv(String call, Object buf, int offset, int count, Datatype type) {
        Reinterpreted r = of(call, buf, offset, count, type);
        if (r != null) {
            Check.writable(call, buf);
        }
        return r;
    }

    /** The buffer a receive uses: the copy, or the user's buffer. */
    static Object buffer(Reinterpreted r, Object buf) {
        return r == null ? buf : r.bytes;
    }

    /** Writes the received bytes back into the user's buffer. */
    void writeBack() {
        copy(user, bytes, elements, false);
    }

    /** Writes the received bytes back into the user's buffer, if the receive used a copy. */
    static void writeBack(Reinterpreted r) {
        if (r != null) {
            r.writeBack();
        }
    }

    /** True for a call of Open MPI's dialect, whose method names are camel case. */
    static boolean openMpi(String call) {
        return Character.isLowerCase(call.charAt(0));
    }

    private static Reinterpreted of(String call, Object buf, int offset, int count, Datatype type) {
        if (buf == null || type == null || type.map == null || offset != 0 || count <= 0 || !openMpi(call)
            || type.basic == BasicType.OBJECT || type.basic == BasicType.BOOLEAN || type.basic.capacityOf(buf) >= 0) {
            return null;
        }
        int elementSize = elementSize(buf);
        if (elementSize == 0) {
            return null;
        }
        int capacity = buf instanceof Buffer ? ((Buffer) buf).capacity() : java.lang.reflect.Array.getLength(buf);
        // Only the bytes the items reach are copied: a short message from a large buffer stays cheap.
        long reach = (long) (count - 1) * type.map.extent() + type.map.trueLb() + type.map.trueExtent();
        int elements = type.map.trueLb() < 0 || type.map.extent() < 0 ? capacity
            : (int) Math.min(capacity, (reach + elementSize - 1) / elementSize);
        return new Reinterpreted(buf, elements, elementSize);
    }

    /** Bytes per element of an array or typed NIO buffer of primitives; 0 for anything else. */
    static int elementSize(Object buf) {
        if (buf instanceof byte[]) {
            return 1;
        }
        if (buf instanceof char[] || buf instanceof short[] || buf instanceof CharBuffer || buf instanceof ShortBuffer) {
            return 2;
        }
        if (buf instanceof int[] || buf instanceof float[] || buf instanceof IntBuffer || buf instanceof FloatBuffer) {
            return 4;
        }
        if (buf instanceof long[] || buf instanceof double[] || buf instanceof LongBuffer
            || buf instanceof DoubleBuffer) {
            return 8;
        }
        return 0;
    }

    /**
     * Copies the first {@code n} elements of {@code user} into {@code bytes} ({@code in}) or back. NIO
     * buffers are addressed from index 0, whatever their position, as everywhere in MPJ Lite.
     */
    private static void copy(Object user, ByteBuffer bytes, int n, boolean in) {
        ByteBuffer b = bytes.duplicate().order(bytes.order()).clear();
        if (user instanceof byte[]) {
            if (in) {
                b.put((byte[]) user, 0, n);
            } else {
                b.get((byte[]) user, 0, n);
            }
        } else if (user instanceof char[]) {
            if (in) {
                b.asCharBuffer().put((char[]) user, 0, n);
            } else {
                b.asCharBuffer().get((char[]) user, 0, n);
            }
        } else if (user instanceof short[]) {
            if (in) {
                b.asShortBuffer().put((short[]) user, 0, n);
            } else {
                b.asShortBuffer().get((short[]) user, 0, n);
            }
        } else if (user instanceof int[]) {
            if (in) {
                b.asIntBuffer().put((int[]) user, 0, n);
            } else {
                b.asIntBuffer().get((int[]) user, 0, n);
            }
        } else if (user instanceof float[]) {
            if (in) {
                b.asFloatBuffer().put((float[]) user, 0, n);
            } else {
                b.asFloatBuffer().get((float[]) user, 0, n);
            }
        } else if (user instanceof long[]) {
            if (in) {
                b.asLongBuffer().put((long[]) user, 0, n);
            } else {
                b.asLongBuffer().get((long[]) user, 0, n);
            }
        } else if (user instanceof double[]) {
            if (in) {
                b.asDoubleBuffer().put((double[]) user, 0, n);
            } else {
                b.asDoubleBuffer().get((double[]) user, 0, n);
            }
        } else {
            copyBuffer((Buffer) user, b, n, in);
        }
    }

    private static void copyBuffer(Buffer user, ByteBuffer b, int n, boolean in) {
        Buffer u = window(user, n);
        if (u instanceof CharBuffer) {
            CharBuffer v = b.asCharBuffer();
            if (in) {
                v.put((CharBuffer) u);
            } else {
                ((CharBuffer) u).put(v.limit(n));
            }
        } else if (u instanceof ShortBuffer) {
            ShortBuffer v = b.asShortBuffer();
            if (in) {
                v.put((ShortBuffer) u);
            } else {
                ((ShortBuffer) u).put(v.limit(n));
            }
        } else if (u instanceof IntBuffer) {
            IntBuffer v = b.asIntBuffer();
            if (in) {
                v.put((IntBuffer) u);
            } else {
                ((IntBuffer) u).put(v.limit(n));
            }
        } else if (u instanceof FloatBuffer) {
            FloatBuffer v = b.asFloatBuffer();
            if (in) {
                v.put((FloatBuffer) u);
            } else {
                ((FloatBuffer) u).put(v.limit(n));
            }
        } else if (u instanceof LongBuffer) {
            LongBuffer v = b.asLongBuffer();
            if (in) {
                v.put((LongBuffer) u);
            } else {
                ((LongBuffer) u).put(v.limit(n));
            }
        } else {
            DoubleBuffer v = b.asDoubleBuffer();
            if (in) {
                v.put((DoubleBuffer) u);
            } else {
                ((DoubleBuffer) u).put(v.limit(n));
            }
        }
    }

    /** Elements 0..n-1 of a typed NIO buffer, as a buffer of its own (the user's position untouched). */
    private static Buffer window(Buffer user, int n) {
        Buffer d;
        if (user instanceof CharBuffer) {
            d = ((CharBuffer) user).duplicate();
        } else if (user instanceof ShortBuffer) {
            d = ((ShortBuffer) user).duplicate();
        } else if (user instanceof IntBuffer) {
            d = ((IntBuffer) user).duplicate();
        } else if (user instanceof FloatBuffer) {
            d = ((FloatBuffer) user).duplicate();
        } else if (user instanceof LongBuffer) {
            d = ((LongBuffer) user).duplicate();
        } else {
            d = ((DoubleBuffer) user).duplicate();
        }
        return d.clear().limit(n);
    }
}
