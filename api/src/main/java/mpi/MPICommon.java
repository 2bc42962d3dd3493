package mpi;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.diag.Tracer;
import org.mpjlite.smpdev.error.ErrorClass;

/**
 * The part of {@link MPI} that is the same for every rank: constants, predefined datatypes and
 * operations, error strings, timers, buffer helpers. Programs name these members through
 * {@code MPI} ({@code MPI.INT}, {@code MPI.Wtime()}), which inherits them; this class is not
 * meant to be named.
 *
 * <p>Why a superclass: {@code mpjrun} defines {@code MPI} once per rank, so that its statics
 * ({@code COMM_WORLD} above all) are the rank's. What is the same for every rank lives here,
 * loaded and initialized once for the whole job, so that the class each rank defines, verifies
 * and initializes holds only the rank's own state. A field or static method a program names as
 * {@code MPI.X} resolves here, through the superclass, whichever {@code MPI} names it.
 *
 * <p>Thread safety: every field is final and refers to an immutable or thread-safe object; the
 * methods are safe to call from any thread.
 */
public abstract class MPICommon {

    /** Largest tag value (MPI guarantees at least 32767). */
    static final int TAG_UB_VALUE = Integer.MAX_VALUE;

    // ---- wildcards and special values ---------------------------------------------------------
    public static final int ANY_SOURCE = -1;
    public static final int ANY_TAG = -1;
    public static final int PROC_NULL = -2;
    public static final int UNDEFINED = -32766;
    public static final int ROOT = -4;

    // ---- thread levels ------------------------------------------------------------------------
    public static final int THREAD_SINGLE = Rank.THREAD_SINGLE;
    public static final int THREAD_FUNNELED = Rank.THREAD_FUNNELED;
    public static final int THREAD_SERIALIZED = Rank.THREAD_SERIALIZED;
    public static final int THREAD_MULTIPLE = Rank.THREAD_MULTIPLE;

    // ---- comparison results and topologies ---------------------------------------------------
    public static final int IDENT = 0;
    public static final int CONGRUENT = 1;
    public static final int SIMILAR = 2;
    public static final int UNEQUAL = 3;
    public static final int GRAPH = 2;
    public static final int CART = 1;
    public static final int DIST_GRAPH = 3;

    // ---- attribute keys -----------------------------------------------------------------------
    public static final int TAG_UB = 0;
    public static final int HOST = 1;
    public static final int IO = 2;
    public static final int WTIME_IS_GLOBAL = 3;
    /** The index of the rank's command in the spawn that started it; 0 for the job's first ranks. */
    public static final int APPNUM = 4;
    /** The largest error code: {@code MPI.ERR_LASTCODE} (programs add no codes). */
    public static final int LASTUSEDCODE = 5;
    /** How many ranks can usefully run: the JVM's processors, or the job's first ranks if more. */
    public static final int UNIVERSE_SIZE = 6;
    /** Window attributes ({@code Win.getAttr}): the memory, its size in bytes, the displacement unit. */
    public static final int WIN_BASE = 7;
    public static final int WIN_SIZE = 8;
    public static final int WIN_DISP_UNIT = 9;
    /** What no key from {@code createKeyval} is. */
    public static final int KEYVAL_INVALID = -1;

    // ---- version of the MPI standard (MPI_VERSION, MPI_SUBVERSION) -----------------------------
    public static final int VERSION = 3;
    public static final int SUBVERSION = 1;

    /** Port names are shorter than this (Open MPI's MPI_MAX_PORT_NAME). */
    public static final int MAX_PORT_NAME = 1024;

    /** Bytes charged per message against the buffer attached for buffered sends. */
    public static final int BSEND_OVERHEAD = 16;
    /**
     * MPJ Express: the bytes a buffered send needs beyond its data in the attached buffer, which
     * programs add when they size it; here {@link #BSEND_OVERHEAD}.
     */
    public static final int SEND_OVERHEAD = BSEND_OVERHEAD;
    /** MPJ Express: the bytes a receive needs beyond its data; none here (messages land in the user's buffer). */
    public static final int RECV_OVERHEAD = 0;
    /** MPJ Express: the processors available to the JVM ({@code Runtime.availableProcessors()}), which its ranks share. */
    public static final int NUM_OF_PROCESSORS = Runtime.getRuntime().availableProcessors();
    /** MPJ Express: whether the library prints debugging output; never. */
    public static final boolean DEBUG = false;
    /**
     * MPJ Express: an empty status ({@code ANY_SOURCE}, {@code ANY_TAG}, no elements). Shared: a
     * program reads it, it does not change it.
     */
    public static final Status EMPTY_STATUS = new Status();

