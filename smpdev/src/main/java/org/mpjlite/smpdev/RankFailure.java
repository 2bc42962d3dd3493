package org.mpjlite.smpdev;

/**
 * Why a job ended early: the first rank that threw or called {@code Abort}, a deadlock, or the time
 * limit.
 *
 * @param rank the failing rank (-1 when the whole job was stopped: deadlock, time limit)
 * @param cause what it threw ({@link AbortSignal} for an abort)
 * @param exitCode the exit code the job ends with
 * @param who the failing rank as reports name it ({@code rank 5}, and a spawned rank's place in its
 *        own world: see {@link Rank#toString()})
 * @param note what {@link #describe()} adds after the cause, starting with a space, or empty: for a
 *        {@code StackOverflowError}, the rank's stack size, what bounds it and what gives it more
 *        (a virtual rank's is the JVM's {@code -Xss}, see {@link ThreadKind})
 */
public record RankFailure(int rank, Throwable cause, int exitCode, String who, String note) {
    /** Exit code of a job in which a rank threw. */
    public static final int EXCEPTION_EXIT_CODE = 1;

    public boolean isAbort() {
        return cause instanceof AbortSignal;
    }

    public boolean isDeadlock() {
        return cause instanceof DeadlockException;
    }

    /** True when the job was stopped with a report of every rank (deadlock, time limit). */
    public boolean isStuck() {
        return cause instanceof StuckJobException;
    }

    /** One line: what failed and why. */
    public String describe() {
        if (isAbort()) {
            return who + " called " + ((AbortSignal) cause).call() + "(" + ((AbortSignal) cause).code() + ")";
        }
        if (isStuck()) {
            String report = cause.getMessage();
            int eol = report.indexOf('\n');
            return eol < 0 ? report : report.substring(0, eol);
        }
        return who + " failed: " + cause + note;
    }
}
