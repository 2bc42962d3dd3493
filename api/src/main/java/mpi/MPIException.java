package mpi;

import org.mpjlite.smpdev.error.ErrorClass;
import org.mpjlite.smpdev.error.Errors;

/**
 * An MPI error: the MPI error class ({@link #getErrorClass()}, one of {@code MPI.ERR_*}) and a
 * message naming the call and the argument at fault.
 *
 * <p>Unchecked, so that programs written for both dialects compile: Open MPI's Java bindings
 * declare it checked ({@code throws MPIException} and {@code catch (MPIException e)} stay legal),
 * MPJ Express's is a {@code RuntimeException}. Its superclass is {@link mpjdev.MPJDevException}, as in
 * MPJ Express, so that programs catching that catch MPI errors.
 */
public class MPIException extends mpjdev.MPJDevException {
    private static final long serialVersionUID = 1L;

    static {
        Errors.install(MPIException::new);
    }

    private final int errorClass;

    public MPIException() {
        this(ErrorClass.ERR_OTHER, "MPI error", null);
    }

    public MPIException(String message) {
        this(ErrorClass.ERR_OTHER, message, null);
    }

    public MPIException(Throwable cause) {
        this(cause instanceof MPIException ? ((MPIException) cause).errorClass : ErrorClass.ERR_OTHER,
            String.valueOf(cause), cause);
    }

    public MPIException(int errorClass, String message) {
        this(errorClass, message, null);
    }

    MPIException(int errorClass, String message, Throwable cause) {
        super(ErrorClass.name(errorClass) + ": " + message, cause);
        this.errorClass = errorClass;
    }

    /** The error code; MPJ Lite's codes are its error classes. */
    public int getErrorCode() {
        return errorClass;
    }

    /** The MPI error class, one of {@code MPI.ERR_*}. */
    public int getErrorClass() {
        return errorClass;
    }

    /**
     * What the error class means ({@code MPI.Error_string(getErrorClass())}); the message says
     * what went wrong in this call.
     */
    public String getErrorString() {
        return ErrorClass.text(errorClass);
    }

    /** Makes sure device errors are raised as {@code MPIException}s (idempotent). */
    public static void install() {
        // Loading this class ran the static initializer; nothing else to do.
    }
}
