package org.mpjlite.smpdev;

import org.mpjlite.matching.LockFreeMailbox;
import org.mpjlite.matching.LockedMailbox;
import org.mpjlite.matching.Mailbox;

/**
 * One MPI process of a job: a rank number, the mailbox where messages to it are matched, the
 * doorbell that wakes its waiting threads, and its MPI lifecycle (Init, Finalize).
 *
 * <p>A rank is bound to its main thread (and threads that thread starts) through an inheritable
 * thread-local, and to its class loader through {@link RankBound}; {@link #current()} finds it.
 *
 * <p>Thread levels: at {@code THREAD_SINGLE} and {@code THREAD_FUNNELED} only the main thread (the
 * one that called Init) may call MPI, and {@link #checkLifecycle} rejects any other with one field
 * compare. At {@code THREAD_SERIALIZED} nothing is checked: detecting overlapping calls would cost
 * an atomic write per call, and overlapping calls are safe anyway because the device is built for
 * {@code THREAD_MULTIPLE} (thread-safe mailboxes, requests, doorbell and buffered-send charge).
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
    /**
     * The one thread allowed to call MPI (THREAD_SINGLE, THREAD_FUNNELED), or null for any thread.
     * Plain: written before the volatile write of {@link #lifecycle} in Init and read after a read
     * of it, which orders it.
     */
    private Thread confinedTo;
    private final java.util.concurrent.atomic.AtomicReference<BsendBuffer> bsendBuffer =
        new java.util.concurrent.atomic.AtomicReference<>();
    /** The threads of this rank parked in a blocking call, with the call; read by the deadlock detector. */
    private final java.util.concurrent.ConcurrentHashMap<Thread, BlockedCall> blocked =
        new java.util.concurrent.ConcurrentHashMap<>();
    /** The thread group the rank's main thread runs in, and the threads it starts inherit; or null. */
    private volatile ThreadGroup threads;
    /** Set once the rank's main thread has returned or thrown. */
    private volatile boolean finished;
    private final SendRequest completedSend;
    /** Requests the program has not completed, under {@code --check} only; else null. */
    private final OpenRequests openRequests;
    /**
     * Messages a matched probe took out of the mailbox and no matched receive has received yet,
     * for the Finalize report: they are in no mailbox list any more.
     */
    private final java.util.Set<Message> probed = java.util.concurrent.ConcurrentHashMap.newKeySet();

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
        if (requiredThreadLevel < THREAD_SINGLE || requiredThreadLevel > THREAD_MULTIPLE) {
            throw Errors.error(ErrorClass.ERR_ARG, call + ": unknown thread level " + requiredThreadLevel
                + " (MPI.THREAD_SINGLE 0, THREAD_FUNNELED 1, THREAD_SERIALIZED 2, THREAD_MULTIPLE 3)");
        }
        synchronized (this) { // two threads racing to Init: exactly one wins
            if (lifecycle != NEW) {
                throw Errors.error(ErrorClass.ERR_OTHER, call + ": MPI is already "
                    + (lifecycle == INITIALIZED ? "initialized" : "finalized") + " on rank " + id);
            }
            // The level asked for is the level provided: the device supports every level, and
            // honouring a lower one exactly keeps the FUNNELED check meaningful.
            Thread me = Thread.currentThread();
            threadLevel = requiredThreadLevel;
            mainThread = me;
            confinedTo = requiredThreadLevel <= THREAD_FUNNELED ? me : null;
            lifecycle = INITIALIZED;
        }
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

    /** The thread group of the rank's threads (set by the job that runs it), or null. */
    ThreadGroup threads() {
        return threads;
    }

    void runsIn(ThreadGroup group) {
        threads = group;
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
        checkCaller(call);
    }

    /**
     * Rejects a call from a thread other than the main thread at THREAD_SINGLE or THREAD_FUNNELED;
     * one field compare on the way of every call.
     */
    public void checkCaller(String call) {
        Thread only = confinedTo;
        if (only != null && only != Thread.currentThread()) {
            throw calledFromOtherThread(call, only);
        }
    }

    private RuntimeException calledFromOtherThread(String call, Thread main) {
        String level = threadLevel == THREAD_SINGLE ? "THREAD_SINGLE" : "THREAD_FUNNELED";
        return Errors.error(ErrorClass.ERR_OTHER, call + " on rank " + id + ": called from thread '"
            + Thread.currentThread().getName() + "' but MPI was initialized with " + level
            + ": only the main thread ('" + main.getName() + "', which called Init) may call MPI;"
            + " use MPI.InitThread(args, MPI.THREAD_MULTIPLE) (MPI.Init_thread in mpiJava)");
    }

    /** Throws the job-failure error if another rank has failed (polling calls: Test, Iprobe). */
    public void checkAlive(String call) {
        job.checkAlive(this, call);
    }

    // ---- deadlock detection ------------------------------------------------------------------

    /**
     * Records that the calling thread is about to park in a blocking call (slow path only: after
     * the spin). Every thread of the rank is tracked, for ranks at THREAD_SERIALIZED and
     * THREAD_MULTIPLE whose threads block in MPI side by side.
     */
    BlockedCall publishBlocked(WaitStrategy.Condition condition, String call) {
        Thread me = Thread.currentThread();
        BlockedCall b = new BlockedCall(call, condition, me);
        blocked.put(me, b);
        return b;
    }

    void clearBlocked(BlockedCall b) {
        blocked.remove(b.thread, b);
    }

    /** The blocking call {@code t} is parked in, or null. */
    BlockedCall blockedCall(Thread t) {
        return t == null ? null : blocked.get(t);
    }

    /** Every thread of the rank parked in a blocking call, with its call (a snapshot). */
    java.util.Map<Thread, BlockedCall> blockedCalls() {
        return java.util.Map.copyOf(blocked);
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
        // A compare-and-set: of two threads attaching at once, exactly one succeeds.
        if (!bsendBuffer.compareAndSet(null, new BsendBuffer(this, userBuffer, capacity))) {
            throw Errors.error(ErrorClass.ERR_BUFFER, call + ": a buffer is already attached on rank " + id
                + " (detach it first)");
        }
    }

    /** MPI_Buffer_detach: waits until every buffered message has been delivered. */
    public Object detachBuffer(String call) {
        BsendBuffer b = bsendBuffer.get();
        if (b == null) {
            throw Errors.error(ErrorClass.ERR_BUFFER, call + ": no buffer is attached on rank " + id);
        }
        await(b::isDrained, call);
        if (!bsendBuffer.compareAndSet(b, null)) {
            throw Errors.error(ErrorClass.ERR_BUFFER, call + ": another thread detached the buffer first on rank " + id);
        }
        return b.userBuffer();
    }

    BsendBuffer bsendBuffer(String call) {
        BsendBuffer b = bsendBuffer.get();
        if (b == null) {
            throw Errors.error(ErrorClass.ERR_BUFFER, call + ": no buffer is attached for buffered sends on rank "
                + id + " (call MPI.Buffer_attach / MPI.attachBuffer first)");
        }
        return b;
    }

    // ---- matched probes -----------------------------------------------------------------------

    /** A matched probe took {@code m}: it waits for its matched receive. */
    void probed(Message m) {
        probed.add(m);
    }

    /** The matched receive of {@code m} has it. */
    void received(Message m) {
        probed.remove(m);
    }

    /** The messages matched probes took and nobody received yet (a snapshot). */
    java.util.List<Message> probedSnapshot() {
        return new java.util.ArrayList<>(probed);
    }

    @Override
    public String toString() {
        return "rank " + id;
    }
}
