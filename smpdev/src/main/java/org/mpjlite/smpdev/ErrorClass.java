package org.mpjlite.smpdev;

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
    public static final int ERR_NO_MEM = 39;
    public static final int ERR_NOT_SAME = 40;
    public static final int ERR_UNSUPPORTED_OPERATION = 52;
    public static final int ERR_PROC_ABORTED = 74;
    public static final int ERR_LASTCODE = 92;

    private static final String[] NAMES = new String[ERR_LASTCODE + 1];

    static {
        NAMES[SUCCESS] = "MPI_SUCCESS";
        NAMES[ERR_BUFFER] = "MPI_ERR_BUFFER";
        NAMES[ERR_COUNT] = "MPI_ERR_COUNT";
        NAMES[ERR_TYPE] = "MPI_ERR_TYPE";
        NAMES[ERR_TAG] = "MPI_ERR_TAG";
        NAMES[ERR_COMM] = "MPI_ERR_COMM";
        NAMES[ERR_RANK] = "MPI_ERR_RANK";
        NAMES[ERR_REQUEST] = "MPI_ERR_REQUEST";
        NAMES[ERR_ROOT] = "MPI_ERR_ROOT";
        NAMES[ERR_GROUP] = "MPI_ERR_GROUP";
        NAMES[ERR_OP] = "MPI_ERR_OP";
        NAMES[ERR_TOPOLOGY] = "MPI_ERR_TOPOLOGY";
        NAMES[ERR_DIMS] = "MPI_ERR_DIMS";
        NAMES[ERR_ARG] = "MPI_ERR_ARG";
        NAMES[ERR_UNKNOWN] = "MPI_ERR_UNKNOWN";
        NAMES[ERR_TRUNCATE] = "MPI_ERR_TRUNCATE";
        NAMES[ERR_OTHER] = "MPI_ERR_OTHER";
        NAMES[ERR_INTERN] = "MPI_ERR_INTERN";
        NAMES[ERR_IN_STATUS] = "MPI_ERR_IN_STATUS";
        NAMES[ERR_PENDING] = "MPI_ERR_PENDING";
        NAMES[ERR_KEYVAL] = "MPI_ERR_KEYVAL";
        NAMES[ERR_NO_MEM] = "MPI_ERR_NO_MEM";
        NAMES[ERR_NOT_SAME] = "MPI_ERR_NOT_SAME";
        NAMES[ERR_UNSUPPORTED_OPERATION] = "MPI_ERR_UNSUPPORTED_OPERATION";
        NAMES[ERR_PROC_ABORTED] = "MPI_ERR_PROC_ABORTED";
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
}
