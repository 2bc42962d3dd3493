package mpjbuf;

import java.nio.ByteBuffer;

/**
 * Where the static storage of buffers lives.
 *
 * <p>Immutable; safe to share between threads.
 */
public enum StorageKind
{
    /** Off-heap memory from {@link ByteBuffer#allocateDirect(int)}: never moved by the GC, usable by native I/O. */
    DIRECT
    {
        ByteBuffer allocate(final int bytes)
        {
            return ByteBuffer.allocateDirect(bytes);
        }
    },

    /** A {@code byte[]} on the Java heap via {@link ByteBuffer#allocate(int)}. */
    HEAP
    {
        ByteBuffer allocate(final int bytes)
        {
            return ByteBuffer.allocate(bytes);
        }
    };

    /**
     * Allocate zeroed memory of this kind.
     *
     * @param bytes size in bytes.
     * @return a new buffer with position 0 and limit {@code bytes}.
     */
    abstract ByteBuffer allocate(int bytes);
}
