package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.mpjlite.smpdev.collective.BuiltinOp;
import org.mpjlite.smpdev.collective.Reduction;
import org.mpjlite.smpdev.data.Copier;

/**
 * A reduction operation: one of the predefined ones ({@code MPI.SUM}...) or a user function of
 * either dialect ({@link User_function}, {@link UserFunction}). Reductions always combine the
 * contributions in rank order, so commutative and non-commutative operations alike give the
 * result MPI defines, the same on every rank.
 *
 * <p>Immutable, except the remembered choice of an Open MPI function's form (a benign race) and
 * the freed mark. Thread-safe.
 */
public class Op {
    // Public because the per-rank copy of MPI (another runtime package) reads them.
    public static final Op MAX = new Op(BuiltinOp.MAX);
    public static final Op MIN = new Op(BuiltinOp.MIN);
    public static final Op SUM = new Op(BuiltinOp.SUM);
    public static final Op PROD = new Op(BuiltinOp.PROD);
    public static final Op LAND = new Op(BuiltinOp.LAND);
    public static final Op BAND = new Op(BuiltinOp.BAND);
    public static final Op LOR = new Op(BuiltinOp.LOR);
    public static final Op BOR = new Op(BuiltinOp.BOR);
    public static final Op LXOR = new Op(BuiltinOp.LXOR);
    public static final Op BXOR = new Op(BuiltinOp.BXOR);
    public static final Op MAXLOC = new Op(BuiltinOp.MAXLOC);
    public static final Op MINLOC = new Op(BuiltinOp.MINLOC);
    public static final Op REPLACE = new Op(BuiltinOp.REPLACE);
    public static final Op NO_OP = new Op(BuiltinOp.NO_OP);

    private final BuiltinOp builtin;
    private final User_function mpiJavaFunction;
    private final UserFunction openMpiFunction;
    private final boolean commutative;
    /**
     * Set by {@link #free}; volatile so that a thread of the rank other than the one that freed
     * the operation sees it freed.
     */
    private volatile boolean freed;
    /** An Open MPI function that overrides only the array form (learnt on first call). */
    private volatile boolean arraysOnly;

    private Op(BuiltinOp builtin) {
        this(builtin, null, null, true);
    }

    private Op(BuiltinOp builtin, User_function f, UserFunction g, boolean commutative) {
        this.builtin = builtin;
        this.mpiJavaFunction = f;
        this.openMpiFunction = g;
        this.commutative = commutative;
    }

    /** A user operation (mpiJava). */
    public Op(User_function function, boolean commute) {
        this(null, requireFunction(function), null, commute);
    }

    /** A user operation (Open MPI). */
    public Op(UserFunction function, boolean commute) {
        this(null, null, requireFunction(function), commute);
    }

    private static <T> T requireFunction(T function) {
        if (function == null) {
            throw new MPIException(MPI.ERR_OP, "Op: the user function is null");
        }
        return function;
    }

    public boolean isCommutative() {
        return commutative;
    }

    /**
     * Open MPI's MPI_Op_free: the operation becomes null ({@link #isNull()}), and using it again is
     * MPI_ERR_OP; collectives already started with it complete. A predefined operation cannot be
     * freed (MPI_ERR_OP, as Open MPI), nor can one already freed.
     */
    public void free() {
        release("free");
    }

    /**
     * mpiJava's Free: as {@link #free}, except that freeing a predefined operation does nothing (as
     * for predefined datatypes), so that old programs that free every operation keep working.
     */
    public void Free() {
        if (builtin == null) {
            release("Free");
        }
    }

    private void release(String call) {
        if (builtin != null) {
            throw new MPIException(MPI.ERR_OP, call + ": " + this + " is predefined and cannot be freed");
        }
        if (freed) {
            throw new MPIException(MPI.ERR_OP, call + ": " + this + " was freed already");
        }
        freed = true;
    }

    /** True once freed: the operation is then MPI_OP_NULL. */
    public boolean isNull() {
        return freed;
    }

    /** The operation on items of {@code type}, for the engine; ERR_OP when it does not apply. */
    Reduction on(Datatype type, String call) {
        if (freed) {
            throw new MPIException(MPI.ERR_OP, call + ": the operation " + this + " was freed");
        }
        if (builtin != null) {
            Reduction r = type.mixed() && !type.direct() ? null : builtin.on(type.layout);
            if (r == null) {
                throw new MPIException(MPI.ERR_OP, call + ": operation MPI." + builtin + " is not defined for datatype "
                    + type);
            }
            return r;
        }
        int units = type.units();
        return new Reduction() {
            @Override
            public void combine(Object in, int inIndex, Object inout, int inoutIndex, int n) {
                if (mpiJavaFunction != null) {
                    mpiJavaFunction.Call(in, inIndex, inout, inoutIndex, n / units, type);
                } else {
                    callOpenMpi(in, inIndex, inout, inoutIndex, n, type);
                }
            }

            @Override
            public int unitsPerItem() {
                return units;
            }
        };
    }

    /**
     * Open MPI calls the buffer form with native-order buffers; functions that only override the
     * array form get arrays, from index 0.
     */
    private void callOpenMpi(Object in, int i, Object inout, int j, int n, Datatype type) {
        if (!arraysOnly) {
            ByteBuffer a = ByteBuffer.allocate(n * type.basic.size()).order(ByteOrder.nativeOrder());
            ByteBuffer b = ByteBuffer.allocate(n * type.basic.size()).order(ByteOrder.nativeOrder());
            Copier.copy(in, i, a, 0, n, type.basic);
            Copier.copy(inout, j, b, 0, n, type.basic);
            try {
                openMpiFunction.call(a, b, n / type.units(), type);
                Copier.copy(b, 0, inout, j, n, type.basic);
                return;
            } catch (UnsupportedOperationException e) {
                arraysOnly = true;
            }
        }
        Object a = type.basic.newArray(n);
        Object b = type.basic.newArray(n);
        System.arraycopy(in, i, a, 0, n);
        System.arraycopy(inout, j, b, 0, n);
        openMpiFunction.call(a, b, n / type.units(), type);
        System.arraycopy(b, 0, inout, j, n);
    }

    @Override
    public String toString() {
        return builtin != null ? "MPI." + builtin : "Op(user function" + (commutative ? ", commutative)" : ")");
    }
}
