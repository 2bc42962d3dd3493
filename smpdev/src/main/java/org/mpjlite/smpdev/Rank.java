package org.mpjlite.smpdev;

import org.mpjlite.queues.LockFreeMailbox;
import org.mpjlite.queues.LockedMailbox;
import org.mpjlite.queues.Mailbox;

/**
 * One MPI process of a job: a rank number, the mailbox where messages to it are matched, the
 * doorbell that wakes its waiting threads, and its MPI lifecycle (Init, Finalize).
 *
 * <p>A rank is bound to its main thread (and threads that thread starts) through an inheritable
 * thread-local, and to its class loader through {@link RankBound}; {@link #current()} finds it.
 *
 * <p>Thread safety: immutable references plus volatile lifecycle state; any thread may read. The
 * lifecycle transitions are made by the rank's own threads.
 */
public final class Rank {
    /** MPI thread levels, with mpiJava/Open MPI values. */
    public static final int THREAD_SINGLE = 0;
    public static final int THREAD_FUNNELED = 1;
    public static final int THREAD_SERIALIZED = 2;
    public static final int THREAD_MULTIPLE = 3;

    private static final InheritableThreadLocal<Rank> CURRENT = new InheritableThreadLocal<>();

    private static final int NEW = 0;
    private static final int INITIALIZED = 1;
    private static final int FINALIZED = 2;

    private final Job job;
    private final int id;
    private final Mailbox<Message, RecvRequest> mailbox;
    private final Doorbell doorbell = new Doorbell();
    private volatile int lifecycle = NEW;
    private volatile int threadLevel = THREAD_SINGLE;
    private volatile Thread mainThread;
    private volatile BsendBuffer bsendBuffer;
    /** The blocking call the main thread is parked in, or null; read by the deadlock detector. */
    private volatile BlockedCall blocked;
    /** Set once the rank's main thread has returned or thrown. */
    private volatile boolean finished;
    private final SendRequest completedSend;
    /** Requests the program has not completed, under {@code --check} only; else null. */
    private final OpenRequests openRequests;

    Rank(Job job, int id) {
        this.job = job;
        this.id = id;
        Transfer transfer = job.transfer();
        this.mailbox = job.config().matching() == MatchingKind.LOCKED
            ? new LockedMailbox<>(transfer)
            : new LockFreeMailbox<>(transfer);
        this.completedSend = SendRequest.completed(this);
        this.openRequests = job.config().check() ? new OpenRequests() : null;
    }

    /** The rank bound to the calling thread, or null. */
    public static Rank current() {
        return CURRENT.get();
    }

    /** The rank a class loader belongs to (a {@link RankBound} loader), or null. */
    public static Rank ofLoader(ClassLoader loader) {
        for (ClassLoader l = loader; l != null; l = l.getParent()) {
            if (l instanceof RankBound) {
                return ((RankBound) l).rank();
            }
        }
        return null;
    }

    /** Binds this rank to the calling thread (and to threads it starts from now on). */
    public void bindToCurrentThread() {
        CURRENT.set(this);
        if (mainThread == null) {
            mainThread = Thread.currentThread();
        }
    }

    static void unbindCurrentThread() {
        CURRENT.remove();
    }

    public Job job() {
        return job;
    }

    public int id() {
        return id;
    }

    public Mailbox<Message, RecvRequest> mailbox() {
        return mailbox;
    }

    Doorbell doorbell() {
        return doorbell;
    }

    /** The shared, already complete send request of eager and buffered sends. */
    SendRequest completedSend() {
        return completedSend;
    }

    /** Wakes this rank's parked threads so they re-check what they wait for. */
    void wake() {
        doorbell.ring();
    }

    /** Waits until the condition holds (the device's single wait path). */
    void await(WaitStrategy.Condition condition, String what) {
        job.waitStrategy().await(this, condition, what);
    }

    /**
     * Waits until {@code condition} holds, on the device's single wait path (spin only while the
     * ranks fit on the cores, then park on this rank's doorbell until {@link #wakeWaiters()}); for
     * device layers outside this package, such as collectives. Throws the job-failure error if the
     * job fails, and an MPI error if the thread is interrupted.
     *
     * <p>Whoever makes the condition true must do so with a volatile write (or stronger) and then
     * call {@link #wakeWaiters()} on this rank, so that a parked waiter re-checks it.
     *
     * @param call the MPI call waiting, for error messages
     */
    public void awaitCondition(java.util.function.BooleanSupplier condition, String call) {
        await(condition::getAsBoolean, call);
    }

    /**
     * Wakes this rank's parked threads so they re-check what they wait for; costs one volatile
     * read when none is parked. Call it after making a waited-for condition true.
     */
    public void wakeWaiters() {
        wake();
    }

    // ---- lifecycle -------------------------------------------------------------------------

