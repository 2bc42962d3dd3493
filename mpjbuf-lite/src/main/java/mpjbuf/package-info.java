/**
 * The buffering layer: typed, sectioned message buffers ({@link mpjbuf.Buffer}) in pooled storage,
 * after the mpjbuf design of MPJ Express. A buffer is written as sections, each a header (element
 * type, count) followed by the elements, and read back in the same order; primitive data lives in a
 * byte region ({@link mpjbuf.RawStorage}: heap or direct, chosen by {@link mpjbuf.StorageKind}),
 * objects in a side list ({@link mpjbuf.ObjectStorage}, serialized by {@link mpjbuf.ObjectStreams}).
 *
 * <h2>Where buffers come from</h2>
 * One JVM-wide {@link mpjbuf.BufferFactory} hands out buffers from a {@link mpjbuf.BlockPool}
 * chosen by {@link mpjbuf.PoolStrategy}: {@link mpjbuf.Buddy1Pool} (one buddy allocator, one lock),
 * {@link mpjbuf.Buddy2Pool} (a buddy allocator per region, a lock each) or unpooled. In front of the
 * pool each thread keeps a small cache of freed blocks per size class, so a ping-pong of eager
 * messages allocates and frees without a lock or a shared write; behind the caches a bounded,
 * lock-free {@link mpjbuf.Depot} per size class passes freed blocks between threads, so a one-way
 * stream (the receiver frees what the sender allocated) does not reach the pool either.
 *
 * <h2>Threads</h2>
 * A buffer is used by one thread at a time and handed between threads by the device with a
 * happens-before edge (the matching structures' hand-off); it may be freed by another thread than
 * the one that got it. The factory and the pools are thread-safe as their classes describe;
 * {@code ThreadCache} is confined to its thread; the {@code Depot} is lock-free.
 */
package mpjbuf;
