package org.mpjlite.run;

/**
 * A mistake on the {@code mpjrun} command line or in the program it names (unknown option, missing
 * main class, compile error...). The launcher prints the message, without a stack trace, and exits
 * with {@link #EXIT_CODE} before any rank starts.
 */
final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Exit code of a usage error, as for most Unix tools. */
    static final int EXIT_CODE = 2;

    UsageException(String message) {
        super(message);
    }

    UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
