package org.mpjlite.smpdev;

/** The job ran past its time limit; the report says where every rank stood. */
public final class JobTimeoutException extends StuckJobException {
    private static final long serialVersionUID = 1L;

    /** Exit code of a job stopped by its time limit (as the {@code timeout} command). */
    public static final int EXIT_CODE = 124;

    JobTimeoutException(String report) {
        super(report);
    }

    @Override
    public int exitCode() {
        return EXIT_CODE;
    }
}
