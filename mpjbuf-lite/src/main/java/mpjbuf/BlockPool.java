package mpjbuf;

import java.util.List;

/**
 * A buddy allocator of pooled blocks, each handed out wrapped in a {@link Buffer}.
 *
 * <p>Levels are size classes: a level-{@code k} block is {@code BufferFactory.MIN_BLOCK_BYTES << k} bytes and starts
 * at a multiple of its own size within its region. Implementations are thread-safe; see each class for how.
 */
interface BlockPool
{
    /**
     * Take a free block of exactly {@code level}, splitting a larger one or adding a region if needed.
     *
     * @param level size class, at most the region level.
     * @return a buffer over the block, in the freed state; the factory activates it.
     */
    Buffer allocate(int level);

    /**
     * Give back a block taken by {@link #allocate(int)}, merging it with free buddies.
     *
     * @param buffer a retired buffer of this pool.
     */
    void release(Buffer buffer);

    /**
     * Snapshot of every free block, for tests and diagnostics. Consistent per region; takes the pool's locks.
     *
     * @return free blocks, in no particular order.
     */
    List<FreeBlock> freeBlocks();

    /**
     * @return number of regions allocated so far; regions are never given back.
     */
    int regionCount();

    /**
     * A free block of a region.
     *
     * @param region index of the region, in order of creation.
     * @param offset byte offset within the region.
     * @param bytes  block size in bytes.
     */
    record FreeBlock(int region, int offset, int bytes)
    {
    }
}
