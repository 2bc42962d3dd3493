package mpjbuf;

/**
 * How a {@link BufferFactory} obtains the static storage of its buffers.
 *
 * <p>Immutable; safe to share between threads.
 */
public enum PoolStrategy
{
    /**
     * Knuth's buddy system with one set of free lists per block size shared by all regions; a free block is known
     * by its offset only (links live inside the free block), so the footprint is small. See {@link Buddy1Pool}.
     */
    BUDDY1,

    /**
     * Buddy system with free lists per region holding the {@link Buffer} objects themselves, searched region by
     * region under per-region locks. See {@link Buddy2Pool}.
     */
    BUDDY2,

    /** A fresh {@link java.nio.ByteBuffer} per request, reclaimed by the garbage collector: the baseline. */
    UNPOOLED
}
