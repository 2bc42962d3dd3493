package mpjbuf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

class BufferFactoryTest
{
    static Stream<Factories.Named> combinations()
    {
        return Stream.of(PoolStrategy.values()).flatMap(strategy ->
            Stream.of(StorageKind.values()).map(storage -> new Factories.Named(strategy, storage)));
    }

    @ParameterizedTest
    @MethodSource("combinations")
    void sixteenMebibytesAndMoreWorkWithDefaultRegions(final Factories.Named named)
    {
        final BufferFactory factory = BufferFactory.create(named.strategy(), named.storage());
        assertEquals(named.strategy(), factory.strategy());
        assertEquals(named.storage(), factory.storageKind());
        for (final int bytes : new int[]{16 << 20, (16 << 20) + 1})
        {
            final int n = (bytes - Buffer.SECTION_HEADER_BYTES) / 8;
            final Buffer buffer = factory.getBuffer(bytes);
            buffer.putSectionHeader(Type.LONG);
            final long[] values = new long[n];
            values[n - 1] = 42;
            buffer.write(values, 0, n);
            buffer.commit();
            buffer.getSectionHeader();
            final long[] read = new long[n];
            buffer.read(read, 0, n);
            assertEquals(42, read[n - 1]);
            buffer.free();
        }
        // The region-sized request was pooled; the larger one fell back to its own allocation.
        assertEquals(named.strategy() == PoolStrategy.UNPOOLED ? 0 : 1, factory.regionCount());
    }

    @ParameterizedTest
    @EnumSource(value = PoolStrategy.class, names = {"BUDDY1", "BUDDY2"})
    void smallBuffersComeBackFromTheThreadCache(final PoolStrategy strategy)
    {
        final BufferFactory factory = BufferFactory.create(strategy, StorageKind.DIRECT, 1 << 16);
        final Buffer first = factory.getBuffer(8);
        first.free();
        assertSame(first, factory.getBuffer(16));
        first.free();
        factory.releaseThreadCache();
        assertEquals(1, factory.freeBlocks().size());
        assertEquals(1, factory.regionCount());
    }

    @Test
    void unpooledBuffersAreNeverReused()
    {
        final BufferFactory factory = BufferFactory.create(PoolStrategy.UNPOOLED, StorageKind.HEAP);
        final Buffer first = factory.getBuffer(8);
        first.free();
        assertNotSame(first, factory.getBuffer(8));
        assertEquals(0, factory.regionCount());
    }

    @ParameterizedTest
    @MethodSource("combinations")
    void receiverFreesWhatTheSenderAllocated(final Factories.Named named) throws Exception
    {
        final BufferFactory factory = named.factory();
        final BlockingQueue<Buffer> toReceiver = new ArrayBlockingQueue<>(16);
        final BlockingQueue<Buffer> toSender = new ArrayBlockingQueue<>(16);
        final int messages = 20_000;
        final Thread receiver = new Thread(() ->
        {
            final int[] value = new int[1];
            try
            {
                for (int i = 0; i < messages; i++)
                {
                    final Buffer message = toReceiver.take();
                    message.getSectionHeader();
                    message.read(value, 0, 1);
                    if (value[0] != i)
                    {
                        throw new AssertionError("message " + i + " carried " + value[0]);
                    }
                    message.free();
                    final Buffer reply = factory.getBuffer(Buffer.sectionBytes(Type.INT, 1));
                    reply.putSectionHeader(Type.INT);
                    reply.write(value, 0, 1);
                    reply.commit();
                    toSender.put(reply);
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            finally
            {
                factory.releaseThreadCache();
            }
        });
        receiver.start();
        final int[] value = new int[1];
        for (int i = 0; i < messages; i++)
        {
            final Buffer message = factory.getBuffer(Buffer.sectionBytes(Type.INT, 1) + (i % 3) * 1000);
            message.putSectionHeader(Type.INT);
            message.write(new int[]{i}, 0, 1);
            message.commit();
            toReceiver.put(message);
            final Buffer reply = toSender.take();
            reply.getSectionHeader();
            reply.read(value, 0, 1);
            assertEquals(i, value[0]);
            reply.free();
        }
        receiver.join();
        factory.releaseThreadCache();
        assertEquals(factory.regionCount(), factory.freeBlocks().size());
    }
}
