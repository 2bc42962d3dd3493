package org.mpjlite.smpdev;

/**
 * Unwinds the thread of a rank that called {@code Abort}: MPI_Abort does not return. An
 * {@link Error}, so that a user's {@code catch (Exception e)} does not swallow it.
 */
public final class AbortSignal extends Error {
    private static final long serialVersionUID = 1L;
    private final int rank;
    private final int code;

    AbortSignal(int rank, int code) {
        super("rank " + rank + " called Abort(" + code + ")", null, false, false);
        this.rank = rank;
        this.code = code;
    }

    public int rank() {
        return rank;
    }

    public int code() {
        return code;
    }
}
