package org.mpjlite.smpdev;

/**
 * Unwinds the thread of a rank that called {@code Abort}, or {@code System.exit} with a status other
 * than 0 (which ends an MPI job as well): neither returns. An
 * {@link Error}, so that a user's {@code catch (Exception e)} does not swallow it.
 */
public final class AbortSignal extends Error {
    private static final long serialVersionUID = 1L;
    private final int rank;
    private final int code;
    private final String call;

    /** @param call what ended the job: {@code Abort}, or {@code System.exit} with a status other than 0 */
    AbortSignal(int rank, int code, String call) {
        super("rank " + rank + " called " + call + "(" + code + ")", null, false, false);
        this.rank = rank;
        this.code = code;
        this.call = call;
    }

    /** What ended the job: {@code Abort} or {@code System.exit}. */
    public String call() {
        return call;
    }

    public int rank() {
        return rank;
    }

    public int code() {
        return code;
    }
}
