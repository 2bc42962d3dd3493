package org.mpjlite.smpdev.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Byte runs between arrays and ByteBuffers, below, at and above the length up to which they move
 * as longs ({@link Copier#FEW_BYTES}), at offsets that split the longs: every byte arrives, none
 * outside the run is touched, whatever the buffers' kinds and byte orders.
 */
class CopierTest {
    private static final int ROOM = Copier.FEW_BYTES + 24;

    static Stream<Arguments> buffers() {
        return Stream.of(
            Arguments.of("direct, native order", true, ByteOrder.nativeOrder()),
            Arguments.of("direct, big-endian", true, ByteOrder.BIG_ENDIAN),
            Arguments.of("direct, little-endian", true, ByteOrder.LITTLE_ENDIAN),
            Arguments.of("heap, native order", false, ByteOrder.nativeOrder()),
            Arguments.of("heap, big-endian", false, ByteOrder.BIG_ENDIAN));
    }

    private static ByteBuffer buffer(boolean direct, ByteOrder order) {
        ByteBuffer b = direct ? ByteBuffer.allocateDirect(ROOM) : ByteBuffer.allocate(ROOM);
        return b.order(order);
    }

    /** Bytes {@code seed}, {@code seed + 1}, ... (wrapping), distinct within any run. */
    private static byte[] pattern(int seed) {
        byte[] a = new byte[ROOM];
        for (int i = 0; i < a.length; i++) {
            a[i] = (byte) (seed + i);
        }
        return a;
    }

    private static byte[] contents(ByteBuffer b) {
        byte[] a = new byte[ROOM];
        b.get(0, a, 0, ROOM);
        return a;
    }

    /** What {@code before} becomes once {@code n} bytes of {@code from} at {@code src} land at {@code dst}. */
    private static byte[] expected(byte[] before, byte[] from, int src, int dst, int n) {
        byte[] e = before.clone();
        System.arraycopy(from, src, e, dst, n);
        return e;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("buffers")
    void arrayToBufferAndBack(String name, boolean direct, ByteOrder order) {
        for (int n = 0; n <= Copier.FEW_BYTES + 9; n++) {
            for (int off : new int[] {0, 1, 3, 8}) {
                byte[] src = pattern(7);
                ByteBuffer b = buffer(direct, order);
                b.put(0, pattern(100), 0, ROOM);
                byte[] before = contents(b);
                Copier.copy(src, off, b, 5, n, BasicType.BYTE);
                assertArrayEquals(expected(before, src, off, 5, n), contents(b),
                    name + ": " + n + " bytes from " + off);

                byte[] dst = pattern(50);
                Copier.copy(b, 5, dst, off + 2, n, BasicType.BYTE);
                assertArrayEquals(expected(pattern(50), contents(b), 5, off + 2, n), dst,
                    name + ": " + n + " bytes back to " + (off + 2));
            }
        }
    }

    /**
     * A buffer's limit decides only which path a short run takes (the element-wise one stops at
     * it): a run ending at the limit and one past it, within the capacity, both arrive whole and
     * touch nothing else, between an array and a buffer and between two buffers.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("buffers")
    void shortRunsAtAndPastTheLimit(String name, boolean direct, ByteOrder order) {
        for (int n = 1; n <= Copier.FEW_BYTES; n++) {
            for (int at : new int[] {5, 6}) {
                ByteBuffer b = buffer(direct, order);
                b.put(0, pattern(100), 0, ROOM);
                b.limit(5 + n);
                byte[] before = whole(b);
                Copier.copy(pattern(7), 1, b, at, n, BasicType.BYTE);
                assertArrayEquals(expected(before, pattern(7), 1, at, n), whole(b), name + ": " + n + " bytes to " + at);
                byte[] dst = pattern(50);
                Copier.copy(b, at, dst, 2, n, BasicType.BYTE);
                assertArrayEquals(expected(pattern(50), whole(b), at, 2, n), dst, name + ": " + n + " bytes from " + at);

                ByteBuffer other = buffer(!direct, order);
                other.put(0, pattern(200), 0, ROOM);
                other.limit(3 + n);
                byte[] otherBefore = whole(other);
                Copier.copy(b, at, other, at - 2, n, BasicType.BYTE);
                assertArrayEquals(expected(otherBefore, whole(b), at, at - 2, n), whole(other),
                    name + ": " + n + " bytes from " + at + " to another buffer's " + (at - 2));
            }
        }
    }

    /** All of {@code b}'s bytes, its limit aside. */
    private static byte[] whole(ByteBuffer b) {
        return contents(b.duplicate().clear());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("buffers")
    void bufferToBuffer(String name, boolean direct, ByteOrder order) {
        for (ByteOrder other : new ByteOrder[] {order, order == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN
            : ByteOrder.BIG_ENDIAN}) {
            for (int n = 0; n <= Copier.FEW_BYTES + 9; n++) {
                ByteBuffer src = buffer(direct, order);
                src.put(0, pattern(9), 0, ROOM);
                ByteBuffer dst = buffer(!direct, other);
                dst.put(0, pattern(200), 0, ROOM);
                byte[] before = contents(dst);
                Copier.copy(src, 3, dst, 6, n, BasicType.BYTE);
                assertArrayEquals(expected(before, pattern(9), 3, 6, n), contents(dst),
                    name + " to " + other + ": " + n + " bytes");
            }
        }
    }

    /** Wider elements between two buffers of one byte order move as their bytes; values survive. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("buffers")
    void intsBetweenBuffersOfOneOrder(String name, boolean direct, ByteOrder order) {
        ByteBuffer src = buffer(direct, order);
        for (int i = 0; i < ROOM / 4; i++) {
            src.putInt(4 * i, 0x01020304 * (i + 1));
        }
        for (int n = 0; n <= ROOM / 4 - 2; n++) {
            ByteBuffer dst = buffer(direct, order);
            Copier.copy(src, 1, dst, 2, n, BasicType.INT);
            for (int i = 0; i < n; i++) {
                assertEquals(0x01020304 * (i + 2), dst.getInt(4 * (2 + i)), name + ": element " + i + " of " + n);
            }
            assertEquals(0, dst.getInt(4), name + ": before the run");
            if (2 + n < ROOM / 4) {
                assertEquals(0, dst.getInt(4 * (2 + n)), name + ": after the run");
            }
        }
    }

    /**
     * Elements of a typed buffer ({@code LongBuffer}, {@code FloatBuffer}...) into a ByteBuffer of
     * either byte order, short runs element by element and longer ones through a view: every value
     * arrives, nothing outside the run is touched, and the typed buffer's position and limit stay.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("buffers")
    void typedBufferIntoByteBuffer(String name, boolean direct, ByteOrder order) {
        for (int n : new int[] {0, 1, 5, 32, 33}) {
            ByteBuffer floats = ByteBuffer.allocateDirect(4 * 40).order(ByteOrder.nativeOrder());
            java.nio.FloatBuffer f = floats.asFloatBuffer();
            for (int i = 0; i < 40; i++) {
                f.put(i, i + 0.25f);
            }
            f.limit(2 + n).position(Math.min(3, 2 + n));
            ByteBuffer dst = (direct ? ByteBuffer.allocateDirect(4 * 40) : ByteBuffer.allocate(4 * 40)).order(order);
            Copier.copy(f, 2, dst, 1, n, BasicType.FLOAT);
            for (int i = 0; i < n; i++) {
                assertEquals(i + 2.25f, dst.getFloat(4 * (1 + i)), name + ": float " + i + " of " + n);
            }
            assertEquals(0, dst.getInt(0), name + ": before the run");
            assertEquals(0, dst.getInt(4 * (1 + n)), name + ": after the run");
            assertEquals(Math.min(3, 2 + n), f.position(), name + ": position");
            assertEquals(2 + n, f.limit(), name + ": limit");

            java.nio.LongBuffer l = java.nio.LongBuffer.allocate(40);
            for (int i = 0; i < 40; i++) {
                l.put(i, 0x0102030405060708L * (i + 1));
            }
            ByteBuffer longs = (direct ? ByteBuffer.allocateDirect(8 * 40) : ByteBuffer.allocate(8 * 40)).order(order);
            Copier.copy(l, 4, longs, 2, n, BasicType.LONG);
            for (int i = 0; i < n; i++) {
                assertEquals(0x0102030405060708L * (i + 5), longs.getLong(8 * (2 + i)), name + ": long " + i + " of " + n);
            }
            assertEquals(0, longs.getLong(8), name + ": before the longs");
            assertEquals(0, longs.getLong(8 * (2 + n)), name + ": after the longs");
        }
    }

    /**
     * Elements of a ByteBuffer of either byte order into a typed buffer of each kind, as a small
     * message leaves a cell or a receive line for a {@code DoubleBuffer} or an {@code IntBuffer}:
     * short runs element by element and longer ones through a view, every value read in the
     * ByteBuffer's order, nothing outside the run touched, the typed buffer's position and limit
     * kept.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("buffers")
    void byteBufferIntoTypedBuffers(String name, boolean direct, ByteOrder order) {
        for (int n : new int[] {0, 1, 5, 32, 33}) {
            ByteBuffer src = (direct ? ByteBuffer.allocateDirect(8 * 40) : ByteBuffer.allocate(8 * 40)).order(order);
            for (int i = 0; i < 8 * 40; i++) {
                src.put(i, (byte) (3 * i + 1));
            }
            ByteBuffer expected = src.duplicate().order(order);
            for (BasicType type : new BasicType[] {BasicType.CHAR, BasicType.SHORT, BasicType.INT, BasicType.LONG,
                BasicType.FLOAT, BasicType.DOUBLE}) {
                int size = type.size();
                java.nio.Buffer dst = typedBuffer(type, 40, direct);
                dst.limit(3 + n).position(Math.min(4, 3 + n));
                Copier.copy(src, 2, dst, 3, n, type);
                java.nio.Buffer whole = dst.duplicate().clear();
                for (int i = 0; i < 40; i++) {
                    long want = i >= 3 && i < 3 + n ? bits(expected, size * (2 + i - 3), type) : 0;
                    assertEquals(want, bits(whole, i, type), name + ": " + type + " " + i + " of a run of " + n);
                }
                assertEquals(Math.min(4, 3 + n), dst.position(), name + ": " + type + " position");
                assertEquals(3 + n, dst.limit(), name + ": " + type + " limit");
            }
        }
    }

    /**
     * Wider elements between ByteBuffers of different byte orders (a big-endian one of
     * {@code ByteBuffer.allocateDirect} and a native-order cell or line): each element arrives as
     * the same value, its bit pattern unchanged (a NaN with a payload too), short runs element by
     * element and longer ones through views; nothing outside the run is touched.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("buffers")
    void elementsBetweenByteBuffersOfDifferentOrders(String name, boolean direct, ByteOrder order) {
        ByteOrder other = order == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        for (BasicType type : new BasicType[] {BasicType.CHAR, BasicType.SHORT, BasicType.INT, BasicType.LONG,
            BasicType.FLOAT, BasicType.DOUBLE}) {
            int size = type.size();
            for (int n : new int[] {0, 1, 5, 32, 33}) {
                ByteBuffer src = (direct ? ByteBuffer.allocateDirect(8 * 40) : ByteBuffer.allocate(8 * 40)).order(order);
                for (int i = 0; i < 40; i++) {
                    long value = 0x0102030405060708L * (i + 1);
                    switch (size) {
                        case 8 -> src.putLong(8 * i, i == 3 ? Double.doubleToRawLongBits(Double.NaN) | 5 : value);
                        case 4 -> src.putInt(4 * i, i == 3 ? Float.floatToRawIntBits(Float.NaN) | 5 : (int) value);
                        default -> src.putShort(2 * i, (short) value);
                    }
                }
                ByteBuffer dst = (direct ? ByteBuffer.allocate(8 * 40) : ByteBuffer.allocateDirect(8 * 40)).order(other);
                Copier.copy(src, 2, dst, 1, n, type);
                for (int i = 0; i < 40; i++) {
                    long want = i >= 1 && i < 1 + n ? bits(src, size * (i + 1), type) : 0;
                    assertEquals(want, bits(dst, size * i, type), name + " to " + other + ": " + n + " x " + type
                        + ", element " + i);
                }
            }
        }
    }

    /** A zeroed typed buffer of {@code type}'s kind with {@code n} elements, direct or on the heap. */
    private static java.nio.Buffer typedBuffer(BasicType type, int n, boolean direct) {
        ByteBuffer bytes = (direct ? ByteBuffer.allocateDirect(8 * n) : ByteBuffer.allocate(8 * n))
            .order(ByteOrder.nativeOrder());
        return switch (type) {
            case CHAR -> direct ? bytes.asCharBuffer() : java.nio.CharBuffer.allocate(n);
            case SHORT -> direct ? bytes.asShortBuffer() : java.nio.ShortBuffer.allocate(n);
            case INT -> direct ? bytes.asIntBuffer() : java.nio.IntBuffer.allocate(n);
            case LONG -> direct ? bytes.asLongBuffer() : java.nio.LongBuffer.allocate(n);
            case FLOAT -> direct ? bytes.asFloatBuffer() : java.nio.FloatBuffer.allocate(n);
            case DOUBLE -> direct ? bytes.asDoubleBuffer() : java.nio.DoubleBuffer.allocate(n);
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    /** Element {@code i} of the typed buffer {@code b}, as its bits. */
    private static long bits(java.nio.Buffer b, int i, BasicType type) {
        return switch (type) {
            case CHAR -> ((java.nio.CharBuffer) b).get(i);
            case SHORT -> ((java.nio.ShortBuffer) b).get(i);
            case INT -> ((java.nio.IntBuffer) b).get(i);
            case LONG -> ((java.nio.LongBuffer) b).get(i);
            case FLOAT -> Float.floatToRawIntBits(((java.nio.FloatBuffer) b).get(i));
            case DOUBLE -> Double.doubleToRawLongBits(((java.nio.DoubleBuffer) b).get(i));
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    /** The element of {@code type} at byte {@code at} of {@code b}, in {@code b}'s order, as its bits. */
    private static long bits(ByteBuffer b, int at, BasicType type) {
        return switch (type) {
            case CHAR -> b.getChar(at);
            case SHORT -> b.getShort(at);
            case INT -> b.getInt(at);
            case LONG -> b.getLong(at);
            case FLOAT -> Float.floatToRawIntBits(b.getFloat(at));
            case DOUBLE -> Double.doubleToRawLongBits(b.getDouble(at));
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    /** A run copied within one buffer onto an overlapping run arrives as it was before the copy. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("buffers")
    void overlappingRunsInOneBuffer(String name, boolean direct, ByteOrder order) {
        for (int shift : new int[] {-3, -1, 1, 5}) {
            ByteBuffer b = buffer(direct, order);
            b.put(0, pattern(1), 0, ROOM);
            byte[] before = contents(b);
            Copier.copy(b, 10, b, 10 + shift, 20, BasicType.BYTE);
            assertArrayEquals(expected(before, before, 10, 10 + shift, 20), contents(b), name + ": shift " + shift);
        }
    }
}
