package mpi;

/**
 * What happens when a call on a communicator fails: {@link #ERRORS_RETURN} (the default) or
 * {@link #ERRORS_ARE_FATAL}, set with {@code Comm.setErrhandler} (Open MPI),
 * {@code Comm.Errhandler_set} (mpiJava 1.2) or {@code MPI.Errorhandler_set} (MPJ Express, on
 * {@code COMM_WORLD}).
 *
 * <ul>
 *   <li>{@code ERRORS_RETURN}, the default: the call throws an {@link MPIException}; a program that
 *       catches it carries on (Java's form of "return the error code"). One it does not catch ends
 *       the whole job, with that exception and a non-zero exit code, like any uncaught exception
 *       of a rank. mpiJava programs expect exactly this; Open MPI programs that set
 *       {@code ERRORS_RETURN} get what they asked for.</li>
 *   <li>{@code ERRORS_ARE_FATAL} (and Open MPI's {@code ERRORS_ABORT}), set explicitly: an error on
 *       the communicator ends the whole job even if the program catches the exception. The job
 *       fails with that {@code MPIException} as its cause and a non-zero exit code; the call still
 *       throws it, and every later MPI call of any rank fails with {@code MPI.ERR_PROC_ABORTED}.</li>
 * </ul>
 *
 * <p>Immutable; the three handlers are the only instances.
 */
public final class Errhandler {
    /** Errors end the job, even when the exception is caught. */
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler("MPI.ERRORS_ARE_FATAL", true);
    /** Open MPI's MPI_ERRORS_ABORT: here the same as {@link #ERRORS_ARE_FATAL} (the job ends). */
    public static final Errhandler ERRORS_ABORT = new Errhandler("MPI.ERRORS_ABORT", true);
    /** Errors are thrown as a catchable {@link MPIException}; the default. */
    public static final Errhandler ERRORS_RETURN = new Errhandler("MPI.ERRORS_RETURN", false);

    private final String name;
    private final boolean endsJob;

    private Errhandler(String name, boolean endsJob) {
        this.name = name;
        this.endsJob = endsJob;
    }

    /** True if an error under this handler ends the job even when caught. */
    boolean endsJob() {
        return endsJob;
    }

    @Override
    public String toString() {
        return name;
    }
}
