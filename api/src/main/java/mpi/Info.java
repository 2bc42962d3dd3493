package mpi;

/**
 * Hints for the calls that take them (MPI_Info): this minimal form only lets the calls that
 * accept hints be called; the hints are ignored, as MPI permits.
 */
public final class Info {
    /** An empty set of hints. */
    public Info() {
    }
}
