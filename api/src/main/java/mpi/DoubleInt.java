package mpi;

/**
 * The value-index pair of MAXLOC and MINLOC as a {@link Struct} ({@code MPI.doubleInt}, Open MPI Java):
 * a {@code double} value at 0 and an {@code int} index at 8, extent 16: {@code MPI.DOUBLE_INT}, which MAXLOC and MINLOC read in native byte order (use {@code MPI.newByteBuffer} or a {@code byte[]}). {@link #getType()} is that predefined type.
 *
 * <pre>{@code
 * ByteBuffer in = MPI.newByteBuffer(n * MPI.doubleInt.getExtent());
 * DoubleInt.Data pair = MPI.doubleInt.getData(in, i);
 * pair.putValue(v);
 * pair.putIndex(rank);
 * MPI.COMM_WORLD.allReduce(in, out, n, MPI.doubleInt.getType(), MPI.MAXLOC);
 * }</pre>
 *
 * <p>Immutable and shared by every rank.
 */
public final class DoubleInt extends Struct {
    /** The one instance, {@code MPI.doubleInt} (public because the per-rank copy of MPI reads it). */
    public static final DoubleInt INSTANCE = new DoubleInt();

    private final int value = addDouble();
    private final int index = addInt();

    private DoubleInt() {
        super(Datatype.DOUBLE_INT);
        getType(); // built now: the instance is shared, and immutable from here on
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** The view of one pair in a buffer. Not thread-safe (a cursor for one thread). */
    public final class Data extends Struct.Data {
        public double getValue() {
            return getDouble(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(double v) {
            putDouble(value, v);
        }

        public void putIndex(int i) {
            putInt(index, i);
        }
    }
}