    /** The longest name of a communicator or datatype in C MPI (Open MPI's value); names here are not cut. */
    public static final int MAX_OBJECT_NAME = 64;

    // ---- array orders and distributions of C MPI's darray/subarray types (Open MPI's values) ---
    public static final int ORDER_C = 0;
    public static final int ORDER_FORTRAN = 1;
    public static final int DISTRIBUTE_BLOCK = 0;
    public static final int DISTRIBUTE_CYCLIC = 1;
    public static final int DISTRIBUTE_NONE = 2;
    public static final int DISTRIBUTE_DFLT_DARG = -1;

    // ---- one-sided communication (Win): assertions and lock types, with Open MPI's values -------
    public static final int MODE_NOCHECK = 1;
    public static final int MODE_NOPRECEDE = 2;
    public static final int MODE_NOPUT = 4;
    public static final int MODE_NOSTORE = 8;
    public static final int MODE_NOSUCCEED = 16;
    public static final int LOCK_EXCLUSIVE = 1;
    public static final int LOCK_SHARED = 2;

    // ---- error classes ------------------------------------------------------------------------
    public static final int SUCCESS = ErrorClass.SUCCESS;
    public static final int ERR_BUFFER = ErrorClass.ERR_BUFFER;
    public static final int ERR_COUNT = ErrorClass.ERR_COUNT;
    public static final int ERR_TYPE = ErrorClass.ERR_TYPE;
    public static final int ERR_TAG = ErrorClass.ERR_TAG;
    public static final int ERR_COMM = ErrorClass.ERR_COMM;
    public static final int ERR_RANK = ErrorClass.ERR_RANK;
    public static final int ERR_REQUEST = ErrorClass.ERR_REQUEST;
    public static final int ERR_ROOT = ErrorClass.ERR_ROOT;
    public static final int ERR_GROUP = ErrorClass.ERR_GROUP;
    public static final int ERR_OP = ErrorClass.ERR_OP;
    public static final int ERR_TOPOLOGY = ErrorClass.ERR_TOPOLOGY;
    public static final int ERR_DIMS = ErrorClass.ERR_DIMS;
    public static final int ERR_ARG = ErrorClass.ERR_ARG;
    public static final int ERR_UNKNOWN = ErrorClass.ERR_UNKNOWN;
    public static final int ERR_TRUNCATE = ErrorClass.ERR_TRUNCATE;
    public static final int ERR_OTHER = ErrorClass.ERR_OTHER;
    public static final int ERR_INTERN = ErrorClass.ERR_INTERN;
    public static final int ERR_IN_STATUS = ErrorClass.ERR_IN_STATUS;
    public static final int ERR_PENDING = ErrorClass.ERR_PENDING;
    public static final int ERR_ASSERT = ErrorClass.ERR_ASSERT;
    public static final int ERR_BASE = ErrorClass.ERR_BASE;
    public static final int ERR_DISP = ErrorClass.ERR_DISP;
    public static final int ERR_KEYVAL = ErrorClass.ERR_KEYVAL;
    public static final int ERR_LOCKTYPE = ErrorClass.ERR_LOCKTYPE;
    public static final int ERR_NO_MEM = ErrorClass.ERR_NO_MEM;
    public static final int ERR_NOT_SAME = ErrorClass.ERR_NOT_SAME;
    public static final int ERR_RMA_CONFLICT = ErrorClass.ERR_RMA_CONFLICT;
    public static final int ERR_RMA_SYNC = ErrorClass.ERR_RMA_SYNC;
    public static final int ERR_SIZE = ErrorClass.ERR_SIZE;
    public static final int ERR_UNSUPPORTED_OPERATION = ErrorClass.ERR_UNSUPPORTED_OPERATION;
    public static final int ERR_WIN = ErrorClass.ERR_WIN;
    /** MPI_ERR_RMA_RANGE, which Open MPI's Java binding does not name: target memory outside the window. */
    public static final int ERR_RMA_RANGE = ErrorClass.ERR_RMA_RANGE;
    /** MPI_ERR_RMA_ATTACH, which Open MPI's Java binding does not name: memory cannot be attached or detached. */
    public static final int ERR_RMA_ATTACH = ErrorClass.ERR_RMA_ATTACH;
    public static final int ERR_NAME = ErrorClass.ERR_NAME;
    public static final int ERR_PORT = ErrorClass.ERR_PORT;
    public static final int ERR_SERVICE = ErrorClass.ERR_SERVICE;
    public static final int ERR_SPAWN = ErrorClass.ERR_SPAWN;
    public static final int ERR_PROC_ABORTED = ErrorClass.ERR_PROC_ABORTED;
    public static final int ERR_LASTCODE = ErrorClass.ERR_LASTCODE;
    /** Open MPI's out-of-resources class (its value, -2); no call here raises it. */
    public static final int ERR_SYSRESOURCE = -2;
    // Info and I/O error classes.
    public static final int ERR_ACCESS = ErrorClass.ERR_ACCESS;
    public static final int ERR_AMODE = ErrorClass.ERR_AMODE;
    public static final int ERR_BAD_FILE = ErrorClass.ERR_BAD_FILE;
    public static final int ERR_CONVERSION = ErrorClass.ERR_CONVERSION;
    public static final int ERR_DUP_DATAREP = ErrorClass.ERR_DUP_DATAREP;
    public static final int ERR_FILE_EXISTS = ErrorClass.ERR_FILE_EXISTS;
    public static final int ERR_FILE_IN_USE = ErrorClass.ERR_FILE_IN_USE;
    public static final int ERR_FILE = ErrorClass.ERR_FILE;
    public static final int ERR_INFO_KEY = ErrorClass.ERR_INFO_KEY;
    public static final int ERR_INFO_NOKEY = ErrorClass.ERR_INFO_NOKEY;
    public static final int ERR_INFO_VALUE = ErrorClass.ERR_INFO_VALUE;
    public static final int ERR_INFO = ErrorClass.ERR_INFO;
    public static final int ERR_IO = ErrorClass.ERR_IO;
    public static final int ERR_NO_SPACE = ErrorClass.ERR_NO_SPACE;
    public static final int ERR_NO_SUCH_FILE = ErrorClass.ERR_NO_SUCH_FILE;
    public static final int ERR_QUOTA = ErrorClass.ERR_QUOTA;
    public static final int ERR_READ_ONLY = ErrorClass.ERR_READ_ONLY;
    public static final int ERR_UNSUPPORTED_DATAREP = ErrorClass.ERR_UNSUPPORTED_DATAREP;

