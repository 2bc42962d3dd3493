package mpjbuf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static mpjbuf.BufferFactory.MIN_BLOCK_BYTES;

/**
 * {@link PoolStrategy#BUDDY1}: Knuth's buddy system with one doubly linked free list per level shared by all
 * regions, as in the first strategy of MPJ Express.
 *
 * <p>A block is identified by a node number {@code region << regionLevel | index}, where {@code index} is its offset
 * in {@link BufferFactory#MIN_BLOCK_BYTES} units; its buddy at level {@code k} is {@code index ^ (1 << k)}. The
 * list links of a free block are stored in the first 8 bytes of the block itself, and one byte per minimum block
 * records the level of a free block starting there, so the bookkeeping outside the regions is 1/64 of their size.
 * Regions of {@code regionBytes} are added as demand grows and kept for the life of the pool. A {@link Buffer}
 * object is created per allocation and dropped when its block is released (the thread cache in front of the pool
 * reuses buffers of the small classes).
 *
 * <p>Thread safety: every method holds this pool's monitor, whose release/acquire orders the free-list updates and
 * the writes the previous owner made to a block before releasing it. One lock suffices because the small size
 * classes, the hot path of eager messages, are served by {@link ThreadCache} without reaching the pool.
 */
final class Buddy1Pool implements BlockPool
{
    private static final int NONE = -1;

    private final BufferFactory factory;
    private final StorageKind storageKind;
    private final int regionBytes;
    private final int regionLevel;
    private final int maxRegions;
    private final int[] heads;
    private ByteBuffer[] regions = new ByteBuffer[4];
    private byte[][] freeLevels = new byte[4][];
    private int regionCount;

    Buddy1Pool(final BufferFactory factory, final StorageKind storageKind, final int regionBytes)
    {
        this.factory = factory;
        this.storageKind = storageKind;
        this.regionBytes = regionBytes;
        regionLevel = Integer.numberOfTrailingZeros(regionBytes / MIN_BLOCK_BYTES);
        maxRegions = 1 << (31 - regionLevel);
        heads = new int[regionLevel + 1];
        Arrays.fill(heads, NONE);
    }

    public Buffer allocate(final int level)
    {
        final ByteBuffer block;
        final int node;
        synchronized (this)
        {
            node = take(level);
            block = regions[node >>> regionLevel].slice(offset(node), MIN_BLOCK_BYTES << level);
        }
        return new Buffer(factory, new ByteBufferStorage(block), node >>> regionLevel, index(node), level);
    }

    public synchronized void release(final Buffer buffer)
    {
        final byte[] free = freeLevels[buffer.region];
        int index = buffer.blockIndex;
        int level = buffer.level;
        while (level < regionLevel)
        {
            final int buddy = index ^ (1 << level);
            if (free[buddy] != level + 1)
            {
                break;
            }
            unlink(node(buffer.region, buddy), level);
            index &= ~(1 << level);
            level++;
        }
        push(node(buffer.region, index), level);
    }

    public synchronized List<FreeBlock> freeBlocks()
    {
        final List<FreeBlock> blocks = new ArrayList<>();
        for (int level = 0; level <= regionLevel; level++)
        {
            for (int node = heads[level]; node != NONE; node = next(node))
            {
                blocks.add(new FreeBlock(node >>> regionLevel, offset(node), MIN_BLOCK_BYTES << level));
            }
        }
        return blocks;
    }

    public synchronized int regionCount()
    {
        return regionCount;
    }

    private int take(final int level)
    {
        int from = level;
        while (from <= regionLevel && heads[from] == NONE)
        {
            from++;
        }
        if (from > regionLevel)
        {
            addRegion();
            from = regionLevel;
        }
        final int node = heads[from];
        unlink(node, from);
        while (from > level)
        {
            from--;
            push(node + (1 << from), from);
        }
        return node;
    }

    private void addRegion()
    {
        if (regionCount == maxRegions)
        {
            throw new IllegalStateException("BUDDY1 pool exhausted: " + maxRegions + " regions of " + regionBytes +
                " bytes");
        }
        if (regionCount == regions.length)
        {
            regions = Arrays.copyOf(regions, regionCount * 2);
            freeLevels = Arrays.copyOf(freeLevels, regionCount * 2);
        }
        regions[regionCount] = storageKind.allocate(regionBytes);
        freeLevels[regionCount] = new byte[1 << regionLevel];
        push(node(regionCount, 0), regionLevel);
        regionCount++;
    }

    private void push(final int node, final int level)
    {
        final int head = heads[level];
        setNext(node, head);
        setPrev(node, NONE);
        if (head != NONE)
        {
            setPrev(head, node);
        }
        heads[level] = node;
        freeLevels[node >>> regionLevel][index(node)] = (byte)(level + 1);
    }

    private void unlink(final int node, final int level)
    {
        final int next = next(node);
        final int prev = prev(node);
        if (prev == NONE)
        {
            heads[level] = next;
        }
        else
        {
            setNext(prev, next);
        }
        if (next != NONE)
        {
            setPrev(next, prev);
        }
        freeLevels[node >>> regionLevel][index(node)] = 0;
    }

    private int next(final int node)
    {
        return regions[node >>> regionLevel].getInt(offset(node));
    }

    private int prev(final int node)
    {
        return regions[node >>> regionLevel].getInt(offset(node) + 4);
    }

    private void setNext(final int node, final int next)
    {
        regions[node >>> regionLevel].putInt(offset(node), next);
    }

    private void setPrev(final int node, final int prev)
    {
        regions[node >>> regionLevel].putInt(offset(node) + 4, prev);
    }

    private int node(final int region, final int index)
    {
        return region << regionLevel | index;
    }

    private int index(final int node)
    {
        return node & ((1 << regionLevel) - 1);
    }

    private int offset(final int node)
    {
        return index(node) * MIN_BLOCK_BYTES;
    }
}
