package org.mpjlite.smpdev;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import mpjbuf.BufferFactory;
import org.mpjlite.smpdev.diag.Awaited;
import org.mpjlite.smpdev.diag.JobReport;
import org.mpjlite.smpdev.diag.TraceFile;
import org.mpjlite.smpdev.diag.Tracer;
import org.mpjlite.smpdev.error.ErrorClass;
import org.mpjlite.smpdev.error.Errors;
import org.mpjlite.smpdev.p2p.Transfer;
import org.mpjlite.smpdev.wait.Condition;
import org.mpjlite.smpdev.wait.WaitStrategy;

/**
 * One MPI job: N ranks running as threads of this JVM, the process table they register in, the
 * device state they share, and the failure that ends the job early.
 *
 * <p>{@link #run} has its {@code Supervisor} start one thread per rank, wait for all of them and
 * report how the job ended. When a rank throws (or calls {@code Abort}) the job fails: every rank
 * waiting in an MPI call is woken and gets an {@code MPIException} naming the failed rank; the
 * supervisor interrupts ranks that do not stop within the grace period, and after a second grace
 * period reports the job as ended anyway (rank threads are daemons). Nothing waits forever on a
 * failed job.
 *
 * <p>Thread safety: the rank table is immutable after construction; registration and failure are
 * atomic; the first failure wins and is published through a volatile reference.
 */
public final class Job {
    /** Contexts below this are the predefined communicators' (see the API layer's Intracomm). */
    public static final int FIRST_FREE_CONTEXT = 4;
    private final JobConfig config;
    private final Rank[] ranks;
    /** Every rank, in order: the members of a world communicator. */
    private final Membership world;
    private final Transfer transfer;
    private final WaitStrategy waitStrategy;
    private final BufferFactory buffers;
    private final AtomicInteger registered = new AtomicInteger();
    private final AtomicReference<RankFailure> failure = new AtomicReference<>();
    /** When the failure happened, {@link System#nanoTime()}: for the trace. Written once, after the failure. */
    private volatile long failedAt;
    private final java.util.concurrent.ConcurrentHashMap<Object, Object> shared =
        new java.util.concurrent.ConcurrentHashMap<>();
    /** Runs and watches the rank threads when the job runs them ({@link #run(RankTask)}). */
    private final Supervisor supervisor = new Supervisor(this);
    private final java.util.Map<Integer, ContextInfo> contexts = new java.util.concurrent.ConcurrentHashMap<>();
    /** Next matching context to hand out; the API layer's predefined communicators use the ones below. */
    private final java.util.concurrent.atomic.AtomicInteger nextContext =
        new java.util.concurrent.atomic.AtomicInteger(FIRST_FREE_CONTEXT);

    private Job(JobConfig config) {
        this.config = config;
        this.buffers = BufferPools.get(config.poolStrategy(), config.storageKind());
        this.transfer = new Transfer();
        this.waitStrategy = WaitStrategy.forMode(config.waitMode(), config.ranks(),
            Tunables.SPIN_NANOS, Tunables.SPIN_YIELDS, Tunables.SPINS_PER_CHECK);
        this.ranks = new Rank[config.ranks()];
        long origin = System.nanoTime();
        for (int i = 0; i < ranks.length; i++) {
            ranks[i] = new Rank(this, i, origin);
        }
        this.world = new Membership(ranks);
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
        JobResult result = supervisor.run(task);
        if (config.trace() != null) {
            try {
                writeTrace(config.trace());
            } catch (java.io.UncheckedIOException e) {
                // The job's outcome stands; the missing trace is worth a warning, not a failure.
                config.warnings().accept(e.getMessage());
            }
        }
        return result;
    }

