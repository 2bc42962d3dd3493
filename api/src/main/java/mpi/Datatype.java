package mpi;

import org.mpjlite.smpdev.BasicType;
import org.mpjlite.smpdev.collective.Layout;

/**
 * An MPI datatype. The predefined types ({@code MPI.INT}, ...) are shared by all ranks. Derived
 * datatypes come with the communicator and datatype work; this class holds what point-to-point and
 * collectives need: the basic element type, its size and extent, and the {@link Layout} of an item.
 *
 * <p>The value-index pair types of MAXLOC and MINLOC: mpiJava's {@code SHORT2}, {@code INT2},
 * {@code LONG2}, {@code FLOAT2}, {@code DOUBLE2} (and Open MPI's {@code INT2}) are two elements of
 * one type per item, value then index, in an array or buffer of that type; Open MPI's
 * {@code SHORT_INT}, {@code LONG_INT}, {@code FLOAT_INT}, {@code DOUBLE_INT} are C structs (value,
 * then an int index at its natural alignment) in a {@code ByteBuffer} or {@code byte[]}, in native
 * byte order. Counts of pair types count pairs; mpiJava offsets count array elements. Pair types are
 * supported by collectives; point-to-point still moves one element per count.
 *
 * <p>Immutable; thread-safe.
 */
public class Datatype {
    // Public because the per-rank copy of MPI (another runtime package) reads them.
    public static final Datatype BYTE = new Datatype(BasicType.BYTE);
    public static final Datatype CHAR = new Datatype(BasicType.CHAR);
    public static final Datatype SHORT = new Datatype(BasicType.SHORT);
    public static final Datatype BOOLEAN = new Datatype(BasicType.BOOLEAN);
    public static final Datatype INT = new Datatype(BasicType.INT);
    public static final Datatype LONG = new Datatype(BasicType.LONG);
    public static final Datatype FLOAT = new Datatype(BasicType.FLOAT);
    public static final Datatype DOUBLE = new Datatype(BasicType.DOUBLE);
    public static final Datatype PACKED = new Datatype(BasicType.PACKED);

    public static final Datatype SHORT2 = new Datatype(Layout.pair(BasicType.SHORT), "MPI.SHORT2");
    public static final Datatype INT2 = new Datatype(Layout.pair(BasicType.INT), "MPI.INT2");
    public static final Datatype LONG2 = new Datatype(Layout.pair(BasicType.LONG), "MPI.LONG2");
    public static final Datatype FLOAT2 = new Datatype(Layout.pair(BasicType.FLOAT), "MPI.FLOAT2");
    public static final Datatype DOUBLE2 = new Datatype(Layout.pair(BasicType.DOUBLE), "MPI.DOUBLE2");
    public static final Datatype SHORT_INT = new Datatype(Layout.struct(BasicType.SHORT, 4, 8), "MPI.SHORT_INT");
    public static final Datatype LONG_INT = new Datatype(Layout.struct(BasicType.LONG, 8, 16), "MPI.LONG_INT");
    public static final Datatype FLOAT_INT = new Datatype(Layout.struct(BasicType.FLOAT, 4, 8), "MPI.FLOAT_INT");
    public static final Datatype DOUBLE_INT = new Datatype(Layout.struct(BasicType.DOUBLE, 8, 16), "MPI.DOUBLE_INT");

    /** The storage type: what the buffer holds and what is copied. */
    final BasicType basic;
    /** How an item is stored: {@link #basic} elements per item, and the value-index parts of pairs. */
    final Layout layout;
    private final String name;

    Datatype(BasicType basic) {
        this(Layout.basic(basic), basic.mpiName());
    }

    private Datatype(Layout layout, String name) {
        this.basic = layout.storage();
        this.layout = layout;
        this.name = name;
    }

    /** Elements of the storage type per item: 1, or 2 for pairs, or the struct's bytes. */
    final int units() {
        return layout.units();
    }

    /** Size of one item in base-type units (mpiJava: 1 for basic types, 2 for pairs). */
    public int Size() {
        return layout.units();
    }

    /** Size in bytes (Open MPI: {@code getSize}). */
    public int getSize() {
        return layout.units() * basic.size();
    }

    /** Extent in elements of the base type (mpiJava counts in base-type units). */
    public int Extent() {
        return layout.units();
    }

    /** Extent in bytes. */
    public int getExtent() {
        return layout.units() * basic.size();
    }

    public int Lb() {
        return 0;
    }

    public int Ub() {
        return layout.units();
    }

    public int getLb() {
        return 0;
    }

    /** Predefined types are always committed. */
    public void Commit() {
    }

    public void commit() {
    }

    /** Predefined types cannot be freed; freeing them is a no-op. */
    public void free() {
    }

    public void Free() {
    }

    public boolean isNull() {
        return false;
    }

    /** Bytes per element, as MPJ Express's {@code getByteSize}. */
    public int getByteSize() {
        return getSize();
    }

    @Override
    public String toString() {
        return name;
    }
}
