package mpjbuf;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.InputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class BufferRoundTripTest
{
    static Stream<BufferFactory> factories()
    {
        return Factories.all().stream();
    }

    static Stream<Object[]> factoriesAndOrders()
    {
        return Factories.all().stream().flatMap(factory -> Stream.of(
            new Object[]{factory, ByteOrder.BIG_ENDIAN}, new Object[]{factory, ByteOrder.LITTLE_ENDIAN}));
    }

    @ParameterizedTest
    @MethodSource("factoriesAndOrders")
    void everyPrimitiveTypeRoundTripsInOneBufferOfMixedSections(final BufferFactory factory, final ByteOrder order)
    {
        final Random random = new Random(42);
        final int n = 37;
        final byte[] bytes = new byte[n];
        random.nextBytes(bytes);
        final char[] chars = new char[n];
        final short[] shorts = new short[n];
        final boolean[] booleans = new boolean[n];
        final int[] ints = new int[n];
        final long[] longs = new long[n];
        final float[] floats = new float[n];
        final double[] doubles = new double[n];
        for (int i = 0; i < n; i++)
        {
            chars[i] = (char)random.nextInt();
            shorts[i] = (short)random.nextInt();
            booleans[i] = random.nextBoolean();
            ints[i] = random.nextInt();
            longs[i] = random.nextLong();
            floats[i] = random.nextFloat();
            doubles[i] = random.nextDouble();
        }
        int capacity = 0;
        for (final Type type : Type.values())
        {
            capacity += Buffer.sectionBytes(type, n);
        }

        final Buffer buffer = factory.getBuffer(capacity);
        buffer.setEncoding(order);
        buffer.putSectionHeader(Type.BYTE);
        buffer.write(bytes, 0, 10);
        buffer.write(bytes, 10, n - 10);
        buffer.putSectionHeader(Type.CHAR);
        buffer.write(chars, 0, n);
        buffer.putSectionHeader(Type.SHORT);
        buffer.write(shorts, 0, n);
        buffer.putSectionHeader(Type.BOOLEAN);
        buffer.write(booleans, 0, n);
        buffer.putSectionHeader(Type.INT);
        buffer.write(ints, 0, n);
        buffer.putSectionHeader(Type.LONG);
        buffer.write(longs, 0, n);
        buffer.putSectionHeader(Type.FLOAT);
        buffer.write(floats, 0, n);
        buffer.putSectionHeader(Type.DOUBLE);
        buffer.write(doubles, 0, n);
        assertEquals(n, buffer.getSectionSize());
        buffer.commit();

        assertEquals(Type.BYTE, buffer.getSectionHeader());
        assertEquals(n, buffer.getSectionSize());
        final byte[] bytesRead = new byte[n];
        buffer.read(bytesRead, 0, 3);
        buffer.read(bytesRead, 3, n - 3);
        assertArrayEquals(bytes, bytesRead);
        assertEquals(Type.CHAR, buffer.getSectionHeader());
        final char[] charsRead = new char[n];
        buffer.read(charsRead, 0, n);
        assertArrayEquals(chars, charsRead);
        assertEquals(Type.SHORT, buffer.getSectionHeader());
        final short[] shortsRead = new short[n];
        buffer.read(shortsRead, 0, n);
        assertArrayEquals(shorts, shortsRead);
        assertEquals(Type.BOOLEAN, buffer.getSectionHeader());
        final boolean[] booleansRead = new boolean[n];
        buffer.read(booleansRead, 0, n);
        assertArrayEquals(booleans, booleansRead);
        assertEquals(Type.INT, buffer.getSectionHeader());
        final int[] intsRead = new int[n];
        buffer.read(intsRead, 0, n);
        assertArrayEquals(ints, intsRead);
        assertEquals(Type.LONG, buffer.getSectionHeader());
        final long[] longsRead = new long[n];
        buffer.read(longsRead, 0, n);
        assertArrayEquals(longs, longsRead);
        assertEquals(Type.FLOAT, buffer.getSectionHeader());
        final float[] floatsRead = new float[n];
        buffer.read(floatsRead, 0, n);
        assertArrayEquals(floats, floatsRead);
        assertEquals(Type.DOUBLE, buffer.getSectionHeader());
        final double[] doublesRead = new double[n];
        buffer.read(doublesRead, 0, n);
        assertArrayEquals(doubles, doublesRead);
        buffer.free();
    }

    @ParameterizedTest
    @MethodSource("factoriesAndOrders")
    void encodingDecidesTheByteOrderInStorage(final BufferFactory factory, final ByteOrder order)
    {
        final Buffer buffer = factory.getBuffer(Buffer.sectionBytes(Type.INT, 1));
        buffer.setEncoding(order);
        assertEquals(order, buffer.getEncoding());
        buffer.putSectionHeader(Type.INT);
        buffer.write(new int[]{0x01020304}, 0, 1);
        buffer.commit();
        final ByteBuffer raw = buffer.storage.views(ByteOrder.BIG_ENDIAN).bytes;
        final byte[] stored = new byte[4];
        raw.get(Buffer.SECTION_HEADER_BYTES, stored);
        final byte[] expected = order == ByteOrder.BIG_ENDIAN ? new byte[]{1, 2, 3, 4} : new byte[]{4, 3, 2, 1};
        assertArrayEquals(expected, stored);
        buffer.free();
    }

    @ParameterizedTest
    @MethodSource("factories")
    void freshBufferIsNativeOrderAndEmpty(final BufferFactory factory)
    {
        final Buffer buffer = factory.getBuffer(100);
        assertEquals(ByteOrder.nativeOrder(), buffer.getEncoding());
        assertEquals(100, buffer.capacity());
        assertEquals(0, buffer.size());
        buffer.setEncoding(ByteOrder.BIG_ENDIAN);
        buffer.free();
        final Buffer reused = factory.getBuffer(100);
        assertEquals(ByteOrder.nativeOrder(), reused.getEncoding());
        reused.free();
    }

    @ParameterizedTest
    @MethodSource("factoriesAndOrders")
    void gatherAndScatterEveryPrimitiveType(final BufferFactory factory, final ByteOrder order)
    {
        final int[] indexes = {-1, 7, 0, 3, 3, 9, 5};
        final int idxOff = 1;
        final int n = indexes.length - idxOff;
        final Buffer buffer = factory.getBuffer(8 * Buffer.sectionBytes(Type.LONG, n));
        buffer.setEncoding(order);
        final byte[] bytes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        final char[] chars = "abcdefghij".toCharArray();
        final short[] shorts = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
        final boolean[] booleans = {true, false, true, true, false, false, true, false, true, true};
        final int[] ints = {20, 21, 22, 23, 24, 25, 26, 27, 28, 29};
        final long[] longs = {30, 31, 32, 33, 34, 35, 36, 37, 38, 39};
        final float[] floats = {40, 41, 42, 43, 44, 45, 46, 47, 48, 49};
        final double[] doubles = {50, 51, 52, 53, 54, 55, 56, 57, 58, 59};
        buffer.putSectionHeader(Type.BYTE);
        buffer.gather(bytes, indexes, idxOff, n);
        buffer.putSectionHeader(Type.CHAR);
        buffer.gather(chars, indexes, idxOff, n);
        buffer.putSectionHeader(Type.SHORT);
        buffer.gather(shorts, indexes, idxOff, n);
        buffer.putSectionHeader(Type.BOOLEAN);
        buffer.gather(booleans, indexes, idxOff, n);
        buffer.putSectionHeader(Type.INT);
        buffer.gather(ints, indexes, idxOff, n);
        buffer.putSectionHeader(Type.LONG);
        buffer.gather(longs, indexes, idxOff, n);
        buffer.putSectionHeader(Type.FLOAT);
        buffer.gather(floats, indexes, idxOff, n);
        buffer.putSectionHeader(Type.DOUBLE);
        buffer.gather(doubles, indexes, idxOff, n);
        buffer.commit();

        // Gathered elements arrive contiguous; scattering them to the same indexes rebuilds the selected elements.
        buffer.getSectionHeader();
        final byte[] contiguous = new byte[n];
        buffer.read(contiguous, 0, n);
        assertArrayEquals(new byte[]{7, 0, 3, 3, 9, 5}, contiguous);
        buffer.commit();

        buffer.getSectionHeader();
        final byte[] bytesOut = new byte[10];
        buffer.scatter(bytesOut, indexes, idxOff, n);
        buffer.getSectionHeader();
        final char[] charsOut = new char[10];
        buffer.scatter(charsOut, indexes, idxOff, n);
        buffer.getSectionHeader();
        final short[] shortsOut = new short[10];
        buffer.scatter(shortsOut, indexes, idxOff, n);
        buffer.getSectionHeader();
        final boolean[] booleansOut = new boolean[10];
        buffer.scatter(booleansOut, indexes, idxOff, n);
        buffer.getSectionHeader();
        final int[] intsOut = new int[10];
        buffer.scatter(intsOut, indexes, idxOff, n);
        buffer.getSectionHeader();
        final long[] longsOut = new long[10];
        buffer.scatter(longsOut, indexes, idxOff, n);
        buffer.getSectionHeader();
        final float[] floatsOut = new float[10];
        buffer.scatter(floatsOut, indexes, idxOff, n);
        buffer.getSectionHeader();
        final double[] doublesOut = new double[10];
        buffer.scatter(doublesOut, indexes, idxOff, n);
        for (final int i : new int[]{0, 3, 5, 7, 9})
        {
            assertEquals(bytes[i], bytesOut[i]);
            assertEquals(chars[i], charsOut[i]);
            assertEquals(shorts[i], shortsOut[i]);
            assertEquals(booleans[i], booleansOut[i]);
            assertEquals(ints[i], intsOut[i]);
            assertEquals(longs[i], longsOut[i]);
            assertEquals(floats[i], floatsOut[i]);
            assertEquals(doubles[i], doublesOut[i]);
        }
        for (final int i : new int[]{1, 2, 4, 6, 8})
        {
            assertEquals(0, intsOut[i]);
            assertEquals(0.0, doublesOut[i]);
        }
        buffer.free();
    }

    @ParameterizedTest
    @MethodSource("factoriesAndOrders")
    void nioVariantsUseAbsoluteIndexesAndLeaveSourceStateAlone(final BufferFactory factory, final ByteOrder order)
    {
        final Buffer buffer = factory.getBuffer(7 * Buffer.sectionBytes(Type.LONG, 4));
        buffer.setEncoding(order);
        final ByteOrder other = order == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        // Source views in the opposite order: elements are transferred by value, not by byte image.
        final ByteBuffer src = ByteBuffer.allocateDirect(64).order(other);
        for (int i = 0; i < 64; i++)
        {
            src.put(i, (byte)i);
        }
        src.position(5).limit(20);
        buffer.putSectionHeader(Type.BYTE);
        buffer.write(src, 30, 4);
        buffer.putSectionHeader(Type.CHAR);
        buffer.write(src.duplicate().clear().order(other).asCharBuffer(), 3, 4);
        buffer.putSectionHeader(Type.SHORT);
        buffer.write(src.duplicate().clear().order(other).asShortBuffer(), 3, 4);
        buffer.putSectionHeader(Type.INT);
        buffer.write(src.duplicate().clear().order(other).asIntBuffer(), 2, 4);
        buffer.putSectionHeader(Type.LONG);
        buffer.write(src.duplicate().clear().order(other).asLongBuffer(), 1, 4);
        buffer.putSectionHeader(Type.FLOAT);
        buffer.write(src.duplicate().clear().order(other).asFloatBuffer(), 2, 4);
        buffer.putSectionHeader(Type.DOUBLE);
        buffer.write(src.duplicate().clear().order(other).asDoubleBuffer(), 1, 4);
        assertEquals(5, src.position());
        assertEquals(20, src.limit());
        buffer.commit();

        final ByteBuffer dst = ByteBuffer.allocate(128).order(other);
        dst.position(7).limit(9);
        buffer.getSectionHeader();
        buffer.read(dst, 40, 4);
        assertEquals(7, dst.position());
        assertEquals(9, dst.limit());
        final ByteBuffer whole = dst.duplicate().clear().order(other);
        for (int i = 0; i < 4; i++)
        {
            assertEquals(30 + i, whole.get(40 + i));
        }
        final ByteBuffer source = src.duplicate().clear().order(other);
        final java.nio.CharBuffer chars = ByteBuffer.allocate(64).order(other).asCharBuffer();
        final java.nio.ShortBuffer shorts = ByteBuffer.allocateDirect(64).order(other).asShortBuffer();
        final java.nio.IntBuffer ints = ByteBuffer.allocate(64).order(other).asIntBuffer();
        final java.nio.LongBuffer longs = ByteBuffer.allocateDirect(64).order(other).asLongBuffer();
        longs.limit(1);
        buffer.getSectionHeader();
        buffer.read(chars, 10, 4);
        buffer.getSectionHeader();
        buffer.read(shorts, 20, 4);
        buffer.getSectionHeader();
        buffer.read(ints, 8, 4);
        buffer.getSectionHeader();
        buffer.read(longs, 1, 4);
        assertEquals(1, longs.limit());
        longs.clear();
        for (int i = 0; i < 4; i++)
        {
            assertEquals(source.asCharBuffer().get(3 + i), chars.get(10 + i));
            assertEquals(source.asShortBuffer().get(3 + i), shorts.get(20 + i));
            assertEquals(source.asIntBuffer().get(2 + i), ints.get(8 + i));
            assertEquals(source.asLongBuffer().get(1 + i), longs.get(1 + i));
        }

        final ByteBuffer floatsAndDoubles = ByteBuffer.allocateDirect(128).order(other);
        buffer.getSectionHeader();
        buffer.read(floatsAndDoubles.asFloatBuffer(), 3, 4);
        buffer.getSectionHeader();
        buffer.read(floatsAndDoubles.asDoubleBuffer(), 8, 4);
        for (int i = 0; i < 4; i++)
        {
            assertEquals(source.asFloatBuffer().get(2 + i), floatsAndDoubles.asFloatBuffer().get(3 + i));
            assertEquals(source.asDoubleBuffer().get(1 + i), floatsAndDoubles.asDoubleBuffer().get(8 + i));
        }
        buffer.free();
    }

    @ParameterizedTest
    @MethodSource("factories")
    void objectsRoundTripAroundPrimitiveSections(final BufferFactory factory)
    {
        final Buffer buffer = factory.getBuffer(64);
        buffer.putSectionHeader(Type.OBJECT);
        buffer.write(new Object[]{"a", 1, null}, 0, 3);
        buffer.write(new Object[]{List.of(1, 2), new Point(3, 4)}, 0, 2);
        buffer.putSectionHeader(Type.INT);
        buffer.write(new int[]{7, 8}, 0, 2);
        buffer.putSectionHeader(Type.OBJECT);
        buffer.write(new Object[]{new int[]{5, 6}, "z"}, 0, 2);
        buffer.commit();

        assertEquals(Type.OBJECT, buffer.getSectionHeader());
        assertEquals(5, buffer.getSectionSize());
        final Object[] first = new Object[6];
        buffer.read(first, 1, 4);
        assertEquals(Arrays.asList(null, "a", 1, null, List.of(1, 2), null), Arrays.asList(first));
        // The fifth object is skipped unread; the following sections are still found.
        assertEquals(Type.INT, buffer.getSectionHeader());
        final int[] ints = new int[2];
        buffer.read(ints, 0, 2);
        assertArrayEquals(new int[]{7, 8}, ints);
        assertEquals(Type.OBJECT, buffer.getSectionHeader());
        final Object[] second = new Object[2];
        buffer.read(second, 0, 2);
        assertArrayEquals(new int[]{5, 6}, (int[])second[0]);
        assertEquals("z", second[1]);

        buffer.commit();
        buffer.getSectionHeader();
        final Object[] again = new Object[5];
        buffer.read(again, 0, 5);
        assertEquals(new Point(3, 4), again[4]);
        buffer.free();
    }

    @ParameterizedTest
    @MethodSource("factories")
    void objectsResolveInTheClassLoaderGivenToRead(final BufferFactory factory) throws Exception
    {
        final ClassLoader isolated = new ChildFirstLoader(Payload.class.getName(), getClass().getClassLoader());
        final Class<?> isolatedPayload = isolated.loadClass(Payload.class.getName());
        assertNotSame(Payload.class, isolatedPayload);
        final Object sent = isolatedPayload.getConstructor(int.class).newInstance(99);

        final Buffer buffer = factory.getBuffer(64);
        buffer.putSectionHeader(Type.OBJECT);
        // Two writes, two independent serialization streams: the second copy is not a back-reference to the first.
        buffer.write(new Object[]{sent}, 0, 1);
        buffer.write(new Object[]{sent}, 0, 1);
        buffer.commit();

        buffer.getSectionHeader();
        final Object[] received = new Object[1];
        buffer.read(received, 0, 1, isolated);
        assertSame(isolatedPayload, received[0].getClass());
        assertEquals(sent.toString(), received[0].toString());
        buffer.read(received, 0, 1, getClass().getClassLoader());
        assertSame(Payload.class, received[0].getClass());
        assertEquals(99, ((Payload)received[0]).value);

        buffer.commit();
        buffer.getSectionHeader();
        final Thread thread = Thread.currentThread();
        final ClassLoader context = thread.getContextClassLoader();
        thread.setContextClassLoader(isolated);
        try
        {
            buffer.read(received, 0, 1);
            assertSame(isolatedPayload, received[0].getClass());
        }
        finally
        {
            thread.setContextClassLoader(context);
        }
        buffer.free();
    }

    @ParameterizedTest
    @MethodSource("factories")
    void eagerMessageOfEightBytesReusesBlocks(final BufferFactory factory)
    {
        final byte[] message = {1, 2, 3, 4, 5, 6, 7, 8};
        final byte[] received = new byte[8];
        for (int i = 0; i < 1000; i++)
        {
            final Buffer buffer = factory.getBuffer(Buffer.sectionBytes(Type.BYTE, 8));
            buffer.putSectionHeader(Type.BYTE);
            buffer.write(message, 0, 8);
            buffer.commit();
            assertEquals(Type.BYTE, buffer.getSectionHeader());
            buffer.read(received, 0, 8);
            factory.destroyBuffer(buffer);
        }
        assertArrayEquals(message, received);
        assertEquals(factory.strategy() == PoolStrategy.UNPOOLED ? 0 : 1, factory.regionCount());
    }

    @ParameterizedTest
    @MethodSource("factories")
    void clearMakesACommittedBufferWritableAgain(final BufferFactory factory)
    {
        final Buffer buffer = factory.getBuffer(Buffer.sectionBytes(Type.LONG, 2));
        buffer.putSectionHeader(Type.LONG);
        buffer.write(new long[]{1, 2}, 0, 2);
        buffer.commit();
        buffer.clear();
        buffer.putSectionHeader(Type.DOUBLE);
        buffer.write(new double[]{3, 4}, 0, 2);
        buffer.commit();
        assertEquals(Type.DOUBLE, buffer.getSectionHeader());
        final double[] read = new double[2];
        buffer.read(read, 0, 2);
        assertArrayEquals(new double[]{3, 4}, read);
        assertThrows(UnderflowException.class, buffer::getSectionHeader);
        buffer.free();
    }

    /** Serializable value loaded a second time by {@link ChildFirstLoader}. */
    public static final class Payload implements Serializable
    {
        private static final long serialVersionUID = 1L;

        final int value;

        public Payload(final int value)
        {
            this.value = value;
        }

        public String toString()
        {
            return "Payload(" + value + ")";
        }
    }

    record Point(int x, int y) implements Serializable
    {
    }

    /** Defines one class itself from the parent's class file, so that it differs from the parent's copy. */
    static final class ChildFirstLoader extends ClassLoader
    {
        private final String isolatedName;

        ChildFirstLoader(final String isolatedName, final ClassLoader parent)
        {
            super(parent);
            this.isolatedName = isolatedName;
        }

        protected Class<?> loadClass(final String name, final boolean resolve) throws ClassNotFoundException
        {
            if (!name.equals(isolatedName))
            {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name))
            {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null)
                {
                    try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class"))
                    {
                        final byte[] code = in.readAllBytes();
                        loaded = defineClass(name, code, 0, code.length);
                    }
                    catch (final java.io.IOException ex)
                    {
                        throw new ClassNotFoundException(name, ex);
                    }
                }
                return loaded;
            }
        }
    }

    @ParameterizedTest
    @MethodSource("factories")
    void aLookaheadWalksTheSectionsAheadAndReadsNothing(final BufferFactory factory)
    {
        final Buffer b = factory.getBuffer(256);
        b.putSectionHeader(Type.INT);
        b.write(new int[]{1, 2, 3}, 0, 3);
        b.putSectionHeader(Type.OBJECT);
        b.write(new Object[]{"x"}, 0, 1);
        b.putSectionHeader(Type.DOUBLE);
        b.write(new double[]{2.5}, 0, 1);
        b.commit();
        final Buffer.Lookahead fromStart = b.lookahead();
        assertEquals(Type.INT, fromStart.nextSection());
        assertEquals(3, fromStart.sectionSize());
        assertEquals(Type.OBJECT, fromStart.nextSection());
        assertEquals(1, fromStart.sectionSize());
        assertEquals(Type.DOUBLE, fromStart.nextSection());
        assertThrows(UnderflowException.class, fromStart::nextSection);
        assertEquals(0, b.position(), "looking reads nothing");
        assertEquals(Type.INT, b.getSectionHeader());
        final int[] one = new int[1];
        b.read(one, 0, 1);
        final Buffer.Lookahead afterOne = b.lookahead();
        assertEquals(Type.OBJECT, afterOne.nextSection(), "from the section after the current one");
        final int[] rest = new int[2];
        b.read(rest, 0, 2);
        assertArrayEquals(new int[]{2, 3}, rest, "the current section is read on where it was");
        assertEquals(Type.OBJECT, b.getSectionHeader());
        assertEquals(Type.DOUBLE, b.getSectionHeader());
        b.free();
    }
}
