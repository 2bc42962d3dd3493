package mpi;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a slice of a buffer starts in the buffer or array it was cut from, so that a datatype with a
 * negative displacement or lower bound can address the elements before the slice, as Open MPI does: its
 * Java binding passes C the slice's address, and C pointer arithmetic reaches the memory before it.
 * MPJ Lite addresses the parent instead and reports {@code MPI.ERR_BUFFER} only for what lies outside
 * the parent.
 *
 * <p>A heap buffer knows its parent (its backing array and offset). A direct buffer does not, so
 * {@link MPI#slice} records the parent of each direct slice it makes; a direct buffer sliced another
 * way ({@code ByteBuffer.slice()}) has no known parent, and its start is a hard limit.
 *
 * <p>Thread-safe: the record of direct slices is a concurrent map keyed by weak identity references,
 * purged of collected slices as new ones are recorded; a slice never pins itself.
 */
final class Slices {
    /** The buffer or array a slice was cut from, and the element of it where the slice starts. */
    record Parent(Object buffer, int offset) {
    }

    private static final Map<Identity, Parent> DIRECT = new ConcurrentHashMap<>();
    private static final ReferenceQueue<Object> COLLECTED = new ReferenceQueue<>();

    private Slices() {
    }

    /** A weak reference equal to another one to the same object. */
    private static final class Identity extends WeakReference<Object> {
        private final int hash;

        Identity(Object referent, ReferenceQueue<Object> queue) {
            super(referent, queue);
            hash = System.identityHashCode(referent);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o == this || o instanceof Identity other && other.get() != null && other.get() == get();
        }
    }

    /**
     * Records that {@code slice} starts at element {@code offset} of {@code parent} if it is direct (a
     * heap slice knows it already); returns the slice. Called by {@link MPI#slice}.
     */
    static <B extends Buffer> B direct(B slice, B parent, int offset) {
        if (!slice.isDirect()) {
            return slice;
        }
        for (Object gone; (gone = COLLECTED.poll()) != null;) {
            DIRECT.remove(gone);
        }
        Parent grand = DIRECT.get(new Identity(parent, null));
        DIRECT.put(new Identity(slice, COLLECTED),
            grand == null ? new Parent(parent, offset) : new Parent(grand.buffer(), grand.offset() + offset));
        return slice;
    }

    /**
     * When {@code count} items of the derived {@code type} from element {@code offset} reach before
     * the start of {@code buf} and buf is a slice of a known parent, that parent and where the same
     * element lies in it; null when the call addresses {@code buf} and {@code offset} as given (every
     * call but those, so the message path allocates nothing here).
     */
    static Parent addressed(Object buf, int offset, int count, Datatype type) {
        if (!(buf instanceof Buffer b) || type == null || type.map == null || type.direct() || count <= 0
            || type.map.size() == 0) {
            return null;
        }
        long lo = (long) offset * type.map.unit() + type.map.trueLb() + Math.min(0, (count - 1L) * type.map.extent());
        if (lo >= 0) {
            return null;
        }
        Parent parent = parentOf(b);
        if (parent == null) {
            return null;
        }
        // offset counts the type's storage units; the slice's start counts the buffer's elements.
        long start = (long) parent.offset() * (b instanceof ByteBuffer ? 1 : Reinterpreted.elementSize(b));
        int unit = type.map.unit();
        return start % unit != 0 ? null : new Parent(parent.buffer(), (int) (start / unit) + offset);
    }

    /** The buffer a call addresses: the parent {@link #addressed} found, or {@code buf}. */
    static Object buffer(Parent addressed, Object buf) {
        return addressed == null ? buf : addressed.buffer();
    }

    /** The offset a call addresses: in the parent {@link #addressed} found, or {@code offset}. */
    static int offset(Parent addressed, int offset) {
        return addressed == null ? offset : addressed.offset();
    }

    private static Parent parentOf(Buffer b) {
        if (b.hasArray()) {
            if (b.arrayOffset() == 0) {
                return null;
            }
            // A ByteBuffer's elements are read in its byte order: the parent keeps it.
            Object array = b instanceof ByteBuffer bb ? ByteBuffer.wrap(bb.array()).order(bb.order()) : b.array();
            return new Parent(array, b.arrayOffset());
        }
        return b.isDirect() ? DIRECT.get(new Identity(b, null)) : null;
    }
}