    // ---- info objects (see Info) --------------------------------------------------------------
    /** Keys are shorter than this (Open MPI's MPI_MAX_INFO_KEY). */
    public static final int MAX_INFO_KEY = 36;
    /** Values are shorter than this (Open MPI's MPI_MAX_INFO_VAL). */
    public static final int MAX_INFO_VAL = 256;
    /** The null info: no hints. */
    public static final Info INFO_NULL = Info.nullInfo();

    // ---- file access modes, seek origins and views (see File), with Open MPI's values -------------
    public static final int MODE_CREATE = 1;
    public static final int MODE_RDONLY = 2;
    public static final int MODE_WRONLY = 4;
    public static final int MODE_RDWR = 8;
    public static final int MODE_DELETE_ON_CLOSE = 16;
    public static final int MODE_UNIQUE_OPEN = 32;
    public static final int MODE_EXCL = 64;
    public static final int MODE_APPEND = 128;
    public static final int MODE_SEQUENTIAL = 256;
    public static final int SEEK_SET = 600;
    public static final int SEEK_CUR = 602;
    public static final int SEEK_END = 604;
    /** The displacement of {@code File.setView} that means the current shared file pointer (sequential files). */
    public static final int DISPLACEMENT_CURRENT = -54278278;
    /** Longest data representation name. */
    public static final int MAX_DATAREP_STRING = 128;

