package mpi;

/**
 * The value-index pair of MAXLOC and MINLOC as a {@link Struct} ({@code MPI.int2}, Open MPI Java):
 * two {@code int}s, value then index: {@code MPI.INT2}, which in a {@code ByteBuffer} is read in the buffer's byte order. {@link #getType()} is that predefined type.
 *
 * <pre>{@code
 * ByteBuffer in = MPI.newByteBuffer(n * MPI.int2.getExtent());
 * Int2.Data pair = MPI.int2.getData(in, i);
 * pair.putValue(v);
 * pair.putIndex(rank);
 * MPI.COMM_WORLD.allReduce(in, out, n, MPI.int2.getType(), MPI.MAXLOC);
 * }</pre>
 *
 * <p>Immutable and shared by every rank.
 */
public final class Int2 extends Struct {
    /** The one instance, {@code MPI.int2} (public because the per-rank copy of MPI reads it). */
    public static final Int2 INSTANCE = new Int2();

    private final int value = addInt();
    private final int index = addInt();

    private Int2() {
        super(Datatype.INT2);
        getType(); // built now: the instance is shared, and immutable from here on
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** The view of one pair in a buffer. Not thread-safe (a cursor for one thread). */
    public final class Data extends Struct.Data {
        public int getValue() {
            return getInt(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(int v) {
            putInt(value, v);
        }

        public void putIndex(int i) {
            putInt(index, i);
        }
    }
}
