package mpjbuf;

import java.util.List;
import java.util.Objects;

/**
 * Source of {@link Buffer}s, with the pooling {@link PoolStrategy} and {@link StorageKind} chosen at start-up. One
 * factory serves every rank thread of the JVM.
 *
 * <p>Pooled strategies hand out blocks of {@code MIN_BLOCK_BYTES << k} bytes (64 B minimum, one cache line, so
 * blocks of different ranks never share a line) from regions of {@code regionBytes} (16 MiB by default). A request
 * larger than a region falls back to an unpooled {@link java.nio.ByteBuffer} of exactly that size, reclaimed by the
 * garbage collector after {@link #destroyBuffer(Buffer)}. Requests up to {@link #MAX_CAPACITY} are served.
 *
 * <p>Thread safety: all methods are thread-safe, and a buffer may be freed by a thread other than the one that got
 * it (the usual case: the sender allocates, the receiver frees). Each thread has a {@link ThreadCache} of up to
 * {@value #THREAD_CACHE_DEPTH} freed buffers per size class up to {@value #THREAD_CACHE_MAX_BLOCK_BYTES} bytes;
 * {@link #getBuffer(int)} and {@link #destroyBuffer(Buffer)} for those sizes touch only that cache: no lock, no
 * shared write, no allocation. Behind the caches a {@link Depot} parks a bounded number of freed buffers per size
 * class for any thread (one compare-and-set to park or take one), so that a one-way stream, whose receiver frees what
 * its sender allocates, passes buffers from one thread's cache to the other's without the pool. Other sizes, and
 * what the caches and the depot cannot serve or hold, go to the pool, which synchronizes as its class describes (one
 * lock for {@link Buddy1Pool}, one lock per region for {@link Buddy2Pool}). A thread that stops using the factory
 * should call {@link #releaseThreadCache()}, or its cached blocks stay unavailable to other threads.
 */
public final class BufferFactory
{
    /** Smallest pooled block; also the alignment of every pooled block. */
    public static final int MIN_BLOCK_BYTES = 64;

    /** Region size used by {@link #create(PoolStrategy, StorageKind)}. */
    public static final int DEFAULT_REGION_BYTES = 16 << 20;

    /** Largest capacity {@link #getBuffer(int)} accepts. */
    public static final int MAX_CAPACITY = 1 << 30;

    /** Largest block kept in the per-thread caches: eager messages and small derived-datatype packs. */
    static final int THREAD_CACHE_MAX_BLOCK_BYTES = 64 << 10;

    /** Freed buffers kept per size class and thread. */
    static final int THREAD_CACHE_DEPTH = 8;

    private final PoolStrategy strategy;
    private final StorageKind storageKind;
    private final int regionBytes;
    private final BlockPool pool;
    private final int cachedLevels;
    private final ThreadLocal<ThreadCache> threadCaches;
    /** Null when unpooled. */
    private final Depot depot;

    private BufferFactory(final PoolStrategy strategy, final StorageKind storageKind, final int regionBytes)
    {
        this.strategy = strategy;
        this.storageKind = storageKind;
        this.regionBytes = regionBytes;
        switch (strategy)
        {
            case BUDDY1:
                pool = new Buddy1Pool(this, storageKind, regionBytes);
                break;
            case BUDDY2:
                pool = new Buddy2Pool(this, storageKind, regionBytes);
                break;
            default:
                pool = null;
        }
        cachedLevels = pool == null ? 0 : levelOf(Math.min(THREAD_CACHE_MAX_BLOCK_BYTES, regionBytes)) + 1;
        threadCaches = ThreadLocal.withInitial(() -> new ThreadCache(cachedLevels, THREAD_CACHE_DEPTH));
        depot = pool == null ? null : new Depot(cachedLevels, regionBytes);
    }

    /**
     * Factory with {@link #DEFAULT_REGION_BYTES} regions.
     */
    public static BufferFactory create(final PoolStrategy strategy, final StorageKind storage)
    {
        return create(strategy, storage, DEFAULT_REGION_BYTES);
    }

