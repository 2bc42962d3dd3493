package mpjbuf;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Random allocate/free sequences against the buddy pools, checking after every step that live blocks never overlap
 * and are aligned to their size class, and at the end that every region has coalesced back into one free block.
 */
class AllocatorPropertyTest
{
    private static final int REGION_BYTES = 1 << 20;
    private static final int THREADS = 4;
    private static final int STEPS_PER_THREAD = 20_000;
    private static final Map<Buffer, Long> STAMPS = new ConcurrentHashMap<>();

    static Stream<Factories.Named> pooled()
    {
        return Stream.of(PoolStrategy.BUDDY1, PoolStrategy.BUDDY2).flatMap(strategy ->
            Stream.of(StorageKind.HEAP, StorageKind.DIRECT).map(storage -> new Factories.Named(strategy, storage)));
    }

    @ParameterizedTest
    @MethodSource("pooled")
    void concurrentRandomAllocationsNeverOverlapAndFullyCoalesce(final Factories.Named named) throws Exception
    {
        final BufferFactory factory = named.factory();
        final LiveBlocks live = new LiveBlocks();
        final ConcurrentLinkedQueue<Buffer> handoff = new ConcurrentLinkedQueue<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++)
        {
            final long seed = 1000L * named.strategy().ordinal() + t;
            threads.add(new Thread(() ->
            {
                try
                {
                    start.await();
                    runRandomSteps(factory, live, handoff, new Random(seed));
                }
                catch (final Throwable ex)
                {
                    failure.compareAndSet(null, ex);
                }
                finally
                {
                    factory.releaseThreadCache();
                }
            }, "allocator-" + t));
        }
        threads.forEach(Thread::start);
        start.countDown();
        for (final Thread thread : threads)
        {
            thread.join();
        }
        assertNull(failure.get(), () -> "worker failed: " + failure.get());

