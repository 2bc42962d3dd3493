package mpi;

/**
 * A user-defined reduction operation, mpiJava 1.2 style: extend it and pass it to
 * {@link Op#Op(User_function, boolean)}.
 *
 * <p>{@code Call} must compute {@code inoutvec[i] = invec[i] op inoutvec[i]} for {@code count} items
 * of {@code datatype}, starting at the given offsets (counted in array elements). The arrays are of
 * the datatype's Java type ({@code int[]} for {@code MPI.INT} and {@code MPI.INT2}). It is called by
 * any rank's thread, possibly by several at once on different data, so it must not keep mutable
 * state of its own.
 */
public abstract class User_function {
    public User_function() {
    }

    public abstract void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count,
                              Datatype datatype);
}
