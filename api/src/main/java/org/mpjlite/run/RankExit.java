package org.mpjlite.run;

import org.mpjlite.smpdev.Rank;

/**
 * What {@code System.exit(status)} does in a program run by {@code mpjrun} (its calls are redirected
 * here when its classes load, see {@link ExitRedirect}): what it does to one process under mpirun.
 * Status 0 ends the calling rank as if its {@code main} had returned, and the other ranks go on;
 * any other status ends the job with that status, as mpirun does when a process exits with a
 * failure. Called from a thread that is no rank's, it is {@code System.exit}.
 *
 * <p>Thread-safe: it only reads the calling thread's rank.
 */
public final class RankExit {
    private RankExit() {
    }

    /** Unwinds the main thread of a rank that exited with status 0; {@code mpjrun} ends the rank there. */
    static final class Finished extends Error {
        private static final long serialVersionUID = 1L;

        Finished(int rank) {
            super("rank " + rank + " called System.exit(0)", null, false, false);
        }
    }

    /** Replaces {@code System.exit(status)} in the program's classes; does not return. */
    public static void exit(int status) {
        Rank rank = Rank.current();
        if (rank == null) {
            System.exit(status);
            return;
        }
        if (status != 0) {
            throw rank.job().exit(rank, status);
        }
        throw new Finished(rank.id());
    }
}