    /**
     * @param strategy    pooling strategy.
     * @param storage     heap or direct memory.
     * @param regionBytes size of each pool region: a power of two from {@link #MIN_BLOCK_BYTES} to
     *                    {@link #MAX_CAPACITY}; ignored by {@link PoolStrategy#UNPOOLED}.
     * @throws IllegalArgumentException if {@code regionBytes} is not such a power of two.
     */
    public static BufferFactory create(final PoolStrategy strategy, final StorageKind storage, final int regionBytes)
    {
        Objects.requireNonNull(strategy, "strategy");
        Objects.requireNonNull(storage, "storage");
        if (regionBytes < MIN_BLOCK_BYTES || regionBytes > MAX_CAPACITY || Integer.bitCount(regionBytes) != 1)
        {
            throw new IllegalArgumentException("regionBytes must be a power of two from " + MIN_BLOCK_BYTES + " to " +
                MAX_CAPACITY + ": " + regionBytes);
        }
        return new BufferFactory(strategy, storage, regionBytes);
    }

    /**
     * A writable, empty buffer with at least {@code capacityBytes} of static storage, native encoding.
     *
     * @param capacityBytes static storage needed, e.g. a sum of {@link Buffer#sectionBytes(Type, int)}.
     * @return a buffer that must eventually be passed to {@link #destroyBuffer(Buffer)} (or {@link Buffer#free()}).
     * @throws IllegalArgumentException if {@code capacityBytes} is negative or above {@link #MAX_CAPACITY}.
     */
    public Buffer getBuffer(final int capacityBytes)
    {
        if (capacityBytes < 0 || capacityBytes > MAX_CAPACITY)
        {
            throw new IllegalArgumentException("buffer capacity must be from 0 to " + MAX_CAPACITY + " bytes: " +
                capacityBytes);
        }
        final Buffer buffer;
        if (pool == null || capacityBytes > regionBytes)
        {
            buffer = new Buffer(this, new ByteBufferStorage(storageKind.allocate(capacityBytes)), -1, 0, -1);
        }
        else
        {
            final int level = levelOf(capacityBytes);
            final Buffer cached = level < cachedLevels ? cached(level) : null;
            buffer = cached != null ? cached : pool.allocate(level);
        }
        buffer.activate(capacityBytes);
        return buffer;
    }

    /**
     * Free a buffer: its block goes back to the pool (or the thread cache), and the buffer must not be used again.
     *
     * @param buffer a buffer obtained from this factory.
     * @throws IllegalStateException    if it was already freed.
     * @throws IllegalArgumentException if it comes from another factory.
     */
    public void destroyBuffer(final Buffer buffer)
    {
        if (buffer.factory != this)
        {
            throw new IllegalArgumentException("buffer belongs to another factory: " + buffer);
        }
        buffer.retire();
        if (buffer.level < 0)
        {
            return;
        }
        if (buffer.level >= cachedLevels || !threadCaches.get().offer(buffer) && !depot.offer(buffer))
        {
            pool.release(buffer);
        }
    }

    /**
     * Return the calling thread's cached blocks to the pool. Call when a rank thread finishes.
     */
    public void releaseThreadCache()
    {
        if (pool != null)
        {
            threadCaches.get().drainTo(pool);
        }
    }

    /**
     * @return a freed buffer of a cached size class: this thread's own, else one parked in the depot; {@code null} if
     * neither has one.
     */
    private Buffer cached(final int level)
    {
        final Buffer own = threadCaches.get().poll(level);
        return own != null ? own : depot.poll(level);
    }

    /**
     * Return the buffers parked in the shared depot to the pool, for tests: after every thread has released its cache,
     * every block is then free. Nothing else needs it, since the depot's size is bounded.
     */
    void trimDepot()
    {
        if (depot != null)
        {
            depot.drainTo(pool);
        }
    }

    public PoolStrategy strategy()
    {
        return strategy;
    }

    public StorageKind storageKind()
    {
        return storageKind;
    }

    /**
     * @return bytes per pool region; larger requests are not pooled.
     */
    public int regionBytes()
    {
        return regionBytes;
    }

    /**
     * Free blocks of the pool, for tests and diagnostics; blocks parked in thread caches or the depot are not free.
     *
     * @return free blocks, empty when unpooled.
     */
    List<BlockPool.FreeBlock> freeBlocks()
    {
        return pool == null ? List.of() : pool.freeBlocks();
    }

    /**
     * @return pool regions allocated so far, 0 when unpooled.
     */
    int regionCount()
    {
        return pool == null ? 0 : pool.regionCount();
    }

    /** Size class of a block holding {@code bytes}: the smallest {@code k} with {@code MIN_BLOCK_BYTES << k >= bytes}. */
    static int levelOf(final int bytes)
    {
        return bytes <= MIN_BLOCK_BYTES ? 0 : 32 - Integer.numberOfLeadingZeros(bytes - 1) - 6;
    }
}
