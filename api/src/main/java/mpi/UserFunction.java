package mpi;

import java.nio.ByteBuffer;

/**
 * A user-defined reduction operation, Open MPI Java style: extend it, override one of the
 * {@code call} methods and pass it to {@link Op#Op(UserFunction, boolean)}.
 *
 * <p>As in Open MPI, the operation is called with {@link ByteBuffer}s in native byte order holding
 * {@code count} items of {@code datatype} from index 0, and must leave
 * {@code inOut[i] = in[i] op inOut[i]} in {@code inOut}. An operation that overrides only the
 * array form is called with arrays of the datatype's Java type instead. It is called by any rank's
 * thread, possibly by several at once on different data, so it must not keep mutable state of its
 * own.
 */
public abstract class UserFunction {
    public UserFunction() {
    }

    /** The operation on arrays; not supported unless overridden. */
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
        throw new UnsupportedOperationException("UserFunction.call(Object, Object, int, Datatype) is not overridden");
    }

    /** The operation on buffers; not supported unless overridden. */
    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) {
        throw new UnsupportedOperationException(
            "UserFunction.call(ByteBuffer, ByteBuffer, int, Datatype) is not overridden");
    }
}
