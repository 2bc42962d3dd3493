package mpi;

/**
 * The value-index pair of MAXLOC and MINLOC as a {@link Struct} ({@code MPI.longInt}, Open MPI Java):
 * a {@code long} value at 0 and an {@code int} index at 8, extent 16: {@code MPI.LONG_INT}, which MAXLOC and MINLOC read in native byte order (use {@code MPI.newByteBuffer} or a {@code byte[]}). {@link #getType()} is that predefined type.
 *
 * <pre>{@code
 * ByteBuffer in = MPI.newByteBuffer(n * MPI.longInt.getExtent());
 * LongInt.Data pair = MPI.longInt.getData(in, i);
 * pair.putValue(v);
 * pair.putIndex(rank);
 * MPI.COMM_WORLD.allReduce(in, out, n, MPI.longInt.getType(), MPI.MAXLOC);
 * }</pre>
 *
 * <p>Immutable and shared by every rank.
 */
public final class LongInt extends Struct {
    /** The one instance, {@code MPI.longInt} (public because the per-rank copy of MPI reads it). */
    public static final LongInt INSTANCE = new LongInt();

    private final int value = addLong();
    private final int index = addInt();

    private LongInt() {
        super(Datatype.LONG_INT);
        getType(); // built now: the instance is shared, and immutable from here on
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** The view of one pair in a buffer. Not thread-safe (a cursor for one thread). */
    public final class Data extends Struct.Data {
        public long getValue() {
            return getLong(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(long v) {
            putLong(value, v);
        }

        public void putIndex(int i) {
            putInt(index, i);
        }
    }
}
