package mpi;

/**
 * The value-index pair of MAXLOC and MINLOC as a {@link Struct} ({@code MPI.shortInt}, Open MPI Java):
 * a {@code short} value at 0 and an {@code int} index at 4, extent 8: {@code MPI.SHORT_INT}, which MAXLOC and MINLOC read in native byte order (use {@code MPI.newByteBuffer} or a {@code byte[]}). {@link #getType()} is that predefined type.
 *
 * <pre>{@code
 * ByteBuffer in = MPI.newByteBuffer(n * MPI.shortInt.getExtent());
 * ShortInt.Data pair = MPI.shortInt.getData(in, i);
 * pair.putValue(v);
 * pair.putIndex(rank);
 * MPI.COMM_WORLD.allReduce(in, out, n, MPI.shortInt.getType(), MPI.MAXLOC);
 * }</pre>
 *
 * <p>Immutable and shared by every rank.
 */
public final class ShortInt extends Struct {
    /** The one instance, {@code MPI.shortInt} (public because the per-rank copy of MPI reads it). */
    public static final ShortInt INSTANCE = new ShortInt();

    private final int value = addShort();
    private final int index = addInt();

    private ShortInt() {
        super(Datatype.SHORT_INT);
        getType(); // built now: the instance is shared, and immutable from here on
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** The view of one pair in a buffer. Not thread-safe (a cursor for one thread). */
    public final class Data extends Struct.Data {
        public short getValue() {
            return getShort(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(short v) {
            putShort(value, v);
        }

        public void putIndex(int i) {
            putInt(index, i);
        }
    }
}
