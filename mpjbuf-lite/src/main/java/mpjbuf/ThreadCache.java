package mpjbuf;

/**
 * Per-thread stacks of recently freed pooled buffers of the small size classes, in front of a {@link BlockPool}.
 *
 * <p>Allocating and freeing eager-message buffers then touches neither a lock nor shared memory: a rank that
 * receives a message frees the buffer into its own cache and reuses it for its next send. Like a malloc thread
 * cache, blocks parked here are unavailable to other threads until {@link #drainTo(BlockPool)} returns them; depth is
 * bounded per size class so that parked memory stays small.
 *
 * <p>Thread safety: confined to its thread (held in a {@link ThreadLocal}). Buffers enter it already retired; the
 * happens-before edge that handed a buffer to the freeing thread covers its later reuse here.
 */
final class ThreadCache
{
    private final Buffer[][] stacks;
    private final int[] sizes;

    /**
     * @param levels number of cached size classes, levels {@code 0 .. levels-1}.
     * @param depth  buffers kept per size class.
     */
    ThreadCache(final int levels, final int depth)
    {
        stacks = new Buffer[levels][depth];
        sizes = new int[levels];
    }

    /**
     * @return a cached buffer of {@code level}, or {@code null} if none.
     */
    Buffer poll(final int level)
    {
        final int size = sizes[level];
        if (size == 0)
        {
            return null;
        }
        final Buffer[] stack = stacks[level];
        final Buffer buffer = stack[size - 1];
        stack[size - 1] = null;
        sizes[level] = size - 1;
        return buffer;
    }

    /**
     * @return {@code true} if the buffer was kept, {@code false} if this size class is full.
     */
    boolean offer(final Buffer buffer)
    {
        final int level = buffer.level;
        final int size = sizes[level];
        final Buffer[] stack = stacks[level];
        if (size == stack.length)
        {
            return false;
        }
        stack[size] = buffer;
        sizes[level] = size + 1;
        return true;
    }

    /** Return every cached buffer to {@code pool}. */
    void drainTo(final BlockPool pool)
    {
        for (int level = 0; level < stacks.length; level++)
        {
            Buffer buffer;
            while ((buffer = poll(level)) != null)
            {
                pool.release(buffer);
            }
        }
    }
}
