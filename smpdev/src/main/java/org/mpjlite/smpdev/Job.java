package org.mpjlite.smpdev;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import mpjbuf.BufferFactory;

/**
 * One MPI job: N ranks running as threads of this JVM, the process table they register in, the
 * device state they share, and the failure that ends the job early.
 *
 * <p>{@link #run} starts one thread per rank, waits for all of them and reports how the job ended.
 * When a rank throws (or calls {@code Abort}) the job fails: every rank waiting in an MPI call is
 * woken and gets an {@code MPIException} naming the failed rank; ranks that do not stop within the
 * grace period are interrupted; after a second grace period the job is reported as ended anyway
 * (rank threads are daemons). Nothing waits forever on a failed job.
 *
 * <p>Thread safety: the rank table is immutable after construction; registration and failure are
 * atomic; the first failure wins and is published through a volatile reference.
 */
public final class Job {
    /** Contexts below this are the predefined communicators' (see the API layer's Intracomm). */
    public static final int FIRST_FREE_CONTEXT = 4;
    private final JobConfig config;
    private final Rank[] ranks;
    private final Transfer transfer;
    private final WaitStrategy waitStrategy;
    private final BufferFactory buffers;
    private final AtomicInteger registered = new AtomicInteger();
    private final AtomicReference<RankFailure> failure = new AtomicReference<>();
    private final java.util.concurrent.ConcurrentHashMap<Object, Object> shared =
        new java.util.concurrent.ConcurrentHashMap<>();
    private final Object exitMonitor = new Object();
    private final java.util.Map<Integer, ContextInfo> contexts = new java.util.concurrent.ConcurrentHashMap<>();
    /** Next matching context to hand out; the API layer's predefined communicators use the ones below. */
    private final java.util.concurrent.atomic.AtomicInteger nextContext =
        new java.util.concurrent.atomic.AtomicInteger(FIRST_FREE_CONTEXT);
    private int alive;

    private static final long SUPERVISOR_TICK_MILLIS = 100;

    private Job(JobConfig config) {
        this.config = config;
        this.buffers = BufferPools.get(config.poolStrategy(), config.storageKind());
        this.transfer = new Transfer();
        this.waitStrategy = WaitStrategy.forJob(config.waitMode(), config.ranks());
        this.ranks = new Rank[config.ranks()];
        for (int i = 0; i < ranks.length; i++) {
            ranks[i] = new Rank(this, i);
        }
    }

    /**
     * Runs a job: one thread per rank, each running {@code task} with its rank bound to it. Returns
     * when every rank has returned, or when the job failed and the ranks were given their grace.
     */
    public static JobResult run(JobConfig config, RankTask task) {
        return new Job(config).run(task);
    }

    /**
     * A job not started yet: {@link #run(RankTask) run} its ranks as threads (as the static
     * {@code run} does, for a caller that needs the job while it runs), or drive its ranks from the
     * caller's own threads, for stress tests and benchmarks that call the device directly (ranks
     * then need not call Init).
     */
    public static Job create(JobConfig config) {
        return new Job(config);
    }

    /** Runs this job's ranks, one thread each running {@code task}, as {@link #run(JobConfig, RankTask)}. */
    public JobResult run(RankTask task) {
        return runAll(task);
    }

    /**
     * Where every rank stands now (its blocking call and the user's line, or that it runs or has
     * finished; messages waiting for it; the wait-for cycle), under {@code headline}: the report of
     * a time limit, for a status request while the job goes on. Safe from any thread.
     */
    public String describeRanks(String headline) {
        return JobReport.describe(this, headline);
    }

    /**
     * A job of one rank bound to the calling thread: what a program gets when it calls
     * {@code MPI.Init} without having been started by {@code mpjrun} (like a singleton MPI_Init).
     */
    public static Rank singleton(JobConfig config) {
        Job job = new Job(config.toBuilder().ranks(1).build());
        Rank r = job.ranks[0];
        r.bindToCurrentThread();
        return r;
    }

    public JobConfig config() {
        return config;
    }

    public int size() {
        return ranks.length;
    }

    public Rank rank(int id) {
        return ranks[id];
    }

    Transfer transfer() {
        return transfer;
    }

    WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    BufferFactory buffers() {
        return buffers;
    }

    /**
     * The job-wide object stored under {@code key}, created by {@code factory} on first use (once,
     * even when ranks ask concurrently): state that ranks of a communicator share, such as the
     * collective engine's per-communicator slots. Thread-safe; the object is safely published.
     */
    @SuppressWarnings("unchecked")
    public <T> T shared(Object key, java.util.function.Function<Object, T> factory) {
        Object v = shared.get(key);
        return v != null ? (T) v : (T) shared.computeIfAbsent(key, factory);
    }

