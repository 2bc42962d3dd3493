package mpjbuf;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;

/**
 * Dynamic storage of a {@link Buffer}: the serialized objects of its {@link Type#OBJECT} sections.
 *
 * <p>Each {@code write} call appends one self-contained segment {@code [int length][int count][serialization
 * stream]}, so a failed write is rolled back by truncation and never leaves a half-written stream behind, and a
 * reader can skip the unread objects of a section segment by segment without deserializing them. A segment never
 * spans two sections.
 *
 * <p>Thread safety: not thread-safe; confined to the thread that currently owns the buffer.
 */
final class ObjectStorage
{
    private static final int SEGMENT_HEADER_BYTES = 8;

    private final Bytes bytes = new Bytes();
    private int nextSegment;
    private ObjectStreams.LoaderInputStream segment;
    private int segmentRemaining;

    /**
     * Serialize {@code src[off .. off+n)} as one segment.
     *
     * @throws IllegalArgumentException if an object (or one it references) is not serializable.
     */
    void write(final Object[] src, final int off, final int n)
    {
        if (n == 0)
        {
            return;
        }
        final int start = bytes.size();
        bytes.putInt(0);
        bytes.putInt(n);
        boolean written = false;
        try (ObjectOutputStream out = new ObjectOutputStream(bytes))
        {
            for (int i = 0; i < n; i++)
            {
                out.writeObject(src[off + i]);
            }
            written = true;
        }
        catch (final NotSerializableException ex)
        {
            throw new IllegalArgumentException("cannot write OBJECT section: " + ex.getMessage() +
                " is not Serializable", ex);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        finally
        {
            if (!written)
            {
                bytes.truncate(start);
            }
        }
        bytes.setInt(start, bytes.size() - start - SEGMENT_HEADER_BYTES);
    }

    /**
     * Deserialize the next {@code n} objects, resolving classes in {@code loader}.
     *
     * @throws IllegalStateException if a class cannot be found in {@code loader}.
     */
    void read(final Object[] dst, final int off, final int n, final ClassLoader loader)
    {
        try
        {
            for (int i = 0; i < n; i++)
            {
                if (segmentRemaining == 0)
                {
                    openNextSegment();
                }
                segment.setLoader(loader);
                dst[off + i] = segment.readObject();
                segmentRemaining--;
            }
        }
        catch (final ClassNotFoundException ex)
        {
            throw new IllegalStateException("cannot read OBJECT section: class " + ex.getMessage() +
                " not found in class loader " + loader, ex);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Skip {@code n} unread objects, which are the rest of the current section, without deserializing them.
     */
    void skip(final int n)
    {
        int remaining = n - segmentRemaining;
        segmentRemaining = 0;
        segment = null;
        while (remaining > 0)
        {
            remaining -= bytes.getInt(nextSegment + 4);
            nextSegment += SEGMENT_HEADER_BYTES + bytes.getInt(nextSegment);
        }
    }

    /** Restart reading from the first segment. */
    void rewind()
    {
        nextSegment = 0;
        segment = null;
        segmentRemaining = 0;
    }

    /** Drop all segments. */
    void clear()
    {
        bytes.reset();
        rewind();
    }

    /**
     * @return bytes of serialized data held, including segment headers.
     */
    int size()
    {
        return bytes.size();
    }

    private void openNextSegment() throws IOException
    {
        final int length = bytes.getInt(nextSegment);
        segmentRemaining = bytes.getInt(nextSegment + 4);
        segment = new ObjectStreams.LoaderInputStream(
            new ByteArrayInputStream(bytes.array(), nextSegment + SEGMENT_HEADER_BYTES, length));
        nextSegment += SEGMENT_HEADER_BYTES + length;
    }

    /** Growable byte array with in-place header access; {@code buf} and {@code count} are inherited. */
    private static final class Bytes extends ByteArrayOutputStream
    {
        Bytes()
        {
            super(256);
        }

        byte[] array()
        {
            return buf;
        }

        void truncate(final int size)
        {
            count = size;
        }

        void putInt(final int value)
        {
            write(value >>> 24);
            write(value >>> 16);
            write(value >>> 8);
            write(value);
        }

        void setInt(final int at, final int value)
        {
            buf[at] = (byte)(value >>> 24);
            buf[at + 1] = (byte)(value >>> 16);
            buf[at + 2] = (byte)(value >>> 8);
            buf[at + 3] = (byte)value;
        }

        int getInt(final int at)
        {
            return (buf[at] << 24) | ((buf[at + 1] & 0xFF) << 16) | ((buf[at + 2] & 0xFF) << 8) | (buf[at + 3] & 0xFF);
        }
    }
}
