package mpjbuf;

import org.jctools.queues.varhandle.MpmcVarHandleArrayQueue;

/**
 * Freed buffers of the small size classes parked for any thread, between the per-thread caches and the
 * {@link BlockPool}: a bounded queue per size class.
 *
 * <p>Why it exists: in a one-way stream of eager messages the sender allocates every buffer and the receiver frees
 * it, so the sender's {@link ThreadCache} runs dry and the receiver's overflows after
 * {@value BufferFactory#THREAD_CACHE_DEPTH} messages; without the depot both then take the pool's lock for every
 * message after that (splitting and merging buddies, and a new {@link Buffer} and its views per allocation). Through
 * the depot the receiver's overflow reaches the sender with one compare-and-set on each side, and the buffer is
 * reused whole.
 *
 * <p>Each size class holds at most {@value #MAX_BUFFERS} buffers and at most {@value #MAX_BYTES} bytes of blocks
 * (but at least {@value #MIN_BUFFERS}), and never more than one region's worth, so what is parked here stays a few
 * megabytes whatever the traffic; a buffer that finds its class full goes back to the pool.
 *
 * <p>Thread safety: lock-free and safe for any number of threads (JCTools' multi-producer, multi-consumer array
 * queue, built on {@code VarHandle}s, so no JDK needs a JVM option for it). A buffer is taken by at most one thread,
 * and the queue's release on {@link #offer} and acquire on {@link #poll} order everything the freeing thread did to
 * the buffer before everything the taking thread does with it.
 */
final class Depot
{
    /** Most buffers parked per size class: a window of 64 messages in flight, with room to spare. */
    static final int MAX_BUFFERS = 128;

    /** Most bytes of blocks parked per size class, for the classes whose blocks are large. */
    static final int MAX_BYTES = 2 << 20;

    /** Fewest buffers a size class may park, however large its blocks. */
    static final int MIN_BUFFERS = 8;

    private final MpmcVarHandleArrayQueue<Buffer>[] classes;

    /**
     * @param levels      number of size classes, levels {@code 0 .. levels-1} (blocks of
     *                    {@code BufferFactory.MIN_BLOCK_BYTES << level} bytes).
     * @param regionBytes the pool's region size.
     */
    @SuppressWarnings("unchecked")
    Depot(final int levels, final int regionBytes)
    {
        classes = new MpmcVarHandleArrayQueue[levels];
        for (int level = 0; level < levels; level++)
        {
            classes[level] = new MpmcVarHandleArrayQueue<>(capacity(level, regionBytes));
        }
    }

    /**
     * The buffers size class {@code level} may park with regions of {@code regionBytes}: a power of two, from
     * {@value #MIN_BUFFERS} to {@value #MAX_BUFFERS}, and at most a region's worth of blocks (at least 2).
     */
    static int capacity(final int level, final int regionBytes)
    {
        final long blockBytes = (long)BufferFactory.MIN_BLOCK_BYTES << level;
        final long byBytes = Math.max(MIN_BUFFERS, Math.min(MAX_BUFFERS, MAX_BYTES / blockBytes));
        return (int)Math.max(2, Math.min(byBytes, regionBytes / blockBytes));
    }

    /**
     * @return a parked buffer of {@code level} (retired, to be activated by the caller), or {@code null} if none.
     */
    Buffer poll(final int level)
    {
        return classes[level].poll();
    }

    /**
     * @param buffer a retired buffer of one of the depot's size classes.
     * @return {@code true} if the buffer was parked, {@code false} if its size class is full.
     */
    boolean offer(final Buffer buffer)
    {
        return classes[buffer.level].offer(buffer);
    }

    /** Returns every parked buffer to {@code pool}. */
    void drainTo(final BlockPool pool)
    {
        for (final MpmcVarHandleArrayQueue<Buffer> parked : classes)
        {
            Buffer buffer;
            while ((buffer = parked.poll()) != null)
            {
                pool.release(buffer);
            }
        }
    }
}
