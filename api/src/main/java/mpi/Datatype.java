package mpi;

import org.mpjlite.smpdev.BasicType;

/**
 * An MPI datatype. The predefined types ({@code MPI.INT}, ...) are shared by all ranks. Derived
 * datatypes come with the communicator and datatype work; this class holds what point-to-point
 * needs: the basic element type, its size and extent.
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

    final BasicType basic;

    Datatype(BasicType basic) {
        this.basic = basic;
    }

    /** Size in bytes of one element (mpiJava: the size of the type in its base type's units is 1). */
    public int Size() {
        return 1;
    }

    /** Size in bytes (Open MPI: {@code getSize}). */
    public int getSize() {
        return basic.size();
    }

    /** Extent in elements of the base type (mpiJava counts in base-type units). */
    public int Extent() {
        return 1;
    }

    /** Extent in bytes. */
    public int getExtent() {
        return basic.size();
    }

    public int Lb() {
        return 0;
    }

    public int Ub() {
        return 1;
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
        return basic.size();
    }

    @Override
    public String toString() {
        return basic.mpiName();
    }
}
