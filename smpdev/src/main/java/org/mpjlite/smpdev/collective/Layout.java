package org.mpjlite.smpdev.collective;

import org.mpjlite.smpdev.data.BasicType;

/**
 * How one item of an MPI datatype is stored, as far as collectives need to know: the storage type
 * and how many storage units one item takes, and, for the value-index pairs of MAXLOC and MINLOC,
 * where the value and the index are.
 *
 * <ul>
 *   <li>basic: one unit of a basic type ({@code MPI.INT});</li>
 *   <li>pair: two units of one type, value then index ({@code MPI.INT2}, mpiJava's {@code DOUBLE2}...),
 *       in an array or buffer of that type;</li>
 *   <li>struct: a C struct of a value and an {@code int} index in bytes ({@code MPI.DOUBLE_INT}...),
 *       in a {@code byte[]} or {@code ByteBuffer}, read in native byte order as Open MPI's;</li>
 *   <li>complex: two units of {@code float} or {@code double}, real then imaginary part
 *       ({@code MPI.FLOAT_COMPLEX}, {@code MPI.DOUBLE_COMPLEX}); no index ({@link #isComplex}).</li>
 * </ul>
 *
 * @param storage     the basic type the items are stored as (and copied as)
 * @param units       storage units per item
 * @param value       the type of the value (the basic type itself for basic items)
 * @param indexOffset where the int index is, in storage units (pair) or bytes (struct); -1: none;
 *                    -2: none, and the item is a complex number
 */
public record Layout(BasicType storage, int units, BasicType value, int indexOffset) {
    /** The {@link #indexOffset} of a complex number: it has no index, and PROD multiplies it as a complex. */
    private static final int COMPLEX = -2;

    public static Layout basic(BasicType type) {
        return new Layout(type, 1, type, -1);
    }

    public static Layout pair(BasicType type) {
        return new Layout(type, 2, type, 1);
    }

    /** A struct of {@code value} at byte 0 and an int index at byte {@code indexOffset}, {@code extent} bytes. */
    public static Layout struct(BasicType value, int indexOffset, int extent) {
        return new Layout(BasicType.BYTE, extent, value, indexOffset);
    }

    /** A complex number of {@code type} (FLOAT or DOUBLE): real then imaginary part. */
    public static Layout complex(BasicType type) {
        return new Layout(type, 2, type, COMPLEX);
    }

    public boolean isComplex() {
        return indexOffset == COMPLEX;
    }

    public boolean isBasic() {
        return indexOffset < 0;
    }

    public boolean isStruct() {
        return storage == BasicType.BYTE && value != BasicType.BYTE;
    }
}