    // ---- error handlers (see Errhandler) -------------------------------------------------------
    public static final Errhandler ERRORS_ARE_FATAL = Errhandler.ERRORS_ARE_FATAL;
    public static final Errhandler ERRORS_ABORT = Errhandler.ERRORS_ABORT;
    public static final Errhandler ERRORS_RETURN = Errhandler.ERRORS_RETURN;

    // ---- predefined datatypes -----------------------------------------------------------------
    public static final Datatype BYTE = Datatype.BYTE;
    public static final Datatype CHAR = Datatype.CHAR;
    public static final Datatype SHORT = Datatype.SHORT;
    public static final Datatype BOOLEAN = Datatype.BOOLEAN;
    public static final Datatype INT = Datatype.INT;
    public static final Datatype LONG = Datatype.LONG;
    public static final Datatype FLOAT = Datatype.FLOAT;
    public static final Datatype DOUBLE = Datatype.DOUBLE;
    public static final Datatype PACKED = Datatype.PACKED;
    /** Serializable objects in an {@code Object[]} (mpiJava). */
    public static final Datatype OBJECT = Datatype.OBJECT;
    /** Bound markers of mpiJava's {@code Datatype.Struct}. */
    public static final Datatype LB = Datatype.LB;
    public static final Datatype UB = Datatype.UB;
    /** The null datatype: mpiJava's name and Open MPI's. */
    public static final Datatype NULL = Datatype.NULL;
    public static final Datatype DATATYPE_NULL = Datatype.NULL;

    // ---- value-index pair datatypes (MAXLOC, MINLOC) -------------------------------------------
    public static final Datatype SHORT2 = Datatype.SHORT2;
    public static final Datatype INT2 = Datatype.INT2;
    public static final Datatype LONG2 = Datatype.LONG2;
    public static final Datatype FLOAT2 = Datatype.FLOAT2;
    public static final Datatype DOUBLE2 = Datatype.DOUBLE2;
    public static final Datatype SHORT_INT = Datatype.SHORT_INT;
    public static final Datatype LONG_INT = Datatype.LONG_INT;
    public static final Datatype FLOAT_INT = Datatype.FLOAT_INT;
    public static final Datatype DOUBLE_INT = Datatype.DOUBLE_INT;
    /** A complex number of two floats, real then imaginary part ({@link FloatComplex}); SUM and PROD reduce it. */
    public static final Datatype FLOAT_COMPLEX = Datatype.FLOAT_COMPLEX;
    /** A complex number of two doubles, real then imaginary part ({@link DoubleComplex}); SUM and PROD reduce it. */
    public static final Datatype DOUBLE_COMPLEX = Datatype.DOUBLE_COMPLEX;
    /** The pair types of MAXLOC and MINLOC as {@link Struct}s, to fill and read byte buffers (Open MPI). */
    public static final Int2 int2 = Int2.INSTANCE;
    public static final ShortInt shortInt = ShortInt.INSTANCE;
    public static final LongInt longInt = LongInt.INSTANCE;
    public static final FloatInt floatInt = FloatInt.INSTANCE;
    public static final DoubleInt doubleInt = DoubleInt.INSTANCE;

    // ---- reduction operations -----------------------------------------------------------------
    public static final Op MAX = Op.MAX;
    public static final Op MIN = Op.MIN;
    public static final Op SUM = Op.SUM;
    public static final Op PROD = Op.PROD;
    public static final Op LAND = Op.LAND;
    public static final Op BAND = Op.BAND;
    public static final Op LOR = Op.LOR;
    public static final Op BOR = Op.BOR;
    public static final Op LXOR = Op.LXOR;
    public static final Op BXOR = Op.BXOR;
    public static final Op MAXLOC = Op.MAXLOC;
    public static final Op MINLOC = Op.MINLOC;
    public static final Op REPLACE = Op.REPLACE;
    public static final Op NO_OP = Op.NO_OP;

    public static final Request REQUEST_NULL = Request.nullRequest();
    /**
     * mpiJava's null communicator: {@code null}, which mpiJava's {@code Split} and {@code Create} return
     * to ranks outside the new communicator, so that both {@code c != null} and
     * {@code c != MPI.COMM_NULL} test membership. (Open MPI's {@code split} and {@code create} return a
     * communicator whose {@code isNull()} is true instead.)
     */
    public static final Comm COMM_NULL = null;

