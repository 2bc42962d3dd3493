package mpi;

import java.nio.ByteBuffer;
import org.mpjlite.smpdev.Rank;

/**
 * The MPI environment of one rank: Init and Finalize, the predefined communicators, the thread
 * level, buffered-send buffers; and, inherited from {@link MPICommon}, the constants, predefined
 * datatypes and operations, timers and buffer helpers. Both dialects (mpiJava 1.2 and Open MPI
 * Java).
 *
 * <p>{@code mpjrun} loads this class once per rank (in the rank's class loader), so its statics —
 * {@code COMM_WORLD} above all — belong to one rank, bound to it whatever thread runs. Loaded by a
 * shared class loader (embedded lambdas, or a plain {@code java} run), {@code COMM_WORLD} resolves
 * the rank of the calling thread; a plain run that calls {@link #Init} outside any job becomes a job
 * of one rank. Only what must be per rank is declared here: each rank defines, verifies and
 * initializes this class, while {@link MPICommon} is loaded once for the job.
 *
 * <p>Because a per-rank copy of this class is in a different runtime package from the shared
 * {@code mpi} classes, it uses only their public members (and {@link MPICommon}'s protected ones),
 * and they use only its compile-time constants (never {@code COMM_WORLD}: they would get the shared
 * copy's).
 */
public final class MPI extends MPICommon {
    /** The rank this copy of the class belongs to, or null when loaded by a shared loader. */
    private static final Rank BOUND = boundRank(MPI.class);

    /** How this rank was started (MPI-3.1 8.3.3); read-only. */
    public static final Info INFO_ENV = Info.env(BOUND);

    // ---- predefined communicators and requests ------------------------------------------------
    public static final Intracomm COMM_WORLD = Intracomm.world(BOUND);
    public static final Intracomm COMM_SELF = Intracomm.self(BOUND);

    /** Open MPI Java declares a public constructor; everything here is static. */
    public MPI() {
    }

    /** This copy's rank, or the calling thread's; null outside any job. */
    private static Rank currentRank() {
        return BOUND != null ? BOUND : Rank.current();
    }

    static Rank initializedRank(String call) {
        return initialized(currentRank(), call);
    }

    // ---- init and finalize ------------------------------------------------------------------

    /**
     * Initializes MPI for this rank; returns once every rank of the job has called it. Returns the
     * program's arguments.
     *
     * <p>Provides {@code THREAD_MULTIPLE}: any thread of the rank may call MPI. MPJ Express grants
     * that under a plain Init, and its programs call MPI from several threads without asking for
     * more; MPI lets the level provided exceed the one required (Init requires
     * {@code THREAD_SINGLE}), so Open MPI programs are served too, though Open MPI's own Init
     * provides {@code THREAD_SINGLE} by default and {@link #queryThread()} answers differently. A
     * program that asks for a lower level with {@link #InitThread} or {@link #Init_thread} gets
     * exactly that level, with its check.
     */
    public static String[] Init(String[] args) {
        initThread("Init", args, THREAD_MULTIPLE);
        return args;
    }

    /** Open MPI: initializes with a thread level; returns the level provided. */
    public static int InitThread(String[] args, int required) {
        return initThread("InitThread", args, required);
    }

    /** mpiJava (MPJ Express): initializes with a thread level; returns the arguments. */
    public static String[] initThread(int required, int provided, String[] args) {
        initThread("initThread", args, required);
        return args;
    }

    public static String[] Init_thread(String[] args, int required) {
        initThread("Init_thread", args, required);
        return args;
    }

    private static int initThread(String call, String[] args, int required) {
        return init(currentRank(), MPI.class, call, args, required);
    }

    public static void Finalize() {
        finish(currentRank());
    }

    public static boolean Initialized() {
        Rank r = currentRank();
        return r != null && r.isInitialized();
    }

    public static boolean isInitialized() {
        return Initialized();
    }

    public static boolean Finalized() {
        Rank r = currentRank();
        return r != null && r.isFinalized();
    }

    public static boolean isFinalized() {
        return Finalized();
    }

    /**
     * The thread level MPI was initialized with: the level asked for, which MPJ Lite always
     * provides. At {@code THREAD_SINGLE} and {@code THREAD_FUNNELED} a call from another thread than
     * the main one is an {@code MPI.ERR_OTHER} error naming the call and the thread. At
     * {@code THREAD_SERIALIZED} nothing is checked (overlapping calls would be safe anyway). At
     * {@code THREAD_MULTIPLE} any thread of the rank may call MPI at any time. Callable from any
     * thread.
     */
    public static int queryThread() {
        return threadQueryRank("queryThread").threadLevel();
    }

    public static int Query_thread() {
        return threadQueryRank("Query_thread").threadLevel();
    }

    /** True on the thread that called Init (Open MPI); callable from any thread. */
    public static boolean isThreadMain() {
        return threadQueryRank("isThreadMain").isMainThread();
    }

    /** MPJ Express's name of {@link #isThreadMain()}. */
    public static boolean isMainThread() {
        return threadQueryRank("isMainThread").isMainThread();
    }

    public static boolean Is_thread_main() {
        return threadQueryRank("Is_thread_main").isMainThread();
    }

    /** The rank, for the calls MPI allows from any thread: initialized and not finalized. */
    private static Rank threadQueryRank(String call) {
        return initializedNotFinalized(currentRank(), call);
    }

    /** MPJ Express: sets the error handler of {@code COMM_WORLD} (see {@link Errhandler}). */
    public static void Errorhandler_set(Errhandler handler) {
        COMM_WORLD.setErrhandler(handler);
    }

    /** MPJ Express: the error handler of {@code COMM_WORLD}. */
    public static Errhandler Errorhandler_get() {
        return COMM_WORLD.getErrhandler();
    }

    // ---- buffered sends -----------------------------------------------------------------------

    /** Attaches a buffer for buffered sends (mpiJava). */
    public static void Buffer_attach(ByteBuffer buffer) {
        if (buffer == null) {
            throw new MPIException(ERR_BUFFER, "Buffer_attach: buffer is null");
        }
        initializedRank("Buffer_attach").attachBuffer(buffer, buffer.capacity(), "Buffer_attach");
    }

    /** Detaches the buffer, once every buffered message has been delivered; returns it. */
    public static ByteBuffer Buffer_detach() {
        return (ByteBuffer) initializedRank("Buffer_detach").detachBuffer("Buffer_detach");
    }

    /** Attaches a buffer for buffered sends (Open MPI). */
    public static void attachBuffer(byte[] buffer) {
        if (buffer == null) {
            throw new MPIException(ERR_BUFFER, "attachBuffer: buffer is null");
        }
        initializedRank("attachBuffer").attachBuffer(buffer, buffer.length, "attachBuffer");
    }

    public static byte[] detachBuffer() {
        return (byte[]) initializedRank("detachBuffer").detachBuffer("detachBuffer");
    }

}