    /**
     * MPI_Init / MPI_Init_thread: registers this rank and waits until every rank of the job has
     * registered (seed 002's barrier-style init). Returns the thread level provided.
     */
    public int init(int requiredThreadLevel, String call) {
        if (lifecycle != NEW) {
            throw Errors.error(ErrorClass.ERR_OTHER, call + ": MPI is already "
                + (lifecycle == INITIALIZED ? "initialized" : "finalized") + " on rank " + id);
        }
        if (requiredThreadLevel < THREAD_SINGLE || requiredThreadLevel > THREAD_MULTIPLE) {
            throw Errors.error(ErrorClass.ERR_ARG, call + ": unknown thread level " + requiredThreadLevel);
        }
        // Every level up to THREAD_MULTIPLE is safe here: mailboxes and requests are thread-safe.
        threadLevel = requiredThreadLevel;
        mainThread = Thread.currentThread();
        lifecycle = INITIALIZED;
        job.register(this, call);
        return requiredThreadLevel;
    }

    /**
     * MPI_Finalize. What the rank leaves behind is reported first ({@link FinalizeReport}); under
     * {@code --check}, operations still pending make it fail, with MPI still usable.
     */
    public void finish(String call) {
        checkInitialized(call);
        FinalizeReport.check(this, call);
        lifecycle = FINALIZED;
    }

    /** The requests the program has not completed, under {@link JobConfig#check()}; null otherwise. */
    public OpenRequests openRequests() {
        return openRequests;
    }

    public boolean isInitialized() {
        return lifecycle != NEW;
    }

    public boolean isFinalized() {
        return lifecycle == FINALIZED;
    }

    public int threadLevel() {
        return threadLevel;
    }

    /** The rank's main thread (the one that called Init, or runs the rank), or null before it ran. */
    Thread mainThread() {
        return mainThread;
    }

    public boolean isMainThread() {
        return Thread.currentThread() == mainThread;
    }

    /**
     * Guards every communication call: MPI must be initialized and not finalized, and the job
     * still alive.
     *
     * @param call the MPI call's name, for the error message
     */
    public void checkInitialized(String call) {
        checkLifecycle(call);
        job.checkAlive(this, call);
    }

    /**
     * Guards purely local calls ({@code Rank}, {@code Size}): MPI must be initialized and not
     * finalized; they keep working after another rank failed, so a handler can still ask.
     */
    public void checkLifecycle(String call) {
        int s = lifecycle;
        if (s != INITIALIZED) {
            throw Errors.error(ErrorClass.ERR_OTHER, call + ": "
                + (s == NEW ? "MPI is not initialized (call MPI.Init first)" : "MPI is already finalized")
                + " on rank " + id);
        }
    }

    /** Throws the job-failure error if another rank has failed (polling calls: Test, Iprobe). */
    public void checkAlive(String call) {
        job.checkAlive(this, call);
    }

    // ---- deadlock detection ------------------------------------------------------------------

    /**
     * Records that the calling thread is about to park in a blocking call. Only the rank's main
     * thread is tracked: at THREAD_SINGLE and THREAD_FUNNELED it is the only one that calls MPI.
     */
    BlockedCall publishBlocked(WaitStrategy.Condition condition, String call) {
        Thread me = Thread.currentThread();
        if (me != mainThread) {
            return null;
        }
        BlockedCall b = new BlockedCall(call, condition, me);
        blocked = b;
        return b;
    }

    void clearBlocked(BlockedCall b) {
        if (blocked == b) {
            blocked = null;
        }
    }

    BlockedCall blocked() {
        return blocked;
    }

    void markFinished() {
        finished = true;
    }

    boolean isFinished() {
        return finished;
    }

    // ---- buffered sends ----------------------------------------------------------------------

    /** MPI_Buffer_attach: {@code userBuffer} is handed back by detach. */
    public void attachBuffer(Object userBuffer, long capacity, String call) {
        if (bsendBuffer != null) {
            throw Errors.error(ErrorClass.ERR_BUFFER, call + ": a buffer is already attached on rank " + id
                + " (detach it first)");
        }
        bsendBuffer = new BsendBuffer(this, userBuffer, capacity);
    }

    /** MPI_Buffer_detach: waits until every buffered message has been delivered. */
    public Object detachBuffer(String call) {
        BsendBuffer b = bsendBuffer;
        if (b == null) {
            throw Errors.error(ErrorClass.ERR_BUFFER, call + ": no buffer is attached on rank " + id);
        }
        await(b::isDrained, call);
        bsendBuffer = null;
        return b.userBuffer();
    }

    BsendBuffer bsendBuffer(String call) {
        BsendBuffer b = bsendBuffer;
        if (b == null) {
            throw Errors.error(ErrorClass.ERR_BUFFER, call + ": no buffer is attached for buffered sends on rank "
                + id + " (call MPI.Buffer_attach / MPI.attachBuffer first)");
        }
        return b;
    }

    @Override
    public String toString() {
        return "rank " + id;
    }
}
