package mpi;

/**
 * The value-index pair of MAXLOC and MINLOC as a {@link Struct} ({@code MPI.floatInt}, Open MPI Java):
 * a {@code float} value at 0 and an {@code int} index at 4, extent 8: {@code MPI.FLOAT_INT}, which MAXLOC and MINLOC read in native byte order (use {@code MPI.newByteBuffer} or a {@code byte[]}). {@link #getType()} is that predefined type.
 *
 * <pre>{@code
 * ByteBuffer in = MPI.newByteBuffer(n * MPI.floatInt.getExtent());
 * FloatInt.Data pair = MPI.floatInt.getData(in, i);
 * pair.putValue(v);
 * pair.putIndex(rank);
 * MPI.COMM_WORLD.allReduce(in, out, n, MPI.floatInt.getType(), MPI.MAXLOC);
 * }</pre>
 *
 * <p>Immutable and shared by every rank.
 */
public final class FloatInt extends Struct {
    /** The one instance, {@code MPI.floatInt} (public because the per-rank copy of MPI reads it). */
    public static final FloatInt INSTANCE = new FloatInt();

    private final int value = addFloat();
    private final int index = addInt();

    private FloatInt() {
        super(Datatype.FLOAT_INT);
        getType(); // built now: the instance is shared, and immutable from here on
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** The view of one pair in a buffer. Not thread-safe (a cursor for one thread). */
    public final class Data extends Struct.Data {
        public float getValue() {
            return getFloat(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(float v) {
            putFloat(value, v);
        }

        public void putIndex(int i) {
            putInt(index, i);
        }
    }
}
