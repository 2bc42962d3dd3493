package org.mpjlite.smpdev.data;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * Copies elements of one {@link BasicType} between user buffers (arrays and NIO buffers, absolute
 * element indexes) with the JDK's bulk paths: {@code System.arraycopy} between arrays, absolute bulk
 * {@code get}/{@code put} (memcpy underneath) when a NIO buffer is involved, and element by element
 * for short runs between an array and a ByteBuffer. A {@link ByteBuffer} carrying a wider type is
 * read and written as that type in its own byte order. A few bytes move eight at a time
 * ({@link #FEW_BYTES}).
 *
 * <p>Stateless; thread-safe.
 */
public final class Copier {
    private Copier() {
    }

    public static void copy(Object src, int srcIndex, Object dst, int dstIndex, int n, BasicType type) {
        // Bytes between a byte array and a ByteBuffer, and elements between two ByteBuffers of one
        // byte order: a small message into a ring cell or a receive line and out of it, a small
        // reduction's contribution into its line. Decided here, in few enough bytecodes for the
        // compiler to inline this method into the message path; putBytes, getBytes and copyBytes
        // move a few bytes as longs and hand longer runs to the buffers' bulk copies.
        if (type == BasicType.BYTE) {
            if (src instanceof byte[] from && dst instanceof ByteBuffer to && (long) dstIndex + n <= to.limit()) {
                putBytes(to, dstIndex, from, srcIndex, n);
                return;
            }
            if (dst instanceof byte[] to && src instanceof ByteBuffer from && (long) srcIndex + n <= from.limit()) {
                getBytes(from, srcIndex, to, dstIndex, n);
                return;
            }
        }
        if (src instanceof ByteBuffer from && dst instanceof ByteBuffer to
            && isSameOrderRun(from, srcIndex, to, dstIndex, n, type)) {
            copyBytes(from, srcIndex * type.size(), to, dstIndex * type.size(), n * type.size());
            return;
        }
        copyAny(src, srcIndex, dst, dstIndex, n, type);
    }

    /** {@link #copy}'s general case: every copy its short paths do not take. */
    private static void copyAny(Object src, int srcIndex, Object dst, int dstIndex, int n, BasicType type) {
        if (n == 0) {
            return;
        }
        boolean srcArray = !(src instanceof Buffer);
        boolean dstArray = !(dst instanceof Buffer);
        if (srcArray && dstArray) {
            System.arraycopy(src, srcIndex, dst, dstIndex, n);
        } else if (srcArray && dst instanceof ByteBuffer && isShortRun((ByteBuffer) dst, dstIndex, n, type)) {
            putElements((ByteBuffer) dst, dstIndex * type.size(), src, srcIndex, n, type);
        } else if (dstArray && src instanceof ByteBuffer && isShortRun((ByteBuffer) src, srcIndex, n, type)) {
            getElements((ByteBuffer) src, srcIndex * type.size(), dst, dstIndex, n, type);
        } else if (dst instanceof ByteBuffer d && isTypedRun(src, srcIndex, n) && isShortRun(d, dstIndex, n, type)) {
            putTyped(d, dstIndex * type.size(), (Buffer) src, srcIndex, n, type);
        } else if (src instanceof ByteBuffer s && isTypedRun(dst, dstIndex, n) && isShortRun(s, srcIndex, n, type)) {
            getTyped(s, srcIndex * type.size(), (Buffer) dst, dstIndex, n, type);
        } else if (src instanceof ByteBuffer s && dst instanceof ByteBuffer d && type != BasicType.BOOLEAN
            && isShortRun(s, srcIndex, n, type) && isShortRun(d, dstIndex, n, type)) {
            copyReordered(s, srcIndex * type.size(), d, dstIndex * type.size(), n, type.size());
        } else if (type == BasicType.BOOLEAN) {
            copyBooleans(srcArray ? src : view((Buffer) src, type), srcIndex,
                dstArray ? dst : view((Buffer) dst, type), dstIndex, n);
        } else if (srcArray) {
            put(viewOf((Buffer) dst, dstIndex, n, type), dstIndex, src, srcIndex, n);
        } else if (dstArray) {
            get(viewOf((Buffer) src, srcIndex, n, type), srcIndex, dst, dstIndex, n);
        } else {
            putBuffer(viewOf((Buffer) dst, dstIndex, n, type), dstIndex, viewOf((Buffer) src, srcIndex, n, type),
                srcIndex, n);
        }
    }

    /**
     * The buffer to copy {@code n} elements at element {@code index} of {@code b} through: a typed
     * buffer ({@code FloatBuffer}...) itself when the run lies within its limit, where its absolute
     * bulk access reaches, so that a small reduction or message into it makes no view object; else
     * {@link #view}.
     */
    private static Buffer viewOf(Buffer b, int index, int n, BasicType type) {
        return !(b instanceof ByteBuffer) && (long) index + n <= b.limit() ? b : view(b, type);
    }

    /**
     * True when {@code n} elements at element {@code index} of a ByteBuffer move between it and an
     * array element by element, without a typed view (whose two objects would be most of the cost of
     * a small message or a small reduction): a short run (any run of bytes, which have absolute bulk
     * access) that lies within the buffer's limit, since absolute access stops there while messages
     * address the whole capacity.
     */
    private static boolean isShortRun(ByteBuffer b, int index, int n, BasicType type) {
        int size = type.size();
        return (size == 1 && type != BasicType.BOOLEAN || n <= SHORT_RUN) && (long) (index + n) * size <= b.limit();
    }

    /**
     * True when {@code n} elements move between two ByteBuffers as their bytes, without typed views:
     * bytes, or both buffers in the same byte order (booleans aside, whose bytes are normalized), and both runs lie
     * within the buffers' limits (absolute bulk access stops there).
     */
    private static boolean isSameOrderRun(ByteBuffer src, int srcIndex, ByteBuffer dst, int dstIndex, int n,
                                          BasicType type) {
        int size = type.size();
        return type != BasicType.BOOLEAN && (size == 1 || src.order() == dst.order())
            && (long) (srcIndex + n) * size <= src.limit() && (long) (dstIndex + n) * size <= dst.limit();
    }

    /**
     * True when {@code b} is a typed buffer ({@code FloatBuffer}...), not a ByteBuffer, and {@code n}
     * elements from {@code index} lie within its limit, where its absolute access reaches: a short
     * run of them moves between it and a ByteBuffer element by element ({@link #putTyped},
     * {@link #getTyped}), without the ByteBuffer's typed view, as a small reduction from such a
     * buffer into the epoch lines does, and a small message out of a cell or a receive line into
     * one (the view and its duplicate were two objects per message).
     */
    private static boolean isTypedRun(Object b, int index, int n) {
        return b instanceof Buffer t && !(t instanceof ByteBuffer) && n <= SHORT_RUN && (long) index + n <= t.limit();
    }

    /** Stores {@code n} elements of the typed buffer {@code src} from element {@code off} at byte {@code at} of {@code b}. */
    private static void putTyped(ByteBuffer b, int at, Buffer src, int off, int n, BasicType type) {
        switch (type) {
            case CHAR -> {
                CharBuffer t = (CharBuffer) src;
                for (int i = 0; i < n; i++) {
                    b.putChar(at + 2 * i, t.get(off + i));
                }
            }
            case SHORT -> {
                ShortBuffer t = (ShortBuffer) src;
                for (int i = 0; i < n; i++) {
                    b.putShort(at + 2 * i, t.get(off + i));
                }
            }
            case INT -> {
                IntBuffer t = (IntBuffer) src;
                for (int i = 0; i < n; i++) {
                    b.putInt(at + 4 * i, t.get(off + i));
                }
            }
            case LONG -> {
                LongBuffer t = (LongBuffer) src;
                for (int i = 0; i < n; i++) {
                    b.putLong(at + 8 * i, t.get(off + i));
                }
            }
            case FLOAT -> {
                FloatBuffer t = (FloatBuffer) src;
                for (int i = 0; i < n; i++) {
                    b.putFloat(at + 4 * i, t.get(off + i));
                }
            }
            case DOUBLE -> {
                DoubleBuffer t = (DoubleBuffer) src;
                for (int i = 0; i < n; i++) {
                    b.putDouble(at + 8 * i, t.get(off + i));
                }
            }
            default -> throw new IllegalArgumentException(type + " elements do not live in a " + src.getClass().getSimpleName());
        }
    }

    /** Loads {@code n} elements at byte {@code at} of {@code b} into the typed buffer {@code dst} from element {@code off}. */
    private static void getTyped(ByteBuffer b, int at, Buffer dst, int off, int n, BasicType type) {
        switch (type) {
            case CHAR -> {
                CharBuffer t = (CharBuffer) dst;
                for (int i = 0; i < n; i++) {
                    t.put(off + i, b.getChar(at + 2 * i));
                }
            }
            case SHORT -> {
                ShortBuffer t = (ShortBuffer) dst;
                for (int i = 0; i < n; i++) {
                    t.put(off + i, b.getShort(at + 2 * i));
                }
            }
            case INT -> {
                IntBuffer t = (IntBuffer) dst;
                for (int i = 0; i < n; i++) {
                    t.put(off + i, b.getInt(at + 4 * i));
                }
            }
            case LONG -> {
                LongBuffer t = (LongBuffer) dst;
                for (int i = 0; i < n; i++) {
                    t.put(off + i, b.getLong(at + 8 * i));
                }
            }
            case FLOAT -> {
                FloatBuffer t = (FloatBuffer) dst;
                for (int i = 0; i < n; i++) {
                    t.put(off + i, b.getFloat(at + 4 * i));
                }
            }
            case DOUBLE -> {
                DoubleBuffer t = (DoubleBuffer) dst;
                for (int i = 0; i < n; i++) {
                    t.put(off + i, b.getDouble(at + 8 * i));
                }
            }
            default -> throw new IllegalArgumentException(type + " elements do not live in a " + dst.getClass().getSimpleName());
        }
    }

    /**
     * Elements of a type wider than a byte up to which {@link #isShortRun} copies one by one. One of
     * the device's two thresholds outside {@code org.mpjlite.smpdev.Tunables}, which lists them
     * (the other is {@link #FEW_BYTES}): this package uses nothing of the runtime.
     */
    private static final int SHORT_RUN = 32;

    /**
     * Bytes up to which a run between a ByteBuffer and a byte array (or another ByteBuffer of the
     * same byte order) moves as longs and then single bytes, not through the buffer's absolute bulk
     * {@code get}/{@code put}, whose memory-access checks and copy call cost more than the copy of a
     * small message: a stream of 8-byte messages through the device, both sides on one thread, took
     * 0.84–0.89× the time. A long moves the bytes unchanged when it is read and written in one byte
     * order, and reversed between the two when the buffers' orders differ (a buffer from
     * {@code ByteBuffer.allocateDirect} is big-endian, the device's own native-order): 8 bytes out
     * of such a buffer into a native-order one and back took 6.0–6.2 ns, against 7.5–8.1 through
     * the bulk copies (3.8 between native-order buffers).
     */
    static final int FEW_BYTES = 64;
    private static final VarHandle ARRAY_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
        ByteOrder.nativeOrder());

    /** Stores {@code n} bytes of {@code src} from {@code off} at byte {@code at} of {@code b}. */
    private static void putBytes(ByteBuffer b, int at, byte[] src, int off, int n) {
        if (n > FEW_BYTES) {
            b.put(at, src, off, n);
            return;
        }
        boolean swap = b.order() != ByteOrder.nativeOrder();
        int i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            long bytes = (long) ARRAY_LONGS.get(src, off + i);
            b.putLong(at + i, swap ? Long.reverseBytes(bytes) : bytes);
        }
        for (; i < n; i++) {
            b.put(at + i, src[off + i]);
        }
    }

    /** Loads {@code n} bytes at byte {@code at} of {@code b} into {@code dst} from {@code off}. */
    private static void getBytes(ByteBuffer b, int at, byte[] dst, int off, int n) {
        if (n > FEW_BYTES) {
            b.get(at, dst, off, n);
            return;
        }
        boolean swap = b.order() != ByteOrder.nativeOrder();
        int i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            long bytes = b.getLong(at + i);
            ARRAY_LONGS.set(dst, off + i, swap ? Long.reverseBytes(bytes) : bytes);
        }
        for (; i < n; i++) {
            dst[off + i] = b.get(at + i);
        }
    }

    /**
     * Copies {@code n} bytes from byte {@code from} of {@code src} to byte {@code to} of {@code dst};
     * within one buffer through the bulk put, which copies overlapping runs as if through a
     * temporary.
     */
    private static void copyBytes(ByteBuffer src, int from, ByteBuffer dst, int to, int n) {
        if (n > FEW_BYTES || src == dst) {
            dst.put(to, src, from, n);
            return;
        }
        boolean swap = src.order() != dst.order();
        int i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            long bytes = src.getLong(from + i);
            dst.putLong(to + i, swap ? Long.reverseBytes(bytes) : bytes);
        }
        for (; i < n; i++) {
            dst.put(to + i, src.get(from + i));
        }
    }

    /**
     * Copies {@code n} elements of {@code size} bytes from byte {@code from} of {@code src} to byte
     * {@code to} of {@code dst}, buffers of different byte orders: each element read in its
     * buffer's order and written in the other's, as whole integers of its size, so that every bit
     * pattern (a NaN's too) arrives unchanged. A short run of doubles from a big-endian buffer (what
     * {@code ByteBuffer.allocateDirect} makes) into a cell or a line, or out of one, went through two
     * typed views of two duplicates each way: 480 B and 1.9 µs per round trip of a ping-pong.
     */
    private static void copyReordered(ByteBuffer src, int from, ByteBuffer dst, int to, int n, int size) {
        switch (size) {
            case Long.BYTES -> {
                for (int i = 0; i < n; i++) {
                    dst.putLong(to + 8 * i, src.getLong(from + 8 * i));
                }
            }
            case Integer.BYTES -> {
                for (int i = 0; i < n; i++) {
                    dst.putInt(to + 4 * i, src.getInt(from + 4 * i));
                }
            }
            case Short.BYTES -> {
                for (int i = 0; i < n; i++) {
                    dst.putShort(to + 2 * i, src.getShort(from + 2 * i));
                }
            }
            default -> copyBytes(src, from, dst, to, n * size);
        }
    }

    /** Stores elements of the array {@code src} at byte {@code at} of {@code b}, in {@code b}'s byte order. */
    private static void putElements(ByteBuffer b, int at, Object src, int off, int n, BasicType type) {
        switch (type) {
            case BYTE, PACKED -> putBytes(b, at, (byte[]) src, off, n);
            case BOOLEAN -> {
                boolean[] a = (boolean[]) src;
                for (int i = 0; i < n; i++) {
                    b.put(at + i, a[off + i] ? (byte) 1 : 0);
                }
            }
            case CHAR -> {
                char[] a = (char[]) src;
                for (int i = 0; i < n; i++) {
                    b.putChar(at + 2 * i, a[off + i]);
                }
            }
            case SHORT -> {
                short[] a = (short[]) src;
                for (int i = 0; i < n; i++) {
                    b.putShort(at + 2 * i, a[off + i]);
                }
            }
            case INT -> {
                int[] a = (int[]) src;
                for (int i = 0; i < n; i++) {
                    b.putInt(at + 4 * i, a[off + i]);
                }
            }
            case LONG -> {
                long[] a = (long[]) src;
                for (int i = 0; i < n; i++) {
                    b.putLong(at + 8 * i, a[off + i]);
                }
            }
            case FLOAT -> {
                float[] a = (float[]) src;
                for (int i = 0; i < n; i++) {
                    b.putFloat(at + 4 * i, a[off + i]);
                }
            }
            case DOUBLE -> {
                double[] a = (double[]) src;
                for (int i = 0; i < n; i++) {
                    b.putDouble(at + 8 * i, a[off + i]);
                }
            }
            default -> throw new IllegalArgumentException(type + " elements do not live in a ByteBuffer");
        }
    }

    /** Loads elements into the array {@code dst} from byte {@code at} of {@code b}, in {@code b}'s byte order. */
    private static void getElements(ByteBuffer b, int at, Object dst, int off, int n, BasicType type) {
        switch (type) {
            case BYTE, PACKED -> getBytes(b, at, (byte[]) dst, off, n);
            case BOOLEAN -> {
                boolean[] a = (boolean[]) dst;
                for (int i = 0; i < n; i++) {
                    a[off + i] = b.get(at + i) != 0;
                }
            }
            case CHAR -> {
                char[] a = (char[]) dst;
                for (int i = 0; i < n; i++) {
                    a[off + i] = b.getChar(at + 2 * i);
                }
            }
            case SHORT -> {
                short[] a = (short[]) dst;
                for (int i = 0; i < n; i++) {
                    a[off + i] = b.getShort(at + 2 * i);
                }
            }
            case INT -> {
                int[] a = (int[]) dst;
                for (int i = 0; i < n; i++) {
                    a[off + i] = b.getInt(at + 4 * i);
                }
            }
            case LONG -> {
                long[] a = (long[]) dst;
                for (int i = 0; i < n; i++) {
                    a[off + i] = b.getLong(at + 8 * i);
                }
            }
            case FLOAT -> {
                float[] a = (float[]) dst;
                for (int i = 0; i < n; i++) {
                    a[off + i] = b.getFloat(at + 4 * i);
                }
            }
            case DOUBLE -> {
                double[] a = (double[]) dst;
                for (int i = 0; i < n; i++) {
                    a[off + i] = b.getDouble(at + 8 * i);
                }
            }
            default -> throw new IllegalArgumentException(type + " elements do not live in a ByteBuffer");
        }
    }

    /**
     * The buffer as a typed view spanning its whole capacity, index 0 first: position and limit of
     * the user's buffer are neither used nor changed. Public for the device's own buffers, which
     * keep their views rather than have a copy make one.
     */
    public static Buffer view(Buffer b, BasicType type) {
        if (b instanceof ByteBuffer) {
            ByteBuffer bb = (ByteBuffer) b;
            ByteBuffer d = bb.duplicate().order(bb.order());
            d.clear();
            switch (type) {
                case CHAR:
                    return d.asCharBuffer();
                case SHORT:
                    return d.asShortBuffer();
                case INT:
                    return d.asIntBuffer();
                case LONG:
                    return d.asLongBuffer();
                case FLOAT:
                    return d.asFloatBuffer();
                case DOUBLE:
                    return d.asDoubleBuffer();
                default:
                    return d;
            }
        }
        Buffer d = duplicate(b);
        d.clear();
        return d;
    }

    private static Buffer duplicate(Buffer b) {
        if (b instanceof CharBuffer) {
            return ((CharBuffer) b).duplicate();
        } else if (b instanceof ShortBuffer) {
            return ((ShortBuffer) b).duplicate();
        } else if (b instanceof IntBuffer) {
            return ((IntBuffer) b).duplicate();
        } else if (b instanceof LongBuffer) {
            return ((LongBuffer) b).duplicate();
        } else if (b instanceof FloatBuffer) {
            return ((FloatBuffer) b).duplicate();
        } else if (b instanceof DoubleBuffer) {
            return ((DoubleBuffer) b).duplicate();
        }
        throw new IllegalArgumentException("unsupported buffer " + b.getClass().getName());
    }

    private static void put(Buffer dst, int index, Object src, int off, int n) {
        if (dst instanceof ByteBuffer) {
            ((ByteBuffer) dst).put(index, (byte[]) src, off, n);
        } else if (dst instanceof CharBuffer) {
            ((CharBuffer) dst).put(index, (char[]) src, off, n);
        } else if (dst instanceof ShortBuffer) {
            ((ShortBuffer) dst).put(index, (short[]) src, off, n);
        } else if (dst instanceof IntBuffer) {
            ((IntBuffer) dst).put(index, (int[]) src, off, n);
        } else if (dst instanceof LongBuffer) {
            ((LongBuffer) dst).put(index, (long[]) src, off, n);
        } else if (dst instanceof FloatBuffer) {
            ((FloatBuffer) dst).put(index, (float[]) src, off, n);
        } else {
            ((DoubleBuffer) dst).put(index, (double[]) src, off, n);
        }
    }

    private static void get(Buffer src, int index, Object dst, int off, int n) {
        if (src instanceof ByteBuffer) {
            ((ByteBuffer) src).get(index, (byte[]) dst, off, n);
        } else if (src instanceof CharBuffer) {
            ((CharBuffer) src).get(index, (char[]) dst, off, n);
        } else if (src instanceof ShortBuffer) {
            ((ShortBuffer) src).get(index, (short[]) dst, off, n);
        } else if (src instanceof IntBuffer) {
            ((IntBuffer) src).get(index, (int[]) dst, off, n);
        } else if (src instanceof LongBuffer) {
            ((LongBuffer) src).get(index, (long[]) dst, off, n);
        } else if (src instanceof FloatBuffer) {
            ((FloatBuffer) src).get(index, (float[]) dst, off, n);
        } else {
            ((DoubleBuffer) src).get(index, (double[]) dst, off, n);
        }
    }

    private static void putBuffer(Buffer dst, int dstIndex, Buffer src, int srcIndex, int n) {
        if (dst instanceof ByteBuffer) {
            ((ByteBuffer) dst).put(dstIndex, (ByteBuffer) src, srcIndex, n);
        } else if (dst instanceof CharBuffer) {
            ((CharBuffer) dst).put(dstIndex, (CharBuffer) src, srcIndex, n);
        } else if (dst instanceof ShortBuffer) {
            ((ShortBuffer) dst).put(dstIndex, (ShortBuffer) src, srcIndex, n);
        } else if (dst instanceof IntBuffer) {
            ((IntBuffer) dst).put(dstIndex, (IntBuffer) src, srcIndex, n);
        } else if (dst instanceof LongBuffer) {
            ((LongBuffer) dst).put(dstIndex, (LongBuffer) src, srcIndex, n);
        } else if (dst instanceof FloatBuffer) {
            ((FloatBuffer) dst).put(dstIndex, (FloatBuffer) src, srcIndex, n);
        } else {
            ((DoubleBuffer) dst).put(dstIndex, (DoubleBuffer) src, srcIndex, n);
        }
    }

    /** Booleans in a ByteBuffer (a full-capacity view) are one byte each: 0 is false, else true. */
    private static void copyBooleans(Object src, int srcIndex, Object dst, int dstIndex, int n) {
        if (src instanceof boolean[]) {
            boolean[] s = (boolean[]) src;
            ByteBuffer d = (ByteBuffer) dst;
            for (int i = 0; i < n; i++) {
                d.put(dstIndex + i, s[srcIndex + i] ? (byte) 1 : (byte) 0);
            }
        } else if (dst instanceof boolean[]) {
            ByteBuffer s = (ByteBuffer) src;
            boolean[] d = (boolean[]) dst;
            for (int i = 0; i < n; i++) {
                d[dstIndex + i] = s.get(srcIndex + i) != 0;
            }
        } else {
            ((ByteBuffer) dst).put(dstIndex, (ByteBuffer) src, srcIndex, n);
        }
    }
}