        Buffer orphan;
        while ((orphan = handoff.poll()) != null)
        {
            free(factory, live, orphan);
        }
        factory.releaseThreadCache();
        factory.trimDepot();
        assertTrue(live.isEmpty());
        assertFullyCoalesced(factory);
    }

    @ParameterizedTest
    @MethodSource("pooled")
    void freeAndLiveBlocksTileEveryRegion(final Factories.Named named)
    {
        final BufferFactory factory = named.factory();
        final Random random = new Random(7);
        final List<Buffer> live = new ArrayList<>();
        for (int step = 0; step < 20_000; step++)
        {
            if (live.isEmpty() || (live.size() < 200 && random.nextInt(100) < 55))
            {
                live.add(factory.getBuffer(randomSize(random)));
            }
            else
            {
                factory.destroyBuffer(live.remove(random.nextInt(live.size())));
            }
            if (step % 1000 == 0)
            {
                factory.releaseThreadCache();
                factory.trimDepot();
                assertTiled(factory, live);
            }
        }
        live.forEach(factory::destroyBuffer);
        factory.releaseThreadCache();
        factory.trimDepot();
        assertFullyCoalesced(factory);
    }

    private static void runRandomSteps(
        final BufferFactory factory, final LiveBlocks live, final ConcurrentLinkedQueue<Buffer> handoff,
        final Random random)
    {
        final List<Buffer> mine = new ArrayList<>();
        for (int step = 0; step < STEPS_PER_THREAD; step++)
        {
            final int choice = random.nextInt(100);
            if (mine.isEmpty() || (mine.size() < 48 && choice < 50))
            {
                final Buffer buffer = factory.getBuffer(randomSize(random));
                live.add(buffer);
                stamp(buffer, random.nextLong());
                mine.add(buffer);
            }
            else if (choice < 65)
            {
                handoff.add(mine.remove(random.nextInt(mine.size())));
            }
            else if (choice < 80)
            {
                final Buffer received = handoff.poll();
                if (received != null)
                {
                    free(factory, live, received);
                }
            }
            else
            {
                free(factory, live, mine.remove(random.nextInt(mine.size())));
            }
        }
        mine.forEach(buffer -> free(factory, live, buffer));
    }

    /** Mostly eager-message sizes, sometimes up to the whole region. */
    private static int randomSize(final Random random)
    {
        return random.nextInt(4) == 0 ? random.nextInt(REGION_BYTES + 1) : random.nextInt(1 << random.nextInt(14));
    }

    /** Write a value that must survive until free: a block shared with another owner would clobber it. */
    private static void stamp(final Buffer buffer, final long value)
    {
        if (buffer.capacity() >= Buffer.sectionBytes(Type.LONG, 1))
        {
            buffer.putSectionHeader(Type.LONG);
            buffer.write(new long[]{value}, 0, 1);
            buffer.commit();
            STAMPS.put(buffer, value);
        }
    }

    private static void free(final BufferFactory factory, final LiveBlocks live, final Buffer buffer)
    {
        final Long expected = STAMPS.remove(buffer);
        if (expected != null)
        {
            buffer.commit();
            buffer.getSectionHeader();
            final long[] value = new long[1];
            buffer.read(value, 0, 1);
            assertEquals(expected, value[0], () -> "block contents changed while live: " + buffer);
        }
        live.remove(buffer);
        factory.destroyBuffer(buffer);
    }

    private static void assertFullyCoalesced(final BufferFactory factory)
    {
        final List<BlockPool.FreeBlock> free = factory.freeBlocks();
        assertEquals(factory.regionCount(), free.size(), () -> "free blocks left uncoalesced: " + free);
        for (final BlockPool.FreeBlock block : free)
        {
            assertEquals(0, block.offset(), block::toString);
            assertEquals(REGION_BYTES, block.bytes(), block::toString);
        }
    }

    private static void assertTiled(final BufferFactory factory, final List<Buffer> live)
    {
        final Map<Integer, List<int[]>> byRegion = new TreeMap<>();
        for (final BlockPool.FreeBlock block : factory.freeBlocks())
        {
            byRegion.computeIfAbsent(block.region(), r -> new ArrayList<>())
                .add(new int[]{block.offset(), block.bytes()});
        }
        for (final Buffer buffer : live)
        {
            if (buffer.region >= 0)
            {
                byRegion.computeIfAbsent(buffer.region, r -> new ArrayList<>()).add(
                    new int[]{buffer.blockIndex * BufferFactory.MIN_BLOCK_BYTES, blockBytes(buffer)});
            }
        }
        assertEquals(factory.regionCount(), byRegion.size());
        for (final List<int[]> blocks : byRegion.values())
        {
            blocks.sort(Comparator.comparingInt(block -> block[0]));
            int next = 0;
            for (final int[] block : blocks)
            {
                assertEquals(next, block[0], "gap or overlap in region");
                assertEquals(0, block[0] % block[1], "block not aligned to its size");
                next = block[0] + block[1];
            }
            assertEquals(REGION_BYTES, next);
        }
    }

    private static int blockBytes(final Buffer buffer)
    {
        return BufferFactory.MIN_BLOCK_BYTES << buffer.level;
    }

    /** Live pooled blocks per region as {@code offset -> end}; checks every insertion against its neighbours. */
    private static final class LiveBlocks
    {
        private final Map<Integer, TreeMap<Integer, Integer>> regions = new HashMap<>();

        synchronized void add(final Buffer buffer)
        {
            if (buffer.region < 0)
            {
                return;
            }
            final int bytes = blockBytes(buffer);
            final int offset = buffer.blockIndex * BufferFactory.MIN_BLOCK_BYTES;
            assertTrue(bytes >= buffer.capacity(), "block smaller than requested");
            assertEquals(0, offset % bytes, "block not aligned to its size class");
            final TreeMap<Integer, Integer> blocks = regions.computeIfAbsent(buffer.region, r -> new TreeMap<>());
            final Map.Entry<Integer, Integer> below = blocks.floorEntry(offset);
            final Map.Entry<Integer, Integer> above = blocks.ceilingEntry(offset);
            if ((below != null && below.getValue() > offset) || (above != null && above.getKey() < offset + bytes))
            {
                fail("block [" + offset + ", " + (offset + bytes) + ") of region " + buffer.region +
                    " overlaps a live block: " + below + " / " + above);
            }
            blocks.put(offset, offset + bytes);
        }

        synchronized void remove(final Buffer buffer)
        {
            if (buffer.region >= 0)
            {
                final Integer end = regions.get(buffer.region).remove(buffer.blockIndex * BufferFactory.MIN_BLOCK_BYTES);
                assertEquals(buffer.blockIndex * BufferFactory.MIN_BLOCK_BYTES + blockBytes(buffer), end);
            }
        }

        synchronized boolean isEmpty()
        {
            return regions.values().stream().allMatch(Map::isEmpty);
        }
    }
}
