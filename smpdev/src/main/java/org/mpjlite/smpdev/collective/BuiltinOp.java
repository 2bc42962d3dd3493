package org.mpjlite.smpdev.collective;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.mpjlite.smpdev.data.BasicType;

/**
 * The predefined reduction operations of MPI ({@code MPI.SUM}...), with Open MPI's {@code REPLACE}
 * and {@code NO_OP}, and the types each applies to:
 * <ul>
 *   <li>MAX, MIN, SUM, PROD: byte, short, char, int, long, float, double;</li>
 *   <li>LAND, LOR, LXOR, BAND, BOR, BXOR: boolean and the integer types (logical ops take nonzero as
 *       true and yield 1 or 0);</li>
 *   <li>MAXLOC, MINLOC: value-index pairs and structs ({@link Layout}); ties keep the lower index;</li>
 *   <li>SUM, PROD on complex numbers ({@link Layout#complex}): part by part, and complex multiplication;</li>
 *   <li>REPLACE ({@code inout = in}) and NO_OP ({@code inout} unchanged): every type.</li>
 * </ul>
 * Floating-point MAX and MIN propagate NaN. Immutable; thread-safe.
 */
public enum BuiltinOp {
    MAX, MIN, SUM, PROD, LAND, BAND, LOR, BOR, LXOR, BXOR, MAXLOC, MINLOC, REPLACE, NO_OP;

    /**
     * This operation bound to each basic type (null where undefined), made once when the class is
     * initialized, which publishes them to every thread. Every member of a reduction publishes its
     * operation in its part and the others compare it: a fresh object per call would be one more
     * cache line to fetch from the core that just wrote it, on every collective.
     */
    private final Reduction[] onBasic = new Reduction[BasicType.values().length];

    static {
        for (BuiltinOp op : values()) {
            for (BasicType t : BasicType.values()) {
                op.onBasic[t.ordinal()] = op.bind(Layout.basic(t));
            }
        }
    }

    /** The operation on items of {@code layout}, or null when MPI does not define it for that type. */
    public Reduction on(Layout layout) {
        // Compared field by field: building Layout.basic(...) to compare with costs an allocation per call.
        boolean basic = layout.units() == 1 && layout.indexOffset() < 0 && layout.value() == layout.storage();
        return basic ? onBasic[layout.storage().ordinal()] : bind(layout);
    }

    private Reduction bind(Layout layout) {
        if (layout.storage() == BasicType.OBJECT) {
            return null;
        }
        if (this == REPLACE || this == NO_OP) {
            return new Builtin(this, layout);
        }
        if (layout.isComplex()) {
            return this == SUM || this == PROD ? new Builtin(this, layout) : null;
        }
        boolean loc = this == MAXLOC || this == MINLOC;
        if (!layout.isBasic()) {
            return loc ? new Builtin(this, layout) : null;
        }
        if (loc) {
            return null;
        }
        BasicType t = layout.storage();
        boolean bitwise = this == LAND || this == LOR || this == LXOR || this == BAND || this == BOR || this == BXOR;
        return switch (t) {
            case BOOLEAN -> bitwise ? new Builtin(this, layout) : null;
            case FLOAT, DOUBLE -> bitwise ? null : new Builtin(this, layout);
            case PACKED -> null;
            default -> new Builtin(this, layout);
        };
    }

    /** One operation bound to one layout. */
    private record Builtin(BuiltinOp op, Layout layout) implements Reduction {
        @Override
        public BuiltinOp builtin() {
            return op;
        }

        @Override
        public void combine(Object in, int inIndex, Object inout, int inoutIndex, int units) {
            if (op == NO_OP) {
                return;
            }
            if (op == REPLACE) {
                System.arraycopy(in, inIndex, inout, inoutIndex, units);
            } else if (op == MAXLOC || op == MINLOC) {
                locs(op == MAXLOC, layout, in, inIndex, inout, inoutIndex, units);
            } else if (op == PROD && layout.isComplex()) {
                complexProducts(layout.storage(), in, inIndex, inout, inoutIndex, units);
            } else {
                basic(op, layout.storage(), in, inIndex, inout, inoutIndex, units);
            }
        }

        @Override
        public int unitsPerItem() {
            return layout.units();
        }
    }

    private static void basic(BuiltinOp op, BasicType type, Object in, int i, Object inout, int j, int n) {
        switch (type) {
            case BYTE -> bytes(op, (byte[]) in, i, (byte[]) inout, j, n);
            case SHORT -> shorts(op, (short[]) in, i, (short[]) inout, j, n);
            case CHAR -> chars(op, (char[]) in, i, (char[]) inout, j, n);
            case INT -> ints(op, (int[]) in, i, (int[]) inout, j, n);
            case LONG -> longs(op, (long[]) in, i, (long[]) inout, j, n);
            case FLOAT -> floats(op, (float[]) in, i, (float[]) inout, j, n);
            case DOUBLE -> doubles(op, (double[]) in, i, (double[]) inout, j, n);
            case BOOLEAN -> booleans(op, (boolean[]) in, i, (boolean[]) inout, j, n);
            default -> throw new IllegalArgumentException(op + " on " + type);
        }
    }

