package mpjbuf;

/**
 * Element type of a buffer section.
 *
 * <p>Immutable; safe to share between threads.
 */
public enum Type
{
    BYTE(1),
    CHAR(2),
    SHORT(2),
    /** Stored as one byte, 0 or 1. */
    BOOLEAN(1),
    INT(4),
    LONG(8),
    FLOAT(4),
    DOUBLE(8),
    /** Serialized into the buffer's dynamic storage; occupies no static element bytes. */
    OBJECT(0);

    private static final Type[] VALUES = values();

    private final int size;

    Type(final int size)
    {
        this.size = size;
    }

    /**
     * Bytes one element occupies in static storage.
     *
     * @return element size in bytes, 0 for {@link #OBJECT}.
     */
    public int size()
    {
        return size;
    }

    /**
     * Type for an ordinal read back from a section header.
     *
     * @param ordinal value of {@link #ordinal()}.
     * @return the type, or {@code null} if the ordinal is out of range (a corrupt header).
     */
    static Type ofOrdinal(final int ordinal)
    {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
