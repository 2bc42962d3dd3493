package org.mpjlite.smpdev;

/**
 * Why a job ended early: the first rank that threw, or that called {@code Abort}.
 *
 * @param rank the failing rank
 * @param cause what it threw ({@link AbortSignal} for an abort)
 * @param exitCode the exit code the job ends with
 */
public record RankFailure(int rank, Throwable cause, int exitCode) {
    /** Exit code of a job in which a rank threw. */
    public static final int EXCEPTION_EXIT_CODE = 1;

    public boolean isAbort() {
        return cause instanceof AbortSignal;
    }

    /** One line: what failed and why. */
    public String describe() {
        if (isAbort()) {
            return "rank " + rank + " called Abort(" + ((AbortSignal) cause).code() + ")";
        }
        return "rank " + rank + " failed: " + cause;
    }
}