    // ---- predefined groups (shared by every rank) --------------------------------------------
    public static final Group GROUP_EMPTY = Group.empty();
    /** mpiJava's null group; a freed group is one too ({@code isNull()}). */
    public static final Group GROUP_NULL = Group.nullGroup();

    private static final long EPOCH = System.nanoTime();


    /** Only {@link MPI} extends this class. */
    protected MPICommon() {
    }

    // ---- for MPI's per-rank copies -------------------------------------------------------------
    // The work of MPI's rank-bound methods, given the rank: here, it is linked and verified once
    // per job, and the class each rank defines is left with one-line calls. Protected because a
    // per-rank MPI is in a run-time package of its own, where package access does not reach.

    /** The rank a copy of {@link MPI} belongs to (by its class loader), or null for a shared copy. */
    protected static Rank boundRank(Class<?> mpi) {
        return Rank.ofLoader(mpi.getClassLoader());
    }

    /**
     * MPI_Init_thread for {@code rank} (null outside any job: a job of one rank is made), called
     * through {@code mpi} (the copy of {@link MPI}, whose caller is the program's main class).
     */
    protected static int init(Rank rank, Class<?> mpi, String call, String[] args, int required) {
        Rank r = rank != null ? rank : Job.singleton(JobConfig.builder().build());
        Intracomm.namePredefined(r.job());
        Tracer t = r.tracer();
        long start = t == null ? 0 : t.now();
        int provided = r.init(required, call);
        if (t != null) {
            t.call(call, start, false, null, -1, Integer.MIN_VALUE, -1, null, -1);
        }
        Info.recordInit(r, Info.callerOutside(mpi, MPICommon.class), args);
        return provided;
    }

    /** MPI_Finalize for {@code rank} (null outside any job). */
    protected static void finish(Rank rank) {
        if (rank == null) {
            throw new MPIException(ERR_OTHER, "Finalize: MPI is not initialized (call MPI.Init first)");
        }
        Tracer t = rank.tracer();
        long start = t == null ? 0 : t.now();
        rank.finish("Finalize");
        if (t != null) {
            t.call("Finalize", start, false, null, -1, Integer.MIN_VALUE, -1, null, -1);
        }
    }

    /** {@code rank} when it may make call {@code call} now, else the MPIException saying why. */
    protected static Rank initialized(Rank rank, String call) {
        if (rank == null) {
            throw new MPIException(ERR_OTHER, call + ": MPI is not initialized (call MPI.Init first)");
        }
        rank.checkLifecycle(call);
        return rank;
    }

    /** {@code rank}, for the calls MPI allows from any thread: initialized and not finalized. */
    protected static Rank initializedNotFinalized(Rank rank, String call) {
        if (rank == null || !rank.isInitialized()) {
            throw new MPIException(ERR_OTHER, call + ": MPI is not initialized (call MPI.Init first)");
        }
        if (rank.isFinalized()) {
            throw new MPIException(ERR_OTHER, call + ": MPI is already finalized");
        }
        return rank;
    }

    // ---- versions, error handlers and error strings -------------------------------------------

    /** The MPI standard version implemented: 3.1 (Open MPI). */
    public static Version getVersion() {
        return new Version(VERSION, SUBVERSION);
    }

    /** MPI_Get_version, as {@link #getVersion()}. */
    public static Version Get_version() {
        return getVersion();
    }

    /** The library and its version (Open MPI; MPI_Get_library_version). */
    public static String getLibVersion() {
        Package p = MPICommon.class.getPackage();
        String v = p == null ? null : p.getImplementationVersion();
        return "MPJ Lite " + (v == null ? "(development build)" : v) + ", MPI " + VERSION + "." + SUBVERSION
            + " for Java, every rank a thread of one JVM";
    }

    /** MPI_Get_library_version, as {@link #getLibVersion()}. */
    public static String Get_library_version() {
        return getLibVersion();
    }

    /**
     * What an error code means (MPI_Error_string): {@code "MPI_ERR_TRUNCATE: message truncated:
     * longer than the receive buffer"}. MPJ Lite's error codes are its error classes.
     */
    public static String Error_string(int errorCode) {
        if (!ErrorClass.isValid(errorCode)) {
            throw new MPIException(ERR_ARG, "Error_string: " + errorCode + " is not an error code (0.."
                + ERR_LASTCODE + ")");
        }
        return ErrorClass.text(errorCode);
    }

