package org.mpjlite.smpdev.data;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Typed access to a user buffer at a byte position, the addressing of derived datatypes. Arrays
 * and typed NIO buffers are addressed in whole elements (the API checks that a datatype's
 * displacements are); a {@link ByteBuffer} may hold any type at any byte, in its own byte order, or
 * in native order when it holds packed data ({@code MPI.PACKED}, mixed structs in a {@code byte[]}).
 *
 * <p>Stateless; thread-safe.
 */
public final class UserMemory {
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private UserMemory() {
    }

    /** Where {@link Copier} and the stash find an element: an array or NIO buffer, and an element index in it. */
    public record Place(Object target, int index) {
    }

    /**
     * The place of the element of {@code type} at byte {@code pos} of {@code buffer}; {@code packed}:
     * the bytes are packed data, in native byte order.
     */
    public static Place at(Object buffer, long pos, BasicType type, boolean packed) {
        int size = type.size();
        if (buffer instanceof ByteBuffer) {
            ByteBuffer bb = (ByteBuffer) buffer;
            ByteOrder order = packed ? NATIVE : bb.order();
            if (size == 1 || (pos % size == 0 && bb.order() == order)) {
                return new Place(bb, (int) (pos / size));
            }
            ByteBuffer slice = bb.duplicate().clear().position((int) pos).slice().order(order);
            return new Place(slice, 0);
        }
        if (buffer instanceof byte[] && type != BasicType.BYTE && type != BasicType.PACKED) {
            return at(ByteBuffer.wrap((byte[]) buffer).order(NATIVE), pos, type, true);
        }
        return new Place(buffer, (int) (pos / size));
    }

    /** Copies {@code n} elements of {@code type} between two places. */
    public static void copy(Place src, Place dst, int n, BasicType type) {
        Copier.copy(src.target(), src.index(), dst.target(), dst.index(), n, type);
    }
}
