package mpjbuf;

import java.nio.ByteOrder;

/**
 * Fixed-size static storage of a {@link Buffer}, accessed through typed views in a chosen byte order.
 *
 * <p>This is the seam for other storage media (the native {@code malloc} storage of MPJ Express's
 * {@code NativeBuffer}, for instance). Heap and direct memory share one implementation, {@link ByteBufferStorage},
 * because the JDK's {@code ByteBuffer} classes already dispatch to code specialised for each.
 *
 * <p>Thread safety: not thread-safe; confined to the thread that currently owns the {@link Buffer}.
 */
interface RawStorage
{
    /**
     * Size of the storage in bytes; the owning buffer may use less.
     *
     * @return capacity in bytes.
     */
    int capacity();

    /**
     * Typed views over the whole storage in the given order.
     *
     * @param order byte order of multi-byte elements.
     * @return views, created once per order and then cached.
     */
    TypedViews views(ByteOrder order);
}
