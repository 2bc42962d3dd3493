package org.mpjlite.smpdev.error;

/**
 * MPI error classes, with the values of Open MPI 5 so that numbers printed by MPJ Lite read the
 * same as a native MPI's. {@code mpi.MPI.ERR_*} are these constants.
 */
public final class ErrorClass {
    public static final int SUCCESS = 0;
    public static final int ERR_BUFFER = 1;
    public static final int ERR_COUNT = 2;
    public static final int ERR_TYPE = 3;
    public static final int ERR_TAG = 4;
    public static final int ERR_COMM = 5;
    public static final int ERR_RANK = 6;
    public static final int ERR_REQUEST = 7;
    public static final int ERR_ROOT = 8;
    public static final int ERR_GROUP = 9;
    public static final int ERR_OP = 10;
    public static final int ERR_TOPOLOGY = 11;
    public static final int ERR_DIMS = 12;
    public static final int ERR_ARG = 13;
    public static final int ERR_UNKNOWN = 14;
    public static final int ERR_TRUNCATE = 15;
    public static final int ERR_OTHER = 16;
    public static final int ERR_INTERN = 17;
    public static final int ERR_IN_STATUS = 18;
    public static final int ERR_PENDING = 19;
    public static final int ERR_KEYVAL = 36;
    public static final int ERR_NAME = 38;
    public static final int ERR_NO_MEM = 39;
    public static final int ERR_NOT_SAME = 40;
    public static final int ERR_PORT = 43;
    public static final int ERR_SERVICE = 48;
    public static final int ERR_SPAWN = 50;
    public static final int ERR_UNSUPPORTED_OPERATION = 52;
    public static final int ERR_PROC_ABORTED = 74;
    public static final int ERR_LASTCODE = 92;

    private static final String[] NAMES = new String[ERR_LASTCODE + 1];
    private static final String[] TEXTS = new String[ERR_LASTCODE + 1];

    static {
        define(SUCCESS, "MPI_SUCCESS", "no error");
        define(ERR_BUFFER, "MPI_ERR_BUFFER", "invalid buffer (null, too small, read-only, or no buffer attached for"
            + " buffered sends)");
        define(ERR_COUNT, "MPI_ERR_COUNT", "invalid count argument");
        define(ERR_TYPE, "MPI_ERR_TYPE", "invalid datatype, or a datatype that does not match the buffer or the"
            + " message");
        define(ERR_TAG, "MPI_ERR_TAG", "invalid tag");
        define(ERR_COMM, "MPI_ERR_COMM", "invalid communicator");
        define(ERR_RANK, "MPI_ERR_RANK", "invalid rank");
        define(ERR_REQUEST, "MPI_ERR_REQUEST", "invalid request");
        define(ERR_ROOT, "MPI_ERR_ROOT", "invalid root");
        define(ERR_GROUP, "MPI_ERR_GROUP", "invalid group");
        define(ERR_OP, "MPI_ERR_OP", "invalid reduction operation");
        define(ERR_TOPOLOGY, "MPI_ERR_TOPOLOGY", "invalid communicator topology");
        define(ERR_DIMS, "MPI_ERR_DIMS", "invalid topology dimension argument");
        define(ERR_ARG, "MPI_ERR_ARG", "invalid argument of some other kind");
        define(ERR_UNKNOWN, "MPI_ERR_UNKNOWN", "unknown error");
        define(ERR_TRUNCATE, "MPI_ERR_TRUNCATE", "message truncated: longer than the receive buffer");
        define(ERR_OTHER, "MPI_ERR_OTHER", "known error not in this list");
        define(ERR_INTERN, "MPI_ERR_INTERN", "internal error of the MPI library");
        define(ERR_IN_STATUS, "MPI_ERR_IN_STATUS", "error code is in the status");
        define(ERR_PENDING, "MPI_ERR_PENDING", "pending request");
        define(ERR_KEYVAL, "MPI_ERR_KEYVAL", "invalid attribute key");
        define(ERR_NAME, "MPI_ERR_NAME", "no service published under the name given to lookupName");
        define(ERR_NO_MEM, "MPI_ERR_NO_MEM", "out of memory");
        define(ERR_PORT, "MPI_ERR_PORT", "invalid port name (not open in this job)");
        define(ERR_SERVICE, "MPI_ERR_SERVICE", "invalid service name (not published, or published already)");
        define(ERR_SPAWN, "MPI_ERR_SPAWN", "could not spawn the processes (the command cannot be found or loaded)");
        define(ERR_NOT_SAME, "MPI_ERR_NOT_SAME", "collective call not the same on all ranks (order, root, count or"
            + " operation)");
        define(ERR_UNSUPPORTED_OPERATION, "MPI_ERR_UNSUPPORTED_OPERATION", "operation not supported");
        define(ERR_PROC_ABORTED, "MPI_ERR_PROC_ABORTED", "another rank of the job failed or aborted");
    }

    private static void define(int errorClass, String name, String text) {
        NAMES[errorClass] = name;
        TEXTS[errorClass] = text;
    }

    private ErrorClass() {
    }

    /** The MPI name of an error class ({@code MPI_ERR_TRUNCATE}), or {@code MPI_ERR_<n>}. */
    public static String name(int errorClass) {
        if (errorClass >= 0 && errorClass < NAMES.length && NAMES[errorClass] != null) {
            return NAMES[errorClass];
        }
        return "MPI_ERR_" + errorClass;
    }

    /** True for the codes 0..ERR_LASTCODE, the error classes (and codes) MPJ Lite knows of. */
    public static boolean isValid(int errorClass) {
        return errorClass >= 0 && errorClass <= ERR_LASTCODE;
    }

    /**
     * What an error class means, as MPI_Error_string gives it: {@code "MPI_ERR_TRUNCATE: message
     * truncated: longer than the receive buffer"}. Valid codes that MPJ Lite never raises (MPI's
     * one-sided and I/O classes) read {@code "MPI_ERR_<n>: error class <n>"}.
     */
    public static String text(int errorClass) {
        if (!isValid(errorClass)) {
            return "unknown error code " + errorClass;
        }
        String text = TEXTS[errorClass];
        return name(errorClass) + ": " + (text != null ? text : "error class " + errorClass);
    }
}
