package org.mpjlite.smpdev.data;

import java.io.Serializable;
import mpjbuf.ObjectStreams;

/**
 * The serializer of {@code MPI.OBJECT} data, for every path that turns objects into bytes: packing
 * ({@code MPI.PACKED}, {@link Packing}) and the API layer's collectives on objects. The object
 * elements of items of a {@link TypeMap} are taken in type-map order and written as one Java
 * serialization stream; reading resolves classes in a given class loader, so that every rank gets
 * copies of its own classes. (Point-to-point messages carry objects in the object sections of a
 * stash, which write the same streams.) Stateless; thread-safe.
 */
public final class ObjectSerializer {
    private ObjectSerializer() {
    }

    /** True when serialization takes {@code element} as it is: null or {@code Serializable}. */
    public static boolean serializable(Object element) {
        return element == null || element instanceof Serializable;
    }

    /** The object elements of {@code items} items, in type-map order (references, not copies). */
    public static Object[] objects(Object buffer, long origin, int items, TypeMap map) {
        Object[] objects = new Object[Math.toIntExact(map.elements() * items)];
        int[] at = new int[1];
        map.walk(origin, items, Long.MAX_VALUE, (type, pos, n) -> {
            System.arraycopy(buffer, (int) pos, objects, at[0], n);
            at[0] += n;
        });
        return objects;
    }

    /**
     * Stores {@code objects}, in type-map order, as the elements of {@code items} items: the inverse
     * of {@link #objects}.
     */
    public static void place(Object[] objects, Object buffer, long origin, int items, TypeMap map) {
        int[] at = new int[1];
        map.walk(origin, items, Long.MAX_VALUE, (type, pos, n) -> {
            System.arraycopy(objects, at[0], buffer, (int) pos, n);
            at[0] += n;
        });
    }

    /**
     * {@code objects} as one serialization stream.
     *
     * @throws IllegalArgumentException if an object (or one it references) is not serializable
     */
    public static byte[] serialize(Object[] objects) {
        return ObjectStreams.serialize(objects, 0, objects.length);
    }

    /**
     * The {@code count} objects of the stream in {@code bytes[offset, offset + length)}, their classes
     * resolved in {@code loader}.
     *
     * @throws IllegalStateException if a class is not found in {@code loader}
     * @throws java.io.UncheckedIOException if the stream is damaged or holds fewer objects
     */
    public static Object[] deserialize(byte[] bytes, int offset, int length, int count, ClassLoader loader) {
        Object[] objects = new Object[count];
        ObjectStreams.deserialize(bytes, offset, length, objects, 0, count, loader);
        return objects;
    }
}
