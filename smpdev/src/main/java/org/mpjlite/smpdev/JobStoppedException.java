package org.mpjlite.smpdev;

/**
 * The job was stopped from outside the program, by a signal ({@code SIGTERM}, or Ctrl-C, which the
 * {@code mpjrun} script passes on as {@code SIGTERM}); the report says where every rank stood.
 */
public final class JobStoppedException extends StuckJobException {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    JobStoppedException(String report, int exitCode) {
        super(report);
        this.exitCode = exitCode;
    }

    /** 128 plus the signal's number, as a shell reports a command a signal ended. */
    @Override
    public int exitCode() {
        return exitCode;
    }
}
