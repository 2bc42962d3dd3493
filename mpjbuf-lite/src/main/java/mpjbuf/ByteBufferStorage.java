package mpjbuf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@link RawStorage} over a heap or direct {@link ByteBuffer}, usually a slice of a pool region.
 *
 * <p>Thread safety: not thread-safe; the lazily created views are published to later owners of the buffer by the
 * same happens-before edge that hands the buffer over.
 */
final class ByteBufferStorage implements RawStorage
{
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private final ByteBuffer memory;
    private final TypedViews nativeViews;
    private TypedViews swappedViews;

    ByteBufferStorage(final ByteBuffer memory)
    {
        this.memory = memory;
        nativeViews = new TypedViews(memory, NATIVE);
    }

    public int capacity()
    {
        return memory.capacity();
    }

    public TypedViews views(final ByteOrder order)
    {
        if (order == NATIVE)
        {
            return nativeViews;
        }
        TypedViews views = swappedViews;
        if (views == null)
        {
            views = new TypedViews(memory, order);
            swappedViews = views;
        }
        return views;
    }
}