    /** {@code inout = in * inout} for complex numbers stored real, imaginary: {@code (a+bi)(c+di) = (ac-bd) + (ad+bc)i}. */
    private static void complexProducts(BasicType type, Object in, int i, Object inout, int j, int units) {
        if (type == BasicType.FLOAT) {
            float[] a = (float[]) in;
            float[] b = (float[]) inout;
            for (int k = 0; k < units; k += 2) {
                float re = a[i + k] * b[j + k] - a[i + k + 1] * b[j + k + 1];
                float im = a[i + k] * b[j + k + 1] + a[i + k + 1] * b[j + k];
                b[j + k] = re;
                b[j + k + 1] = im;
            }
        } else {
            double[] a = (double[]) in;
            double[] b = (double[]) inout;
            for (int k = 0; k < units; k += 2) {
                double re = a[i + k] * b[j + k] - a[i + k + 1] * b[j + k + 1];
                double im = a[i + k] * b[j + k + 1] + a[i + k + 1] * b[j + k];
                b[j + k] = re;
                b[j + k + 1] = im;
            }
        }
    }

    private static void booleans(BuiltinOp op, boolean[] a, int i, boolean[] b, int j, int n) {
        switch (op) {
            case LAND, BAND -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] &= a[i + k];
                }
            }
            case LOR, BOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] |= a[i + k];
                }
            }
            case LXOR, BXOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] ^= a[i + k];
                }
            }
            default -> throw new IllegalArgumentException(op + " on boolean");
        }
    }

    private static void bytes(BuiltinOp op, byte[] a, int i, byte[] b, int j, int n) {
        switch (op) {
            case MAX -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = a[i + k] > b[j + k] ? a[i + k] : b[j + k];
                }
            }
            case MIN -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = a[i + k] < b[j + k] ? a[i + k] : b[j + k];
                }
            }
            case SUM -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (byte) (a[i + k] + b[j + k]);
                }
            }
            case PROD -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (byte) (a[i + k] * b[j + k]);
                }
            }
            case BAND -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (byte) (a[i + k] & b[j + k]);
                }
            }
            case BOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (byte) (a[i + k] | b[j + k]);
                }
            }
            case BXOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (byte) (a[i + k] ^ b[j + k]);
                }
            }
            case LAND -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (byte) (a[i + k] != 0 && b[j + k] != 0 ? 1 : 0);
                }
            }
            case LOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (byte) (a[i + k] != 0 || b[j + k] != 0 ? 1 : 0);
                }
            }
            case LXOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (byte) ((a[i + k] != 0) != (b[j + k] != 0) ? 1 : 0);
                }
            }
            default -> throw new IllegalArgumentException(op + " on byte");
        }
    }

    private static void shorts(BuiltinOp op, short[] a, int i, short[] b, int j, int n) {
        switch (op) {
            case MAX -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = a[i + k] > b[j + k] ? a[i + k] : b[j + k];
                }
            }
            case MIN -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = a[i + k] < b[j + k] ? a[i + k] : b[j + k];
                }
            }
            case SUM -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (short) (a[i + k] + b[j + k]);
                }
            }
            case PROD -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (short) (a[i + k] * b[j + k]);
                }
            }
            case BAND -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (short) (a[i + k] & b[j + k]);
                }
            }
            case BOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (short) (a[i + k] | b[j + k]);
                }
            }
            case BXOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (short) (a[i + k] ^ b[j + k]);
                }
            }
            case LAND -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (short) (a[i + k] != 0 && b[j + k] != 0 ? 1 : 0);
                }
            }
            case LOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (short) (a[i + k] != 0 || b[j + k] != 0 ? 1 : 0);
                }
            }
            case LXOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (short) ((a[i + k] != 0) != (b[j + k] != 0) ? 1 : 0);
                }
            }
            default -> throw new IllegalArgumentException(op + " on short");
        }
    }

    private static void chars(BuiltinOp op, char[] a, int i, char[] b, int j, int n) {
        switch (op) {
            case MAX -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = a[i + k] > b[j + k] ? a[i + k] : b[j + k];
                }
            }
            case MIN -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = a[i + k] < b[j + k] ? a[i + k] : b[j + k];
                }
            }
            case SUM -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (char) (a[i + k] + b[j + k]);
                }
            }
            case PROD -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (char) (a[i + k] * b[j + k]);
                }
            }
            case BAND -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (char) (a[i + k] & b[j + k]);
                }
            }
            case BOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (char) (a[i + k] | b[j + k]);
                }
            }
            case BXOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (char) (a[i + k] ^ b[j + k]);
                }
            }
            case LAND -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (char) (a[i + k] != 0 && b[j + k] != 0 ? 1 : 0);
                }
            }
            case LOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (char) (a[i + k] != 0 || b[j + k] != 0 ? 1 : 0);
                }
            }
            case LXOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (char) ((a[i + k] != 0) != (b[j + k] != 0) ? 1 : 0);
                }
            }
            default -> throw new IllegalArgumentException(op + " on char");
        }
    }

    private static void ints(BuiltinOp op, int[] a, int i, int[] b, int j, int n) {
        switch (op) {
            case MAX -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = a[i + k] > b[j + k] ? a[i + k] : b[j + k];
                }
            }
            case MIN -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = a[i + k] < b[j + k] ? a[i + k] : b[j + k];
                }
            }
            case SUM -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] + b[j + k]);
                }
            }
            case PROD -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] * b[j + k]);
                }
            }
            case BAND -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] & b[j + k]);
                }
            }
            case BOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] | b[j + k]);
                }
            }
            case BXOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] ^ b[j + k]);
                }
            }
            case LAND -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] != 0 && b[j + k] != 0 ? 1 : 0);
                }
            }
            case LOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] != 0 || b[j + k] != 0 ? 1 : 0);
                }
            }
            case LXOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = ((a[i + k] != 0) != (b[j + k] != 0) ? 1 : 0);
                }
            }
            default -> throw new IllegalArgumentException(op + " on int");
        }
    }

    private static void longs(BuiltinOp op, long[] a, int i, long[] b, int j, int n) {
        switch (op) {
            case MAX -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = a[i + k] > b[j + k] ? a[i + k] : b[j + k];
                }
            }
            case MIN -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = a[i + k] < b[j + k] ? a[i + k] : b[j + k];
                }
            }
            case SUM -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] + b[j + k]);
                }
            }
            case PROD -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] * b[j + k]);
                }
            }
            case BAND -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] & b[j + k]);
                }
            }
            case BOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] | b[j + k]);
                }
            }
            case BXOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] ^ b[j + k]);
                }
            }
            case LAND -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] != 0 && b[j + k] != 0 ? 1 : 0);
                }
            }
            case LOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] != 0 || b[j + k] != 0 ? 1 : 0);
                }
            }
            case LXOR -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = ((a[i + k] != 0) != (b[j + k] != 0) ? 1 : 0);
                }
            }
            default -> throw new IllegalArgumentException(op + " on long");
        }
    }

    private static void floats(BuiltinOp op, float[] a, int i, float[] b, int j, int n) {
        switch (op) {
            case MAX -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] > b[j + k] || a[i + k] != a[i + k]) ? a[i + k] : b[j + k];
                }
            }
            case MIN -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] < b[j + k] || a[i + k] != a[i + k]) ? a[i + k] : b[j + k];
                }
            }
            case SUM -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] + b[j + k]);
                }
            }
            case PROD -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] * b[j + k]);
                }
            }
            default -> throw new IllegalArgumentException(op + " on float");
        }
    }

    /** True for MAX, MIN, SUM and PROD: the operations {@link #combine(double, double)} applies. */
    boolean isArithmetic() {
        return this == MAX || this == MIN || this == SUM || this == PROD;
    }

    /**
     * One element {@code a} combined into the accumulator {@code acc}, as {@link #doubles} combines
     * each element of an array, for the caller that reads its elements one by one (the small
     * reductions in the epoch lines). Only for {@link #isArithmetic} operations.
     */
    double combine(double a, double acc) {
        return switch (this) {
            case MAX -> a > acc || a != a ? a : acc;
            case MIN -> a < acc || a != a ? a : acc;
            case SUM -> a + acc;
            case PROD -> a * acc;
            default -> throw new IllegalArgumentException(this + " on double");
        };
    }

    /**
     * True for the operations {@link #combine(long, long)} applies: MAX, MIN, SUM, PROD and the
     * logical and bitwise ones (not MAXLOC, MINLOC, REPLACE, NO_OP).
     */
    boolean isElementwiseOnIntegers() {
        return this != MAXLOC && this != MINLOC && this != REPLACE && this != NO_OP;
    }

    /**
     * One element {@code a} combined into the accumulator {@code acc}, as {@link #longs} combines
     * each element of an array (the small reductions in the epoch lines). Ints are combined as
     * longs and narrowed: every one of these operations gives an int's low 32 bits the same from
     * the sign-extended values, as {@link #ints} does in int arithmetic. Only for
     * {@link #isElementwiseOnIntegers} operations.
     */
    long combine(long a, long acc) {
        return switch (this) {
            case MAX -> a > acc ? a : acc;
            case MIN -> a < acc ? a : acc;
            case SUM -> a + acc;
            case PROD -> a * acc;
            case BAND -> a & acc;
            case BOR -> a | acc;
            case BXOR -> a ^ acc;
            case LAND -> a != 0 && acc != 0 ? 1 : 0;
            case LOR -> a != 0 || acc != 0 ? 1 : 0;
            case LXOR -> (a != 0) != (acc != 0) ? 1 : 0;
            default -> throw new IllegalArgumentException(this + " on long");
        };
    }

    /** {@link #combine(double, double)} for floats, in float arithmetic, as {@link #floats}. */
    float combine(float a, float acc) {
        return switch (this) {
            case MAX -> a > acc || a != a ? a : acc;
            case MIN -> a < acc || a != a ? a : acc;
            case SUM -> a + acc;
            case PROD -> a * acc;
            default -> throw new IllegalArgumentException(this + " on float");
        };
    }

    private static void doubles(BuiltinOp op, double[] a, int i, double[] b, int j, int n) {
        switch (op) {
            case MAX -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] > b[j + k] || a[i + k] != a[i + k]) ? a[i + k] : b[j + k];
                }
            }
            case MIN -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] < b[j + k] || a[i + k] != a[i + k]) ? a[i + k] : b[j + k];
                }
            }
            case SUM -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] + b[j + k]);
                }
            }
            case PROD -> {
                for (int k = 0; k < n; k++) {
                    b[j + k] = (a[i + k] * b[j + k]);
                }
            }
            default -> throw new IllegalArgumentException(op + " on double");
        }
    }

    // ---- MAXLOC and MINLOC -------------------------------------------------------------------

    private static final VarHandle SHORT_AT = structField(short[].class);
    private static final VarHandle INT_AT = structField(int[].class);
    private static final VarHandle LONG_AT = structField(long[].class);
    private static final VarHandle FLOAT_AT = structField(float[].class);
    private static final VarHandle DOUBLE_AT = structField(double[].class);

    /** Reads a struct field of a pair type from a byte array, in native byte order (as Open MPI's structs). */
    private static VarHandle structField(Class<?> arrayType) {
        return MethodHandles.byteArrayViewVarHandle(arrayType, ByteOrder.nativeOrder());
    }

    /**
     * MAXLOC/MINLOC item by item: the greater (lesser) value wins with its index; equal values keep
     * the lower index. Integer values compare exactly as longs, floating ones as doubles.
     */
    private static void locs(boolean max, Layout l, Object in, int i, Object inout, int j, int n) {
        int u = l.units();
        boolean floating = l.value() == BasicType.FLOAT || l.value() == BasicType.DOUBLE;
        for (int k = 0; k < n; k += u) {
            int a = i + k;
            int b = j + k;
            int cmp = floating ? Double.compare(dvalue(l, in, a), dvalue(l, inout, b))
                : Long.compare(lvalue(l, in, a), lvalue(l, inout, b));
            if (cmp == 0) {
                if (index(l, in, a) < index(l, inout, b)) {
                    copyItem(l, in, a, inout, b);
                }
            } else if ((cmp > 0) == max) {
                copyItem(l, in, a, inout, b);
            }
        }
    }

    private static void copyItem(Layout l, Object from, int a, Object to, int b) {
        System.arraycopy(from, a, to, b, l.units());
    }

    private static double dvalue(Layout l, Object arr, int at) {
        if (l.isStruct()) {
            byte[] b = (byte[]) arr;
            return l.value() == BasicType.FLOAT ? (float) FLOAT_AT.get(b, at) : (double) DOUBLE_AT.get(b, at);
        }
        return l.value() == BasicType.FLOAT ? ((float[]) arr)[at] : ((double[]) arr)[at];
    }

    private static long lvalue(Layout l, Object arr, int at) {
        if (l.isStruct()) {
            return switch (l.value()) {
                case SHORT -> (short) SHORT_AT.get((byte[]) arr, at);
                case INT -> (int) INT_AT.get((byte[]) arr, at);
                default -> (long) LONG_AT.get((byte[]) arr, at);
            };
        }
        return switch (l.value()) {
            case BYTE -> ((byte[]) arr)[at];
            case SHORT -> ((short[]) arr)[at];
            case CHAR -> ((char[]) arr)[at];
            case INT -> ((int[]) arr)[at];
            default -> ((long[]) arr)[at];
        };
    }

    private static double index(Layout l, Object arr, int at) {
        if (l.isStruct()) {
            return (int) INT_AT.get((byte[]) arr, at + l.indexOffset());
        }
        int x = at + l.indexOffset();
        return switch (l.value()) {
            case FLOAT -> ((float[]) arr)[x];
            case DOUBLE -> ((double[]) arr)[x];
            default -> lvalue(l, arr, x);
        };
    }
}
