package org.mpjlite;

/**
 * The program of one rank, for {@link MpjLite#run}: it runs on the rank's thread and calls
 * {@code MPI.Init} and {@code MPI.Finalize} itself, like a {@code main} would.
 *
 * @param <T> what the rank returns to the caller of {@link MpjLite#run}
 */
@FunctionalInterface
public interface RankProgram<T> {
    /** Runs the rank; whatever it throws fails the job. */
    T run() throws Exception;
}
