package mpjdev;

/**
 * The superclass of {@link mpi.MPIException}, as in MPJ Express, where {@code mpjdev} is the device
 * layer under the {@code mpi} package and every MPI error is an {@code MPJDevException}. MPJ Lite
 * has no such layer; the class exists so that MPJ Express programs compile and behave unmodified:
 * those that catch {@code MPJDevException} catch MPI errors, and those that {@code import mpjdev.*}
 * (several of MPJ Express's own tests do, without using it) find the package. Unchecked, like
 * {@code MPIException}. Immutable; thread-safe.
 */
public class MPJDevException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MPJDevException() {
        super();
    }

    public MPJDevException(String message) {
        super(message);
    }

    public MPJDevException(Throwable cause) {
        super(cause);
    }

    /** For {@link mpi.MPIException}, whose message names the error class and whose cause is kept. */
    protected MPJDevException(String message, Throwable cause) {
        super(message, cause);
    }
}
