package org.mpjlite;

import org.mpjlite.smpdev.RankFailure;

/**
 * Thrown by {@link MpjLite#run} when a rank failed: it threw, or called {@code Abort}. The cause is
 * what the failing rank threw (an {@code AbortSignal} for an abort); the message names the rank.
 * Only the first failure of a job is reported: ranks that fail because of it are not.
 */
public final class JobFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient RankFailure failure;

    JobFailedException(RankFailure failure) {
        super(failure.isStuck() ? failure.cause().getMessage() : failure.describe(), failure.cause());
        this.failure = failure;
    }

    /** The rank that failed first. */
    public int rank() {
        return failure.rank();
    }

    /** The exit code {@code mpjrun} would end with: 1 for an exception, the code given to Abort. */
    public int exitCode() {
        return failure.exitCode();
    }

    public RankFailure failure() {
        return failure;
    }
}
