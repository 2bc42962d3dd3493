package org.mpjlite.smpdev;

/**
 * Why a job ended early: the first rank that threw, or that called {@code Abort}, or a deadlock.
 *
 * @param rank the failing rank (-1 for a deadlock, which is the whole job's)
 * @param cause what it threw ({@link AbortSignal} for an abort)
 * @param exitCode the exit code the job ends with
 */
public record RankFailure(int rank, Throwable cause, int exitCode) {
    /** Exit code of a job in which a rank threw. */
    public static final int EXCEPTION_EXIT_CODE = 1;

    public boolean isAbort() {
        return cause instanceof AbortSignal;
    }

    public boolean isDeadlock() {
        return cause instanceof DeadlockException;
    }

    /** One line: what failed and why. */
    public String describe() {
        if (isAbort()) {
            return "rank " + rank + " called Abort(" + ((AbortSignal) cause).code() + ")";
        }
        if (isDeadlock()) {
            String report = cause.getMessage();
            int eol = report.indexOf('\n');
            return eol < 0 ? report : report.substring(0, eol);
        }
        return "rank " + rank + " failed: " + cause;
    }
}