    /**
     * Writes the timeline of the job to {@code file} (see {@link TraceFile}), with the report of its
     * failure, if it failed, as an instant event on the failed rank's track (rank 0's for a
     * deadlock or time limit). Called once the ranks have stopped, when {@link JobConfig#trace()} is set.
     *
     * @throws java.io.UncheckedIOException if the file cannot be written
     */
    private void writeTrace(java.nio.file.Path file) {
        List<Tracer> tracers = new java.util.ArrayList<>();
        for (Rank r : ranks) {
            tracers.add(r.tracer());
        }
        RankFailure f = failure.get();
        if (f != null) {
            Tracer at = tracers.get(Math.max(f.rank(), 0));
            String text = f.isStuck() ? f.cause().getMessage() : f.describe();
            at.instant(f.isDeadlock() ? "deadlock" : f.isStuck() ? "timeout" : f.isAbort() ? "Abort" : "failure",
                failedAt, text);
        }
        TraceFile.writeUnchecked(file, tracers, config.traceLimit());
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

    /** How the job's ranks wait: every blocking wait of the device goes through it. */
    public WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    public BufferFactory buffers() {
        return buffers;
    }

    /**
     * The job-wide object stored under {@code key}, created by {@code factory} on first use (once,
     * even when ranks ask concurrently): state that ranks of a communicator share, such as the
     * collective engine's per-communicator slots. Thread-safe; the object is safely published.
     * {@code factory} must not call this method (the table cannot be updated from inside an update).
     */
    @SuppressWarnings("unchecked")
    public <T> T shared(Object key, java.util.function.Function<Object, T> factory) {
        Object v = shared.get(key);
        return v != null ? (T) v : (T) shared.computeIfAbsent(key, factory);
    }

    // ---- init -------------------------------------------------------------------------------

    /** Registers a rank and waits until all have registered: no rank leaves Init before all came. */
    void register(Rank rank, String call) {
        if (registered.incrementAndGet() == ranks.length) {
            wakeAll();
        } else {
            rank.await(new InitWait(), call);
        }
    }

    /** A rank in Init, waiting for the ranks that have not called it yet. */
    private final class InitWait implements Condition, Awaited {
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
     * the members a receive on it names as source ranks (for an intercommunicator, the remote
     * group; null when source ranks are world ranks). The API layer calls this for every context it
     * creates.
     */
    public void describeContext(int context, String name, Membership sources) {
        describeContext(context, name, sources, sources);
    }

    /**
     * As {@link #describeContext(int, String, Membership)} for a context whose senders and receivers
     * are different groups (an intercommunicator): {@code dests} are the members sends on it name as
     * destination ranks.
     */
    public void describeContext(int context, String name, Membership sources, Membership dests) {
        contexts.put(context, new ContextInfo(name, sources, dests));
    }

    /** Names a context whose source ranks are world ranks. */
    public void nameContext(int context, String name) {
        describeContext(context, name, null);
    }

    /** Forgets a context: its communicator was freed. */
    public void forgetContext(int context) {
        contexts.remove(context);
    }

    public String contextName(int context) {
        ContextInfo info = contexts.get(context);
        return info != null ? info.name : "communicator with context " + context;
    }

    /** Adds the world ranks a receive on {@code context} from {@code source} (or ANY_SOURCE) waits for. */
    public void addSourceRanks(int context, int source, java.util.BitSet ranks) {
        ContextInfo info = contexts.get(context);
        Membership sources = info == null ? null : info.sources;
        if (source == org.mpjlite.matching.Envelope.ANY_SOURCE) {
            if (sources == null) {
                ranks.set(0, size());
            } else {
                for (int i = 0; i < sources.size(); i++) {
                    ranks.set(sources.worldRank(i));
                }
            }
        } else if (sources == null) {
            ranks.set(source);
        } else if (source >= 0 && source < sources.size()) {
            ranks.set(sources.worldRank(source));
        }
    }

    /** The rank a send on {@code context} to {@code dest} names: its rank in the receiving group. */
    public int destRank(int context, Rank dest) {
        ContextInfo info = contexts.get(context);
        int index = info == null || info.dests == null ? -1 : info.dests.indexOf(dest);
        return index >= 0 ? index : dest.id();
    }

    private record ContextInfo(String name, Membership sources, Membership dests) {
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
        long now = System.nanoTime();
        if (failure.compareAndSet(null, new RankFailure(rank, cause, code))) {
            failedAt = now;
            wakeAll();
            supervisor.jobFailed();
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

    /** Every rank, in order: the members of a world communicator. */
    public Membership world() {
        return world;
    }

    /** The ranks, in order (diagnostics and tests). */
    public List<Rank> ranks() {
        return List.of(ranks);
    }
}
