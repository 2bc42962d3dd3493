package org.mpjlite.smpdev;

/**
 * The job was stopped from outside its ranks, with a report of where every rank stood: a deadlock,
 * or the time limit ({@code mpjrun --timeout}). The message is the report, several lines.
 */
public abstract class StuckJobException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StuckJobException(String report) {
        super(report, null, false, false);
    }

    /** The report, several lines. */
    public String report() {
        return getMessage();
    }

    /** The exit code the job ends with. */
    public abstract int exitCode();
}
