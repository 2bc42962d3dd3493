package mpjbuf;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Java serialization of object elements, with classes resolved in a caller-chosen class loader (the
 * receiving rank's, which may differ from the sender's). Used by the {@link Type#OBJECT} sections
 * of a {@link Buffer} and by packed data that carries objects.
 *
 * <p>Stateless; thread-safe.
 */
public final class ObjectStreams
{
    private static final Map<String, Class<?>> PRIMITIVES = Map.of(
        "boolean", boolean.class, "byte", byte.class, "char", char.class, "short", short.class,
        "int", int.class, "long", long.class, "float", float.class, "double", double.class, "void", void.class);

    private ObjectStreams()
    {
    }

    /**
     * Serialize {@code src[off .. off+n)} as one stream.
     *
     * @throws IllegalArgumentException if an object (or one it references) is not serializable.
     */
    public static byte[] serialize(final Object[] src, final int off, final int n)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes))
        {
            for (int i = 0; i < n; i++)
            {
                out.writeObject(src[off + i]);
            }
        }
        catch (final NotSerializableException ex)
        {
            throw new IllegalArgumentException(ex.getMessage() + " is not Serializable", ex);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return bytes.toByteArray();
    }

    /**
     * Deserialize {@code n} objects of the stream in {@code bytes[off .. off+length)} into
     * {@code dst[dstOff ..]}, resolving classes in {@code loader}.
     *
     * @throws IllegalStateException if a class is not found in {@code loader}.
     */
    public static void deserialize(final byte[] bytes, final int off, final int length, final Object[] dst,
        final int dstOff, final int n, final ClassLoader loader)
    {
        try (LoaderInputStream in = new LoaderInputStream(new ByteArrayInputStream(bytes, off, length)))
        {
            in.setLoader(loader);
            for (int i = 0; i < n; i++)
            {
                dst[dstOff + i] = in.readObject();
            }
        }
        catch (final ClassNotFoundException ex)
        {
            throw new IllegalStateException("class " + ex.getMessage() + " not found in class loader " + loader, ex);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** Resolves classes in a caller-chosen loader instead of the latest user-defined loader on the stack. */
    static final class LoaderInputStream extends ObjectInputStream
    {
        private ClassLoader loader;

        LoaderInputStream(final InputStream in) throws IOException
        {
            super(in);
        }

        void setLoader(final ClassLoader loader)
        {
            this.loader = loader;
        }

        protected Class<?> resolveClass(final ObjectStreamClass desc) throws ClassNotFoundException
        {
            try
            {
                return Class.forName(desc.getName(), false, loader);
            }
            catch (final ClassNotFoundException ex)
            {
                final Class<?> primitive = PRIMITIVES.get(desc.getName());
                if (primitive != null)
                {
                    return primitive;
                }
                throw ex;
            }
        }
    }
}
