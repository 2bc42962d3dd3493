package org.mpjlite.smpdev;

/**
 * The job stopped because every rank was blocked in MPI and nothing could complete. The report
 * lists each rank's blocked call with its arguments, the user's line that made it, the messages
 * queued for it that match nothing, and the cycle in the wait-for graph.
 */
public final class DeadlockException extends StuckJobException {
    private static final long serialVersionUID = 1L;

    /** Exit code of a job that ended in a deadlock (distinct from 1, a rank that threw). */
    public static final int EXIT_CODE = 86;

    DeadlockException(String report) {
        super(report);
    }

    @Override
    public int exitCode() {
        return EXIT_CODE;
    }
}