    /** True while every rank has a core of its own and waiting ranks spin before they park. */
    public boolean spinning() {
        return waitStrategy.spins();
    }

    // ---- init -------------------------------------------------------------------------------

    /** Registers a rank and waits until all have registered: no rank leaves Init before all came. */
    void register(Rank rank, String call) {
        if (registered.incrementAndGet() == ranks.length) {
            wakeAll();
        } else {
            rank.await(new WaitStrategy.Condition() {
                @Override
                public boolean isMet() {
                    return registered.get() == ranks.length;
                }

                @Override
                public String describe(Job job) {
                    return "waiting for every rank to call it";
                }

                @Override
                public void addAwaitedRanks(Job job, java.util.BitSet awaited) {
                    for (Rank r : ranks) {
                        if (!r.isInitialized()) {
                            awaited.set(r.id());
                        }
                    }
                }
            }, call);
        }
    }

    // ---- matching contexts ------------------------------------------------------------------

    /**
     * Reserves {@code n} consecutive matching contexts, unique in this job, and returns the first.
     * A new communicator's members agree on its contexts through a collective on the parent: one
     * member reserves, the others learn the number from it. Thread-safe.
     */
    public int allocateContexts(int n) {
        int first = nextContext.getAndAdd(n);
        if (first < FIRST_FREE_CONTEXT || first + n < first) {
            throw Errors.error(ErrorClass.ERR_INTERN, "the job has used up its 2^31 communicator contexts");
        }
        return first;
    }

    /**
     * What reports need to know of a context: its communicator's name ({@code MPI.COMM_WORLD}), and
     * the world rank of each source rank a receive on it names (for an intercommunicator, the remote
     * group; null when source ranks are world ranks). The API layer calls this for every context it
     * creates.
     */
    public void describeContext(int context, String name, int[] sourceWorldRanks) {
        describeContext(context, name, sourceWorldRanks, sourceWorldRanks);
    }

    /**
     * As {@link #describeContext(int, String, int[])} for a context whose senders and receivers are
     * different groups (an intercommunicator): {@code destWorldRanks} are the world ranks of the
     * destination ranks sends on it name.
     */
    public void describeContext(int context, String name, int[] sourceWorldRanks, int[] destWorldRanks) {
        contexts.put(context, new ContextInfo(name, sourceWorldRanks == null ? null : sourceWorldRanks.clone(),
            destWorldRanks == null ? null : destWorldRanks.clone()));
    }

    /** Names a context whose source ranks are world ranks. */
    public void nameContext(int context, String name) {
        describeContext(context, name, null);
    }

    /** Forgets a context: its communicator was freed. */
    public void forgetContext(int context) {
        contexts.remove(context);
    }

    String contextName(int context) {
        ContextInfo info = contexts.get(context);
        return info != null ? info.name : "communicator with context " + context;
    }

    /** Adds the world ranks a receive on {@code context} from {@code source} (or ANY_SOURCE) waits for. */
    void addSourceRanks(int context, int source, java.util.BitSet ranks) {
        ContextInfo info = contexts.get(context);
        int[] world = info == null ? null : info.sourceWorldRanks;
        if (source == org.mpjlite.matching.Envelope.ANY_SOURCE) {
            if (world == null) {
                ranks.set(0, size());
            } else {
                for (int w : world) {
                    ranks.set(w);
                }
            }
        } else if (world == null) {
            ranks.set(source);
        } else if (source >= 0 && source < world.length) {
            ranks.set(world[source]);
        }
    }

    /** The rank a send on {@code context} to {@code dest} names: its rank in the receiving group. */
    int destRank(int context, Rank dest) {
        ContextInfo info = contexts.get(context);
        int[] world = info == null ? null : info.destWorldRanks;
        if (world != null) {
            for (int i = 0; i < world.length; i++) {
                if (world[i] == dest.id()) {
                    return i;
                }
            }
        }
        return dest.id();
    }

    private record ContextInfo(String name, int[] sourceWorldRanks, int[] destWorldRanks) {
    }

    /** Ranks that have called Init so far. */
    public int registeredRanks() {
        return registered.get();
    }

    // ---- failure ----------------------------------------------------------------------------

    public boolean failed() {
        return failure.get() != null;
    }

    public RankFailure failure() {
        return failure.get();
    }

    /** Throws the job-failure error if the job has failed. */
    void checkAlive(Rank rank, String call) {
        RankFailure f = failure.get();
        if (f != null) {
            throw Errors.error(ErrorClass.ERR_PROC_ABORTED,
                call + " on rank " + rank.id() + " cannot complete: " + f.describe(), f.cause());
        }
    }

