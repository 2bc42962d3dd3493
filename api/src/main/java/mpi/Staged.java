package mpi;

import org.mpjlite.smpdev.data.Packing;

/**
 * A user buffer of a non-contiguous datatype staged for a collective: the collective engine works on
 * contiguous storage, so the items are packed by {@link Packing}, the packer of point-to-point messages
 * too) into a temporary of the type's packed form before the collective, and unpacked back after
 * it when the collective writes the buffer. The whole item range is packed, so
 * that unpacking it rewrites parts the collective did not write with what they held.
 *
 * <p>Confined to the calling rank's thread (or to the thread that completes a non-blocking call).
 */
final class Staged {
    final Object temp;
    private final Object user;
    private final int offset;
    private final int items;
    private final Datatype type;
    private final boolean written;

    private Staged(Object user, int offset, int items, Datatype type, boolean written) {
        this.user = user;
        this.offset = offset;
        this.items = items;
        this.type = type;
        this.written = written;
        this.temp = Packing.packedCopy(user, (long) offset * type.unit(), items, type.map);
    }

    /**
     * Stages {@code items} items of {@code type} from {@code offset} of the buffer named
     * {@code which}, or returns null when the type is direct (no staging needed) or the buffer
     * takes no part on this rank.
     */
    static Staged of(String call, String which, Object buf, int offset, int items, Datatype type, boolean written) {
        if (type == null || type.direct() || buf == null) {
            return null;
        }
        Check.buffer(call, which, buf, offset, items, type.units(), type);
        if (written) {
            Check.writable(call, buf);
        }
        return new Staged(buf, offset, items, type, written);
    }

    /** The buffer the collective uses: the temporary if staged, else the user's. */
    static Object buffer(Staged s, Object buf) {
        return s == null ? buf : s.temp;
    }

    static int offset(Staged s, int offset) {
        return s == null ? offset : 0;
    }

    /** The type the collective uses: the packed form of a non-contiguous type (or the null it got). */
    static Datatype packed(Datatype type) {
        return type == null ? null : type.packed();
    }

    /**
     * Unpacks the written stages once the collective is done: now if it blocked ({@code request}
     * null), else when the request completes. Returns the request.
     */
    static Request finish(Request request, Staged... stages) {
        Runnable unpack = () -> {
            for (Staged s : stages) {
                if (s != null && s.written) {
                    Packing.unpack(s.temp, 0, s.user, (long) s.offset * s.type.unit(), s.items, s.type.map, null);
                }
            }
        };
        if (request == null) {
            unpack.run();
        } else {
            request.onCompletion = unpack;
        }
        return request;
    }

    /** The item range {@code [0, max(displs[i] + counts[i]))} a v-collective's buffer spans. */
    static int span(int[] counts, int[] displs, int size) {
        long max = 0;
        for (int i = 0; i < size && counts != null && displs != null && i < counts.length && i < displs.length; i++) {
            max = Math.max(max, (long) displs[i] + counts[i]);
        }
        return (int) Math.min(max, Integer.MAX_VALUE);
    }
}