    /** The error class of an error code (MPI_Error_class): the code itself in MPJ Lite. */
    public static int Error_class(int errorCode) {
        if (!ErrorClass.isValid(errorCode)) {
            throw new MPIException(ERR_ARG, "Error_class: " + errorCode + " is not an error code (0.."
                + ERR_LASTCODE + ")");
        }
        return errorCode;
    }

    // ---- time and host ------------------------------------------------------------------------

    /** Seconds since an arbitrary origin, with nanosecond resolution; the same clock for all ranks. */
    public static double Wtime() {
        return (System.nanoTime() - EPOCH) * 1e-9;
    }

    public static double wtime() {
        return Wtime();
    }

    /** Resolution of {@link #Wtime()}, in seconds. */
    public static double Wtick() {
        return 1e-9;
    }

    public static double wtick() {
        return Wtick();
    }

    public static String Get_processor_name() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }

    public static String getProcessorName() {
        return Get_processor_name();
    }

    // ---- NIO buffers (Open MPI) ---------------------------------------------------------------

    /** A direct buffer in native byte order, as Open MPI's. */
    public static ByteBuffer newByteBuffer(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    public static CharBuffer newCharBuffer(int capacity) {
        return newByteBuffer(capacity * Character.BYTES).asCharBuffer();
    }

    public static ShortBuffer newShortBuffer(int capacity) {
        return newByteBuffer(capacity * Short.BYTES).asShortBuffer();
    }

    public static IntBuffer newIntBuffer(int capacity) {
        return newByteBuffer(capacity * Integer.BYTES).asIntBuffer();
    }

    public static LongBuffer newLongBuffer(int capacity) {
        return newByteBuffer(capacity * Long.BYTES).asLongBuffer();
    }

    public static FloatBuffer newFloatBuffer(int capacity) {
        return newByteBuffer(capacity * Float.BYTES).asFloatBuffer();
    }

    public static DoubleBuffer newDoubleBuffer(int capacity) {
        return newByteBuffer(capacity * Double.BYTES).asDoubleBuffer();
    }

    /**
     * The buffer from element {@code offset} on, sharing its content (a view, no copy). The slice
     * remembers {@code buf}: as in Open MPI, where the slice is an address, a datatype with negative
     * displacements may address elements of {@code buf} before the slice (pack, send, receive); only
     * what lies outside {@code buf} is {@code MPI.ERR_BUFFER}.
     */
    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        return Slices.direct(buf.slice(offset, buf.capacity() - offset).order(buf.order()), buf, offset);
    }

    public static CharBuffer slice(CharBuffer buf, int offset) {
        return Slices.direct(buf.slice(offset, buf.capacity() - offset), buf, offset);
    }

    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        return Slices.direct(buf.slice(offset, buf.capacity() - offset), buf, offset);
    }

    public static IntBuffer slice(IntBuffer buf, int offset) {
        return Slices.direct(buf.slice(offset, buf.capacity() - offset), buf, offset);
    }

    public static LongBuffer slice(LongBuffer buf, int offset) {
        return Slices.direct(buf.slice(offset, buf.capacity() - offset), buf, offset);
    }

    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        return Slices.direct(buf.slice(offset, buf.capacity() - offset), buf, offset);
    }

    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        return Slices.direct(buf.slice(offset, buf.capacity() - offset), buf, offset);
    }

    /**
     * A heap buffer over the array from element {@code offset} on (no copy). As a slice of a buffer,
     * it lets a datatype with negative displacements address the array's elements before it. A
     * {@code ByteBuffer} is in native byte order, as Open MPI's (it reads the array as memory).
     */
    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice().order(ByteOrder.nativeOrder());
    }

    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    // ---- profiling --------------------------------------------------------------------------

    /**
     * MPI_Pcontrol: tells a profiling library what to record ({@code level} 0: nothing, 1: the
     * default, 2 and more: more detail). MPJ Lite has no profiling layer, so this does nothing, as
     * MPI specifies for an implementation without one; it may be called before Init.
     */
    public static void pControl(int level, Object obj) {
        // No profiling layer: MPI defines Pcontrol as a no-op then.
    }
}