    /** Records that a rank threw; the first failure of a job is the one reported. */
    public void fail(int rank, Throwable cause) {
        int code = cause instanceof AbortSignal ? ((AbortSignal) cause).code()
            : cause instanceof StuckJobException ? ((StuckJobException) cause).exitCode()
            : RankFailure.EXCEPTION_EXIT_CODE;
        if (failure.compareAndSet(null, new RankFailure(rank, cause, code))) {
            wakeAll();
            synchronized (exitMonitor) {
                exitMonitor.notifyAll();
            }
        }
    }

    /** MPI_Abort: ends the job with {@code code}; does not return. */
    public AbortSignal abort(Rank rank, int code) {
        return end(rank, code, "Abort");
    }

    /**
     * {@code System.exit(code)} by a rank, {@code code} not 0: as under mpirun, a process that exits
     * with a failure status ends the job with that status; does not return.
     */
    public AbortSignal exit(Rank rank, int code) {
        return end(rank, code, "System.exit");
    }

    private AbortSignal end(Rank rank, int code, String call) {
        AbortSignal signal = new AbortSignal(rank.id(), code, call);
        fail(rank.id(), signal);
        throw signal;
    }

    private void wakeAll() {
        for (Rank r : ranks) {
            r.wake();
        }
    }

    // ---- running ----------------------------------------------------------------------------

    private JobResult runAll(RankTask task) {
        Object[] results = new Object[ranks.length];
        Thread[] threads = new Thread[ranks.length];
        alive = ranks.length;
        for (int i = 0; i < ranks.length; i++) {
            final Rank rank = ranks[i];
            ThreadGroup group = rankThreadGroup(i);
            rank.runsIn(group);
            threads[i] = new Thread(group, () -> runRank(rank, task, results), "mpjlite-rank-" + i);
            threads[i].setDaemon(true);
        }
        for (Thread t : threads) {
            t.start();
        }
        try {
            awaitEnd(threads);
        } catch (InterruptedException e) {
            fail(-1, e);
            Thread.currentThread().interrupt();
        }
        RankFailure f = failure.get();
        return new JobResult(f == null ? 0 : f.exitCode(), Arrays.asList(results), f);
    }

    /**
     * The thread group of one rank: its main thread runs in it and the threads a program starts
     * inherit it (as do executors' threads created by them), which is how the deadlock detector
     * finds every thread of a rank. A daemon group, so that on JDK 17 it is destroyed with its last
     * thread instead of staying in its parent's list (later JDKs hold groups weakly).
     */
    @SuppressWarnings("removal")
    private static ThreadGroup rankThreadGroup(int rank) {
        ThreadGroup group = new ThreadGroup("mpjlite-rank-" + rank);
        group.setDaemon(true);
        return group;
    }

    private void runRank(Rank rank, RankTask task, Object[] results) {
        rank.bindToCurrentThread();
        try {
            results[rank.id()] = task.run(rank);
            if (rank.isInitialized() && !rank.isFinalized() && failure.get() == null) {
                config.warnings().accept("rank " + rank.id() + " returned without calling MPI.Finalize");
            }
        } catch (Throwable t) {
            fail(rank.id(), t);
        } finally {
            rank.markFinished();
            // Buffers this thread freed and kept for reuse go back to the pool for other threads.
            buffers.releaseThreadCache();
            Rank.unbindCurrentThread();
            synchronized (exitMonitor) {
                alive--;
                exitMonitor.notifyAll();
            }
        }
    }

    private void awaitEnd(Thread[] threads) throws InterruptedException {
        DeadlockDetector detector = config.deadlockDetection() ? new DeadlockDetector(this) : null;
        long start = System.nanoTime();
        long limit = config.timeout() == null ? 0 : config.timeout().toNanos();
        synchronized (exitMonitor) {
            while (alive > 0 && failure.get() == null) {
                if (detector == null && limit == 0) {
                    exitMonitor.wait();
                    continue;
                }
                // A timed wait, not a spin: ten looks a second at a job that may be stuck.
                exitMonitor.wait(SUPERVISOR_TICK_MILLIS);
                long now = System.nanoTime();
                String deadlock = detector == null ? null : detector.tick(now);
                if (deadlock != null) {
                    fail(-1, new DeadlockException(deadlock));
                } else if (limit != 0 && now - start >= limit) {
                    fail(-1, new JobTimeoutException(JobReport.describe(this,
                        "timeout: the job ran longer than " + config.timeout().toMillis() / 1000.0 + " s")));
                }
            }
        }
        if (failure.get() == null) {
            return;
        }
        long grace = config.shutdownGrace().toNanos();
        if (!awaitAllExited(grace)) {
            for (Thread t : threads) {
                t.interrupt();
            }
            awaitAllExited(grace);
        }
    }

    private boolean awaitAllExited(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        synchronized (exitMonitor) {
            while (alive > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(exitMonitor, left);
            }
            return true;
        }
    }

    /** The ranks, in order (diagnostics and tests). */
    public List<Rank> ranks() {
        return List.of(ranks);
    }
}
