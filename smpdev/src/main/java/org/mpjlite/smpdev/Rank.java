package org.mpjlite.smpdev;

import org.mpjlite.smpdev.diag.BlockedCall;
import org.mpjlite.smpdev.diag.FinalizeReport;
import org.mpjlite.smpdev.diag.OpenRequests;
import org.mpjlite.smpdev.diag.Tracer;
import org.mpjlite.smpdev.error.ErrorClass;
import org.mpjlite.smpdev.error.Errors;
import org.mpjlite.smpdev.p2p.Endpoint;
import org.mpjlite.smpdev.wait.Condition;
import org.mpjlite.smpdev.wait.Doorbell;
import org.mpjlite.smpdev.wait.Waiter;

/**
 * One MPI process of a job: a rank number, its point-to-point {@link Endpoint} (the mailbox where
 * messages to it are matched, its buffered-send state), the doorbell that wakes its waiting
 * threads, and its MPI lifecycle (Init, Finalize). It is the {@link Waiter} its threads wait as:
 * {@link #await} runs the job's wait strategy on it.
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
public final class Rank implements Waiter {
    /** MPI thread levels, with mpiJava/Open MPI values. */
    public static final int THREAD_SINGLE = 0;
    public static final int THREAD_FUNNELED = 1;
    public static final int THREAD_SERIALIZED = 2;
    public static final int THREAD_MULTIPLE = 3;

    /**
     * The rank of the calling thread. Threads a rank's thread creates inherit it; each such creation
     * is counted for a virtual rank, which has no thread group to list its threads by. A carrier
     * thread of virtual threads that a rank's thread happens to make the JVM start belongs to no
     * rank, and inherits none.
     */
    private static final InheritableThreadLocal<Rank> CURRENT = new InheritableThreadLocal<>() {
        @Override
        protected Rank childValue(Rank parent) {
            return parent.threadCreated() ? parent : null;
        }
    };

    /** Looks at the frames of a thread's construction, from {@code childValue} up. */
    private static final StackWalker WALKER = StackWalker.getInstance();
    /** Enough frames to reach the constructor of a carrier thread from {@code childValue} (9 on JDK 21 to 25). */
    private static final int CONSTRUCTION_FRAMES = 16;

    private static final int NEW = 0;
    private static final int INITIALIZED = 1;
    private static final int FINALIZED = 2;

    private final Job job;
    private final int id;
    private final Endpoint endpoint;
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
    /**
     * The blocking call the rank's main thread is parked in, or null: a field, so that the common
     * park (the main thread's, every wait of an oversubscribed job) touches no shared map.
     */
    private volatile BlockedCall mainBlocked;
    /** The rank's other threads parked in a blocking call, with the call; read by the deadlock detector. */
    private final java.util.concurrent.ConcurrentHashMap<Thread, BlockedCall> blocked =
        new java.util.concurrent.ConcurrentHashMap<>();
    /** The thread group the rank's main thread runs in, and the threads it starts inherit; or null. */
    private volatile ThreadGroup threads;
    /**
     * Set when the rank runs on a virtual thread: it cannot be in a thread group, so the rank tracks
     * its threads itself ({@link #trackedThreads}, {@link #hasUntrackedVirtualThreads},
     * {@link #untrackedPlatformThreads}).
     */
    private volatile boolean virtual;
    /**
     * Polls of a virtual rank that found nothing ({@link #pollMissed}). Plain: threads of the rank
     * polling at once may lose counts, which only moves their next park.
     */
    private int missedPolls;
    /** Threads of a virtual rank other than its main thread that have blocked in MPI. */
    private final java.util.Set<Thread> tracked = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /**
     * Threads created by a virtual rank's threads (they inherit the rank), and how many of them were
     * tracked: virtual ones, which nothing else lists, and platform ones, which the JVM lists (in
     * the thread group of virtual threads' platform children).
     */
    private final java.util.concurrent.atomic.AtomicInteger createdVirtual = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger trackedVirtual = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger createdPlatform = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger trackedPlatform = new java.util.concurrent.atomic.AtomicInteger();
    /** Set once the rank's main thread has returned or thrown. */
    private volatile boolean finished;
    /** Requests the program has not completed, under {@code --check} only; else null. */
    private final OpenRequests openRequests;
    /**
     * The ranks started with this one. Plain: written by the job before it publishes the rank
     * (through its volatile rank table, and before the rank's thread starts).
     */
    private World world;
    /**
     * What runs first at this rank's Finalize, given the call's name, in the order added: a team
     * whose Bcast the rank left before every member arrived settles it there. Added to rarely
     * (once per team), possibly by several of the rank's threads at once, and taken back when the
     * team's communicator is freed.
     */
    private final java.util.List<java.util.function.Consumer<String>> atFinalize =
        new java.util.concurrent.CopyOnWriteArrayList<>();
    /** What this rank's calls do, under {@code --trace} or {@code --stats}; else null. */
    private final Tracer tracer;
    /**
     * Loads the classes of the optional diagnostics with this class, though none of their objects
     * may ever be made: the JIT does not inline a method whose signature names a class not loaded
     * yet, so with tracing and {@code --check} off every {@link #tracer()} and
     * {@link #openRequests()} on the message path would stay a real call (18 ns per Send + Recv
     * pair for the tracer alone).
     */
    private static final Class<?>[] OPTIONAL_DIAGNOSTICS = {Tracer.class, OpenRequests.class};

    /** @param origin the job's time zero ({@link System#nanoTime()}), for the times of a trace */
    Rank(Job job, int id, long origin) {
        this.job = job;
        this.id = id;
        this.endpoint = new Endpoint(this, job.transfer(), job.config().matching() == MatchingKind.LOCKED);
        this.openRequests = job.config().check() ? new OpenRequests() : null;
        JobConfig c = job.config();
        this.tracer = !c.recording() ? null
            : new Tracer(this, c.ranks(), origin, c.trace() == null ? 0 : c.traceLimit());
    }

    /** The recorder of this rank's calls under {@code --trace} or {@code --stats}; null when both are off. */
    public Tracer tracer() {
        return tracer;
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

    /** The ranks started with this one: its {@code COMM_WORLD} and Init. */
    public World world() {
        return world;
    }

    void joins(World w) {
        world = w;
    }

    /** The rank's end of point-to-point communication: its mailbox and buffered-send state. */
    public Endpoint endpoint() {
        return endpoint;
    }

    @Override
    public Doorbell doorbell() {
        return doorbell;
    }

    @Override
    public void progress() {
        endpoint.mailbox().progress();
    }

    @Override
    public void passOwnerLock() {
        endpoint.mailbox().passOwnerLock();
    }

    @Override
    public boolean hasArrivals() {
        return endpoint.mailbox().hasArrivals();
    }

    @Override
    public boolean jobFailed() {
        return job.failed();
    }

    /** Wakes this rank's parked threads so they re-check what they wait for. */
    void wake() {
        doorbell.ring();
    }

    /** Waits until the condition holds (the device's single wait path). */
    public void await(Condition condition, String what) {
        job.waitStrategy().await(this, condition, what);
    }

    // ---- lifecycle -------------------------------------------------------------------------

    /**
     * MPI_Init / MPI_Init_thread: registers this rank and waits until every rank of the job has
     * registered (a barrier-style init, as in MPJ Express's shared-memory device). Returns the thread
     * level provided.
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
            endpoint.mailbox().deferPostsOf(me); // its receives posted behind others take no lock
            if (confinedTo != null) {
                endpoint.mailbox().confineTo(me); // one thread calls MPI: its mailbox needs no owner lock
            }
            lifecycle = INITIALIZED;
        }
        job.register(this, call);
        return requiredThreadLevel;
    }

    /**
     * MPI_Finalize. What the rank leaves behind is reported first ({@link FinalizeReport}); under
     * {@code --check}, operations still pending make it fail, with MPI still usable. In a job no
     * launcher runs, it waits for the ranks the job spawned ({@link Job#awaitSpawnedRanks}).
     */
    public void finish(String call) {
        checkInitialized(call);
        for (java.util.function.Consumer<String> action : atFinalize) {
            action.accept(call);
        }
        FinalizeReport.check(this, call);
        job.awaitSpawnedRanks(this, call);
        lifecycle = FINALIZED;
    }

    /** Runs {@code action} with the call's name first at this rank's Finalize ({@link #finish}). */
    public void atFinalize(java.util.function.Consumer<String> action) {
        atFinalize.add(action);
    }

    /** Takes back an action given to {@link #atFinalize} (the same object); nothing if it is not there. */
    public void dropAtFinalize(java.util.function.Consumer<String> action) {
        atFinalize.remove(action);
    }

    /** How many actions wait for this rank's Finalize. */
    int atFinalizeCount() {
        return atFinalize.size();
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
    public Thread mainThread() {
        return mainThread;
    }

    public boolean isMainThread() {
        return Thread.currentThread() == mainThread;
    }

    /** The thread group of the rank's threads (set by the job that runs it), or null. */
    public ThreadGroup threads() {
        return threads;
    }

    void runsIn(ThreadGroup group) {
        threads = group;
    }

    /** Whether the rank runs on a virtual thread (see {@link ThreadKind}). */
    public boolean isVirtual() {
        return virtual;
    }

    void runsVirtual() {
        virtual = true;
    }

    /**
     * What a poll of this rank does when it finds nothing ready (MPI_Test and its relatives,
     * MPI_Request_get_status, MPI_Iprobe, MPI_Improbe, MPI_Win_test), before it returns: a virtual
     * rank lets the other ranks run. Virtual threads are not time-sliced: a rank polling in a loop
     * ({@code while (!request.test()) ...}) would otherwise keep its carrier, and once as many ranks
     * poll as there are carriers, the ranks they wait for (and whose arrival completes a
     * non-blocking collective) never run again. MPI's progress rule wants the reverse: an operation
     * its peers have enabled is eventually found complete by repeated tests. So the poll yields the
     * carrier, which runs the ranks other ranks woke; and at every {@link Tunables#POLLS_PER_PARK}th
     * miss it parks for a nanosecond instead: a carrier whose thread yields takes its next task
     * from the queue the yielded thread went back to, so with yields alone a rank woken from
     * outside the carriers (its sleep ended, a platform thread rang it) waited for as long as the
     * pollers polled (JDK 25); a parked poller leaves its carrier to look elsewhere. The pollers
     * take turns with every other runnable rank, as Open MPI's ranks do when oversubscribed
     * ({@code mpi_yield_when_idle}). A platform rank returns at once: the OS preempts it. Any
     * thread of the rank may call it.
     */
    public void pollMissed() {
        if (!virtual) {
            return;
        }
        if (++missedPolls % Tunables.POLLS_PER_PARK == 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(1);
        } else {
            Thread.yield();
        }
    }

    /**
     * The threads of a virtual rank, other than its main thread, that have blocked in MPI (live or
     * not); empty for other ranks. A snapshot, safe from any thread.
     */
    public java.util.List<Thread> trackedThreads() {
        tracked.removeIf(t -> !t.isAlive());
        return java.util.List.copyOf(tracked);
    }

    /**
     * Whether a virtual rank's threads have created a virtual thread that never blocked in MPI: it
     * may be running, and nothing lists it (virtual threads are in no thread group, nor in
     * {@code ThreadMXBean}), so the rank may make progress. Counts every thread ever created, so
     * once true it stays true; the deadlock detector then errs toward no report, which leaves a
     * deadlock to {@code --timeout}.
     */
    public boolean hasUntrackedVirtualThreads() {
        return createdVirtual.get() > trackedVirtual.get();
    }

    /**
     * Where a virtual rank's platform threads that never blocked in MPI are, if its threads created
     * any: the thread group of every platform thread that virtual threads create (the JVM lists them
     * there, though not by rank), which the deadlock detector then looks at; else null.
     */
    public ThreadGroup untrackedPlatformThreads() {
        return virtual && createdPlatform.get() > trackedPlatform.get() ? ThreadKind.virtualThreadsGroup() : null;
    }

    /**
     * Counts a thread being constructed by one of this rank's threads (a virtual rank's), by its
     * kind, which the constructor's frames tell; false for a carrier thread of virtual threads (a
     * virtual thread may make the JVM start one), which is no rank's. Thread creation is costly
     * anyway; the look at a few frames is made for virtual ranks only.
     */
    private boolean threadCreated() {
        if (!virtual) {
            return true;
        }
        String kind = WALKER.walk(frames -> frames.limit(CONSTRUCTION_FRAMES)
            .filter(f -> f.getMethodName().equals("<init>")).map(StackWalker.StackFrame::getClassName)
            .filter(c -> c.equals("jdk.internal.misc.CarrierThread") || c.equals("java.lang.VirtualThread"))
            .findFirst().orElse(""));
        if (kind.equals("jdk.internal.misc.CarrierThread")) {
            return false;
        }
        (kind.isEmpty() ? createdPlatform : createdVirtual).incrementAndGet();
        return true;
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
    @Override
    public void checkAlive(String call) {
        job.checkAlive(this, call);
    }

    // ---- deadlock detection ------------------------------------------------------------------

    /**
     * Records that the calling thread is about to park in a blocking call (slow path only: after
     * the spin). Every thread of the rank is tracked, for ranks at THREAD_SERIALIZED and
     * THREAD_MULTIPLE whose threads block in MPI side by side.
     */
    @Override
    public Object enterBlocked(Condition condition, String call) {
        Thread me = Thread.currentThread();
        BlockedCall b = new BlockedCall(call, condition, me);
        if (me == mainThread) {
            mainBlocked = b;
            return b;
        }
        blocked.put(me, b);
        if (virtual && me != mainThread && tracked.add(me)) {
            (ThreadKind.isVirtual(me) ? trackedVirtual : trackedPlatform).incrementAndGet();
        }
        return b;
    }

    @Override
    public void parking(Object token) {
        ((BlockedCall) token).countPark();
    }

    @Override
    public void leaveBlocked(Object token) {
        BlockedCall b = (BlockedCall) token;
        if (mainBlocked == b) {
            mainBlocked = null;
        } else {
            blocked.remove(b.thread(), b);
        }
    }

    /** The blocking call {@code t} is parked in, or null. */
    public BlockedCall blockedCall(Thread t) {
        if (t == null) {
            return null;
        }
        BlockedCall main = mainBlocked;
        return main != null && main.thread() == t ? main : blocked.get(t);
    }

    void markFinished() {
        if (tracer != null) {
            tracer.finished();
        }
        finished = true;
    }

    public boolean isFinished() {
        return finished;
    }

    // ---- buffered sends ----------------------------------------------------------------------

    /** MPI_Buffer_attach: {@code userBuffer} is handed back by detach. */
    public void attachBuffer(Object userBuffer, long capacity, String call) {
        endpoint.attachBuffer(userBuffer, capacity, call);
    }

    /** MPI_Buffer_detach: waits until every buffered message has been delivered. */
    public Object detachBuffer(String call) {
        return endpoint.detachBuffer(call);
    }

    /**
     * {@code rank 5}, and for a spawned rank its place among its siblings: {@code rank 5 (rank 1 of
     * the MPI.COMM_WORLD of spawn of Worker by rank 0)}, as reports name it.
     */
    @Override
    public String toString() {
        World w = world;
        return w == null || w.isFirst() ? "rank " + id
            : "rank " + id + " (rank " + w.members().indexOf(this) + " of the MPI.COMM_WORLD of " + w.origin() + ")";
    }
}
