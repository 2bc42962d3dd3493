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
    public static final int ERR_ACCESS = 20;
    public static final int ERR_AMODE = 21;
    public static final int ERR_ASSERT = 22;
    public static final int ERR_BAD_FILE = 23;
    public static final int ERR_BASE = 24;
    public static final int ERR_CONVERSION = 25;
    public static final int ERR_DISP = 26;
    public static final int ERR_DUP_DATAREP = 27;
    public static final int ERR_FILE_EXISTS = 28;
    public static final int ERR_FILE_IN_USE = 29;
    public static final int ERR_FILE = 30;
    public static final int ERR_INFO_KEY = 31;
    public static final int ERR_INFO_NOKEY = 32;
    public static final int ERR_INFO_VALUE = 33;
    public static final int ERR_INFO = 34;
    public static final int ERR_IO = 35;
    public static final int ERR_KEYVAL = 36;
    public static final int ERR_LOCKTYPE = 37;
    public static final int ERR_NAME = 38;
    public static final int ERR_NO_MEM = 39;
    public static final int ERR_NOT_SAME = 40;
    public static final int ERR_NO_SPACE = 41;
    public static final int ERR_NO_SUCH_FILE = 42;
    public static final int ERR_PORT = 43;
    public static final int ERR_QUOTA = 44;
    public static final int ERR_READ_ONLY = 45;
    public static final int ERR_RMA_CONFLICT = 46;
    public static final int ERR_RMA_SYNC = 47;
    public static final int ERR_SERVICE = 48;
    public static final int ERR_SIZE = 49;
    public static final int ERR_SPAWN = 50;
    public static final int ERR_UNSUPPORTED_DATAREP = 51;
    public static final int ERR_UNSUPPORTED_OPERATION = 52;
    public static final int ERR_WIN = 53;
    public static final int ERR_RMA_RANGE = 68;
    public static final int ERR_RMA_ATTACH = 69;
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
        define(ERR_NO_MEM, "MPI_ERR_NO_MEM", "out of memory");
        define(ERR_NOT_SAME, "MPI_ERR_NOT_SAME", "collective call not the same on all ranks (order, root, count or"
            + " operation)");
        define(ERR_UNSUPPORTED_OPERATION, "MPI_ERR_UNSUPPORTED_OPERATION", "operation not supported");
        define(ERR_ASSERT, "MPI_ERR_ASSERT", "invalid assert argument (of a window synchronization call)");
        define(ERR_BASE, "MPI_ERR_BASE", "invalid base address or memory of a window");
        define(ERR_DISP, "MPI_ERR_DISP", "invalid displacement argument (or displacement unit)");
        define(ERR_LOCKTYPE, "MPI_ERR_LOCKTYPE", "invalid lock type");
        define(ERR_RMA_CONFLICT, "MPI_ERR_RMA_CONFLICT", "conflicting accesses to a window");
        define(ERR_RMA_SYNC, "MPI_ERR_RMA_SYNC", "wrong synchronization of RMA calls (no epoch open, or the wrong"
            + " one)");
        define(ERR_SIZE, "MPI_ERR_SIZE", "invalid size argument");
        define(ERR_WIN, "MPI_ERR_WIN", "invalid window");
        define(ERR_RMA_RANGE, "MPI_ERR_RMA_RANGE", "target memory is not part of the window");
        define(ERR_RMA_ATTACH, "MPI_ERR_RMA_ATTACH", "memory cannot be attached to (or detached from) the window");
        define(ERR_ACCESS, "MPI_ERR_ACCESS", "permission denied for the file access");
        define(ERR_AMODE, "MPI_ERR_AMODE", "invalid file access mode");
        define(ERR_BAD_FILE, "MPI_ERR_BAD_FILE", "invalid file name");
        define(ERR_CONVERSION, "MPI_ERR_CONVERSION", "data conversion failed");
        define(ERR_DUP_DATAREP, "MPI_ERR_DUP_DATAREP", "data representation already defined");
        define(ERR_FILE_EXISTS, "MPI_ERR_FILE_EXISTS", "file exists");
        define(ERR_FILE_IN_USE, "MPI_ERR_FILE_IN_USE", "file in use");
        define(ERR_FILE, "MPI_ERR_FILE", "invalid file handle");
        define(ERR_INFO_KEY, "MPI_ERR_INFO_KEY", "info key too long or empty");
        define(ERR_INFO_NOKEY, "MPI_ERR_INFO_NOKEY", "info key not defined");
        define(ERR_INFO_VALUE, "MPI_ERR_INFO_VALUE", "info value too long or empty");
        define(ERR_INFO, "MPI_ERR_INFO", "invalid info object");
        define(ERR_IO, "MPI_ERR_IO", "I/O error");
        define(ERR_NAME, "MPI_ERR_NAME", "service name not published");
        define(ERR_NO_SPACE, "MPI_ERR_NO_SPACE", "no space left on the device");
        define(ERR_NO_SUCH_FILE, "MPI_ERR_NO_SUCH_FILE", "no such file");
        define(ERR_PORT, "MPI_ERR_PORT", "invalid port name");
        define(ERR_QUOTA, "MPI_ERR_QUOTA", "quota exceeded");
        define(ERR_READ_ONLY, "MPI_ERR_READ_ONLY", "file is read-only");
        define(ERR_SERVICE, "MPI_ERR_SERVICE", "service not published");
        define(ERR_SPAWN, "MPI_ERR_SPAWN", "processes could not be spawned");
        define(ERR_UNSUPPORTED_DATAREP, "MPI_ERR_UNSUPPORTED_DATAREP", "unsupported data representation");
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
     * truncated: longer than the receive buffer"}. Valid codes that name no
     * class here read {@code "MPI_ERR_<n>: error class <n>"}.
     */
    public static String text(int errorClass) {
        if (!isValid(errorClass)) {
            return "unknown error code " + errorClass;
        }
        String text = TEXTS[errorClass];
        return name(errorClass) + ": " + (text != null ? text : "error class " + errorClass);
    }
}
