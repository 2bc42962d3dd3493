package mpjbuf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        factory.trimDepot();
        assertEquals(factory.regionCount(), factory.freeBlocks().size());
    }

    /** Runs {@code task} on a thread of its own (so with a thread cache of its own) and returns its result. */
    private static <T> T onThread(final Supplier<T> task) throws Exception
    {
        final ExecutorService thread = Executors.newSingleThreadExecutor();
        try
        {
            return thread.submit(task::get).get(10, TimeUnit.SECONDS);
        }
        finally
        {
            thread.shutdown();
        }
    }

    private static List<Buffer> allocate(final BufferFactory factory, final int n, final int bytes)
    {
        final List<Buffer> buffers = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            buffers.add(factory.getBuffer(bytes));
        }
        return buffers;
    }

    private static int reused(final List<Buffer> again, final List<Buffer> freed)
    {
        final Set<Buffer> before = Collections.newSetFromMap(new IdentityHashMap<>());
        before.addAll(freed);
        return (int)again.stream().filter(before::contains).count();
    }

    /**
     * A one-way stream: one thread allocates a window of buffers, another frees them, and the first allocates the next
     * window. The freeing thread's cache keeps {@value BufferFactory#THREAD_CACHE_DEPTH}, and the rest reach the
     * allocating thread through the depot, whole (the same {@code Buffer} objects, so not through the pool).
     */
    @ParameterizedTest
    @EnumSource(value = PoolStrategy.class, names = {"BUDDY1", "BUDDY2"})
    void aOneWayStreamPassesFreedBuffersToTheSenderThroughTheDepot(final PoolStrategy strategy) throws Exception
    {
        final BufferFactory factory = BufferFactory.create(strategy, StorageKind.HEAP, 1 << 20);
        final int window = 64;
        final int bytes = 2048 + Buffer.SECTION_HEADER_BYTES;
        final List<Buffer> first = onThread(() -> allocate(factory, window, bytes));
        onThread(() ->
        {
            first.forEach(Buffer::free);
            return null;
        });
        final List<Buffer> second = onThread(() -> allocate(factory, window, bytes));
        assertEquals(window - BufferFactory.THREAD_CACHE_DEPTH, reused(second, first));
        for (final Buffer b : second)
        {
            b.putSectionHeader(Type.BYTE);
            b.write(new byte[2048], 0, 2048);
            b.commit();
            assertEquals(Type.BYTE, b.getSectionHeader());
            assertEquals(2048, b.getSectionSize());
        }
    }

    /** A size class parks at most its capacity; past that a freed buffer goes back to the pool. */
    @Test
    void theDepotParksAtMostItsCapacityPerSizeClass() throws Exception
    {
        final int region = BufferFactory.DEFAULT_REGION_BYTES;
        assertEquals(Depot.MAX_BUFFERS, Depot.capacity(BufferFactory.levelOf(2048), region));
        assertEquals(Depot.MAX_BYTES / (64 << 10), Depot.capacity(BufferFactory.levelOf(64 << 10), region));
        assertEquals(Depot.MIN_BUFFERS, Depot.capacity(BufferFactory.levelOf(1 << 20), region));
        assertEquals(4, Depot.capacity(BufferFactory.levelOf(1024), 4096), "a region's worth");
        assertEquals(2, Depot.capacity(BufferFactory.levelOf(4096), 4096), "never below two");
        final BufferFactory factory = BufferFactory.create(PoolStrategy.BUDDY1, StorageKind.DIRECT, 1 << 20);
        final int capacity = Depot.capacity(0, 1 << 20);
        final int freed = BufferFactory.THREAD_CACHE_DEPTH + capacity + 10;
        final List<Buffer> first = onThread(() ->
        {
            final List<Buffer> buffers = allocate(factory, freed, 64);
            buffers.forEach(Buffer::free);
            return buffers;
        });
        final List<Buffer> second = onThread(() -> allocate(factory, capacity + 10, 64));
        assertEquals(capacity, reused(second, first), "buffers taken from the depot");
        assertTrue(second.subList(capacity, capacity + 10).stream().noneMatch(first::contains),
            "past the depot's capacity buffers come from the pool");
    }
}
