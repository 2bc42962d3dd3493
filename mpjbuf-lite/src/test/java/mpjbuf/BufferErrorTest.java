package mpjbuf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.Serializable;
import java.nio.BufferOverflowException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BufferErrorTest
{
    static Stream<BufferFactory> factories()
    {
        return Factories.all().stream();
    }

    @ParameterizedTest
    @MethodSource("factories")
    void negativeOrOversizedRequestsAreRejected(final BufferFactory factory)
    {
        assertMessage(IllegalArgumentException.class, () -> factory.getBuffer(-1), "-1");
        assertMessage(IllegalArgumentException.class, () -> factory.getBuffer(BufferFactory.MAX_CAPACITY + 1),
            String.valueOf(BufferFactory.MAX_CAPACITY + 1));
        assertDoesNotThrow(() -> factory.getBuffer(0).free());
    }

    @Test
    void badRegionSizesAreRejected()
    {
        assertThrows(IllegalArgumentException.class, () -> BufferFactory.create(PoolStrategy.BUDDY1,
            StorageKind.HEAP, 3000));
        assertThrows(IllegalArgumentException.class, () -> BufferFactory.create(PoolStrategy.BUDDY2,
            StorageKind.HEAP, 32));
        assertThrows(IllegalArgumentException.class, () -> Buffer.sectionBytes(Type.INT, -1));
        assertThrows(IllegalArgumentException.class, () -> Buffer.sectionBytes(Type.LONG, Integer.MAX_VALUE));
    }

    @ParameterizedTest
    @MethodSource("factories")
    void doubleFreeIsDetected(final BufferFactory factory)
    {
        final Buffer buffer = factory.getBuffer(100);
        buffer.free();
        assertMessage(IllegalStateException.class, buffer::free, "double free");
        assertMessage(IllegalStateException.class, () -> factory.destroyBuffer(buffer), "double free");
    }

    @ParameterizedTest
    @MethodSource("factories")
    void useAfterFreeIsDetected(final BufferFactory factory)
    {
        final Buffer buffer = factory.getBuffer(100);
        buffer.putSectionHeader(Type.INT);
        buffer.free();
        final Executable[] uses = {
            () -> buffer.putSectionHeader(Type.INT),
            () -> buffer.write(new int[1], 0, 1),
            () -> buffer.write(new byte[1], 0, 1),
            () -> buffer.commit(),
            () -> buffer.getSectionHeader(),
            () -> buffer.getSectionSize(),
            () -> buffer.read(new int[1], 0, 1),
            () -> buffer.capacity(),
            () -> buffer.clear(),
            () -> buffer.setEncoding(ByteOrder.BIG_ENDIAN),
            () -> buffer.getEncoding(),
        };
        for (final Executable use : uses)
        {
            assertMessage(IllegalStateException.class, use, "freed");
        }
    }

    @Test
    void buffersBelongToTheirFactory()
    {
        final BufferFactory one = BufferFactory.create(PoolStrategy.BUDDY1, StorageKind.HEAP, 1 << 16);
        final BufferFactory other = BufferFactory.create(PoolStrategy.BUDDY1, StorageKind.HEAP, 1 << 16);
        final Buffer buffer = one.getBuffer(10);
        assertMessage(IllegalArgumentException.class, () -> other.destroyBuffer(buffer), "another factory");
        buffer.free();
    }

    @ParameterizedTest
    @MethodSource("factories")
    void readingASectionAsTheWrongTypeNamesBothTypes(final BufferFactory factory)
    {
        final Buffer buffer = factory.getBuffer(64);
        buffer.putSectionHeader(Type.INT);
        buffer.write(new int[]{1, 2}, 0, 2);
        buffer.commit();
        buffer.getSectionHeader();
        final Throwable thrown = assertThrows(IllegalStateException.class, () -> buffer.read(new long[2], 0, 2));
        assertTrue(thrown.getMessage().contains("LONG") && thrown.getMessage().contains("INT"), thrown.getMessage());
        assertThrows(IllegalStateException.class, () -> buffer.read(new byte[2], 0, 2));
        assertThrows(IllegalStateException.class, () -> buffer.read(new Object[2], 0, 2));
        assertThrows(IllegalStateException.class, () -> buffer.scatter(new float[2], new int[]{0, 1}, 0, 2));
        buffer.free();
    }

    @ParameterizedTest
    @MethodSource("factories")
    void writingTheWrongTypeOrWithoutSectionNamesTheProblem(final BufferFactory factory)
    {
        final Buffer buffer = factory.getBuffer(64);
        assertMessage(IllegalStateException.class, () -> buffer.write(new int[1], 0, 1), "putSectionHeader(INT)");
        buffer.putSectionHeader(Type.SHORT);
        final Throwable thrown = assertThrows(IllegalStateException.class, () -> buffer.write(new char[1], 0, 1));
        assertTrue(thrown.getMessage().contains("CHAR") && thrown.getMessage().contains("SHORT"), thrown.getMessage());
        assertThrows(IllegalStateException.class, () -> buffer.write(new Object[1], 0, 1));
        assertThrows(IllegalStateException.class, () -> buffer.gather(new double[1], new int[]{0}, 0, 1));
        assertThrows(IllegalStateException.class, () -> buffer.read(new short[1], 0, 1));
        assertThrows(IllegalStateException.class, buffer::getSectionHeader);
        buffer.free();
    }

    @ParameterizedTest
    @MethodSource("factories")
    void readingPastTheEndUnderflows(final BufferFactory factory)
    {
        final Buffer buffer = factory.getBuffer(64);
        buffer.putSectionHeader(Type.DOUBLE);
        buffer.write(new double[]{1, 2, 3}, 0, 3);
        buffer.commit();
        assertMessage(IllegalStateException.class, () -> buffer.read(new double[1], 0, 1), "getSectionHeader()");
        buffer.getSectionHeader();
        buffer.read(new double[2], 0, 2);
        final Throwable thrown = assertThrows(BufferUnderflowException.class, () -> buffer.read(new double[2], 0, 2));
        assertTrue(thrown.getMessage().contains("1 of 3 left"), thrown.getMessage());
        assertMessage(UnderflowException.class, buffer::getSectionHeader, "no further section");
        assertMessage(IllegalStateException.class, () -> buffer.write(new double[1], 0, 1), "clear()");
        buffer.free();
    }

    @ParameterizedTest
    @MethodSource("factories")
    void writingPastTheCapacityOverflowsAndWritesNothing(final BufferFactory factory)
    {
        final Buffer buffer = factory.getBuffer(Buffer.sectionBytes(Type.INT, 3));
        buffer.putSectionHeader(Type.INT);
        buffer.write(new int[]{1, 2}, 0, 2);
        final Throwable thrown = assertThrows(BufferOverflowException.class, () -> buffer.write(new int[3], 0, 3));
        assertTrue(thrown.getMessage().contains("capacity is 24"), thrown.getMessage());
        assertEquals(2, buffer.getSectionSize());
        buffer.write(new int[]{3}, 0, 1);
        assertThrows(OverflowException.class, () -> buffer.putSectionHeader(Type.BYTE));
        buffer.commit();
        buffer.getSectionHeader();
        assertEquals(3, buffer.getSectionSize());
        buffer.free();
    }

    @ParameterizedTest
    @MethodSource("factories")
    void badArgumentsLeaveTheBufferUnchanged(final BufferFactory factory)
    {
        final Buffer buffer = factory.getBuffer(256);
        buffer.putSectionHeader(Type.LONG);
        assertThrows(IndexOutOfBoundsException.class, () -> buffer.write(new long[2], 1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> buffer.gather(new long[2], new int[]{0, 5}, 0, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> buffer.gather(new long[2], new int[]{0}, 0, 2));
        assertThrows(IllegalArgumentException.class, () -> buffer.write(new long[2], 0, -1));
        assertThrows(IndexOutOfBoundsException.class,
            () -> buffer.write(ByteBuffer.allocate(16).asLongBuffer(), 1, 2));
        assertEquals(0, buffer.getSectionSize());
        buffer.putSectionHeader(Type.OBJECT);
        final Object[] objects = {"fine", new Object()};
        assertMessage(IllegalArgumentException.class, () -> buffer.write(objects, 0, 2), "java.lang.Object");
        buffer.write(new Object[]{new Serializable()
        {
        }.getClass().getName()}, 0, 1);
        assertEquals(1, buffer.getSectionSize());
        buffer.commit();
        buffer.getSectionHeader();
        buffer.getSectionHeader();
        final Object[] read = new Object[1];
        buffer.read(read, 0, 1);
        assertTrue(((String)read[0]).startsWith(BufferErrorTest.class.getName()));
        buffer.free();
    }

    @ParameterizedTest
    @MethodSource("factories")
    void classMissingFromTheReadersLoaderIsReported(final BufferFactory factory)
    {
        final Buffer buffer = factory.getBuffer(64);
        buffer.putSectionHeader(Type.OBJECT);
        buffer.write(new Object[]{new BufferRoundTripTest.Payload(1)}, 0, 1);
        buffer.commit();
        buffer.getSectionHeader();
        final ClassLoader bootstrapOnly = new ClassLoader(null)
        {
        };
        assertMessage(IllegalStateException.class, () -> buffer.read(new Object[1], 0, 1, bootstrapOnly),
            BufferRoundTripTest.Payload.class.getName());
        buffer.free();
    }

    private static void assertMessage(final Class<? extends Throwable> type, final Executable executable,
        final String fragment)
    {
        final Throwable thrown = assertThrows(type, executable);
        assertTrue(thrown.getMessage() != null && thrown.getMessage().contains(fragment),
            () -> "message '" + thrown.getMessage() + "' lacks '" + fragment + "'");
    }
}
