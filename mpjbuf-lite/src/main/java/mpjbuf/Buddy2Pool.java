package mpjbuf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

import static mpjbuf.BufferFactory.MIN_BLOCK_BYTES;

/**
 * {@link PoolStrategy#BUDDY2}: a buddy system per region, as in the second strategy of MPJ Express. Each region has
 * its own free lists, and the lists hold the {@link Buffer} objects themselves (linked through
 * {@code Buffer.nextFree/prevFree}).
 *
 * <p>A region keeps, per minimum-block offset, the buffer object whose block starts there. The storage of that
 * object reaches from its offset to the end of the region, so the same object serves every block size starting at
 * that offset: merging keeps the lower buddy's object, splitting reuses the object already kept at the upper half's
 * offset. After warm-up neither path allocates; the price is one object per block start ever used, the bigger
 * footprint the MPJ Express paper reports for this strategy.
 *
 * <p>Thread safety: each region has its own {@link ReentrantLock}; allocation searches the regions in order of
 * creation, first with {@code tryLock} so that a busy region is skipped, then blocking, and only then adds a region
 * under a separate growth lock. The region array is copy-on-write and published through a {@code volatile} field.
 * {@code largestFree} is a {@code volatile} hint written under the region lock and read without it to skip regions
 * that cannot serve a request; a stale value only costs a wasted lock or a skipped region. The region lock's
 * release/acquire orders list updates and the block contents between successive owners.
 */
final class Buddy2Pool implements BlockPool
{
    private final BufferFactory factory;
    private final StorageKind storageKind;
    private final int regionBytes;
    private final int regionLevel;
    private final Object growthLock = new Object();
    private volatile Region[] regions = new Region[0];

    Buddy2Pool(final BufferFactory factory, final StorageKind storageKind, final int regionBytes)
    {
        this.factory = factory;
        this.storageKind = storageKind;
        this.regionBytes = regionBytes;
        regionLevel = Integer.numberOfTrailingZeros(regionBytes / MIN_BLOCK_BYTES);
    }

    public Buffer allocate(final int level)
    {
        while (true)
        {
            final Region[] snapshot = regions;
            for (final Region region : snapshot)
            {
                if (region.largestFree >= level && region.lock.tryLock())
                {
                    final Buffer buffer = takeLocked(region, level);
                    if (buffer != null)
                    {
                        return buffer;
                    }
                }
            }
            for (final Region region : snapshot)
            {
                if (region.largestFree >= level)
                {
                    region.lock.lock();
                    final Buffer buffer = takeLocked(region, level);
                    if (buffer != null)
                    {
                        return buffer;
                    }
                }
            }
            synchronized (growthLock)
            {
                if (regions == snapshot)
                {
                    final Region[] grown = Arrays.copyOf(snapshot, snapshot.length + 1);
                    grown[snapshot.length] = new Region(snapshot.length);
                    regions = grown;
                }
            }
        }
    }

    public void release(final Buffer buffer)
    {
        final Region region = regions[buffer.region];
        region.lock.lock();
        try
        {
            region.release(buffer);
        }
        finally
        {
            region.lock.unlock();
        }
    }

    public List<FreeBlock> freeBlocks()
    {
        final List<FreeBlock> blocks = new ArrayList<>();
        for (final Region region : regions)
        {
            region.lock.lock();
            try
            {
                for (int level = 0; level <= regionLevel; level++)
                {
                    for (Buffer free = region.heads[level]; free != null; free = free.nextFree)
                    {
                        blocks.add(new FreeBlock(region.index, free.blockIndex * MIN_BLOCK_BYTES,
                            MIN_BLOCK_BYTES << level));
                    }
                }
            }
            finally
            {
                region.lock.unlock();
            }
        }
        return blocks;
    }

    public int regionCount()
    {
        return regions.length;
    }

    private static Buffer takeLocked(final Region region, final int level)
    {
        try
        {
            return region.take(level);
        }
        finally
        {
            region.lock.unlock();
        }
    }

    /** One region with its own free lists; every method but the constructor needs {@link #lock} held. */
    private final class Region
    {
        final int index;
        final ReentrantLock lock = new ReentrantLock();
        final ByteBuffer memory;
        final Buffer[] blockStarts;
        final Buffer[] heads;
        volatile int largestFree;

        Region(final int index)
        {
            this.index = index;
            memory = storageKind.allocate(regionBytes);
            blockStarts = new Buffer[1 << regionLevel];
            heads = new Buffer[regionLevel + 1];
            push(bufferAt(0), regionLevel);
            largestFree = regionLevel;
        }

        Buffer take(final int level)
        {
            int from = level;
            while (from <= regionLevel && heads[from] == null)
            {
                from++;
            }
            if (from > regionLevel)
            {
                return null;
            }
            final Buffer buffer = heads[from];
            unlink(buffer);
            while (from > level)
            {
                from--;
                push(bufferAt(buffer.blockIndex + (1 << from)), from);
            }
            buffer.level = level;
            updateLargestFree();
            return buffer;
        }

        void release(final Buffer released)
        {
            Buffer buffer = released;
            int level = buffer.level;
            while (level < regionLevel)
            {
                final Buffer buddy = blockStarts[buffer.blockIndex ^ (1 << level)];
                if (buddy == null || buddy.freeLevel != level)
                {
                    break;
                }
                unlink(buddy);
                if (buddy.blockIndex < buffer.blockIndex)
                {
                    buffer = buddy;
                }
                level++;
            }
            buffer.level = level;
            push(buffer, level);
            updateLargestFree();
        }

        private Buffer bufferAt(final int blockIndex)
        {
            Buffer buffer = blockStarts[blockIndex];
            if (buffer == null)
            {
                final int offset = blockIndex * MIN_BLOCK_BYTES;
                final ByteBuffer tail = memory.slice(offset, regionBytes - offset);
                buffer = new Buffer(factory, new ByteBufferStorage(tail), index, blockIndex, regionLevel);
                blockStarts[blockIndex] = buffer;
            }
            return buffer;
        }

        private void push(final Buffer buffer, final int level)
        {
            final Buffer head = heads[level];
            buffer.freeLevel = level;
            buffer.prevFree = null;
            buffer.nextFree = head;
            if (head != null)
            {
                head.prevFree = buffer;
            }
            heads[level] = buffer;
        }

        private void unlink(final Buffer buffer)
        {
            final Buffer next = buffer.nextFree;
            final Buffer prev = buffer.prevFree;
            if (prev == null)
            {
                heads[buffer.freeLevel] = next;
            }
            else
            {
                prev.nextFree = next;
            }
            if (next != null)
            {
                next.prevFree = prev;
            }
            buffer.nextFree = null;
            buffer.prevFree = null;
            buffer.freeLevel = -1;
        }

        private void updateLargestFree()
        {
            int level = regionLevel;
            while (level >= 0 && heads[level] == null)
            {
                level--;
            }
            largestFree = level;
        }
    }
}
