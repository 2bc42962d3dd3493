package org.mpjlite.smpdev;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
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
 * <p>The job grows when a rank spawns others ({@link #addRanks}): the new ranks get the next ids
 * and a {@link World} of their own, and the job ends when every rank, spawned ones included, has
 * ended.
 *
 * <p>Thread safety: the rank table is copied on write under the job's lock and published through a
 * volatile reference, so readers see a consistent snapshot without locking; registration and
 * failure are atomic; the first failure wins and is published through a volatile reference.
 */
public final class Job {
    /** Contexts below this are the predefined communicators' (see the API layer's Intracomm). */
    public static final int FIRST_FREE_CONTEXT = 4;
    private final JobConfig config;
    /** Every rank, by id; replaced (never changed) when ranks are added. */
    private volatile Rank[] ranks;
    /** The job's first ranks: the members of their world communicator. */
    private final World world;
    private final Transfer transfer;
    /** Chosen for the rank count: replaced when spawned ranks outnumber the cores (see {@link #addRanks}). */
    private volatile WaitStrategy waitStrategy;
    private final BufferFactory buffers;
    private final AtomicReference<RankFailure> failure = new AtomicReference<>();
    /** The job's time zero ({@link System#nanoTime()}) for the times of a trace, spawned ranks' too. */
    private final long origin;
    /** When the failure happened, {@link System#nanoTime()}: for the trace. Written once, after the failure. */
    private volatile long failedAt;
    private final java.util.concurrent.ConcurrentHashMap<Object, Object> shared =
        new java.util.concurrent.ConcurrentHashMap<>();
    /** Releases counted so far per shared key ({@link #release}); a key leaves with its last release. */
    private final java.util.concurrent.ConcurrentHashMap<Object, java.util.concurrent.atomic.AtomicInteger> releases =
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
        this.waitStrategy = waitStrategyFor(config.ranks());
        this.origin = System.nanoTime();
        Rank[] first = new Rank[config.ranks()];
        for (int i = 0; i < first.length; i++) {
            first[i] = new Rank(this, i, origin);
        }
        this.world = new World(new Membership(first), World.FIRST_WORLD_CONTEXT, null);
        for (Rank r : first) {
            r.joins(world);
        }
        this.ranks = first;
    }

    private WaitStrategy waitStrategyFor(int rankCount) {
        return WaitStrategy.forMode(config.waitMode(), rankCount, Tunables.SPIN_NANOS, Tunables.SPIN_YIELDS,
            Tunables.SPINS_PER_CHECK, Tunables.OVERSUBSCRIBED_YIELDS,
            config.threads() == ThreadKind.PLATFORM ? Tunables.OVERSUBSCRIBED_YIELD_NANOS : 0);
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

    /** The number of ranks now, spawned ones included. */
    public int size() {
        return ranks.length;
    }

    /**
     * Adds {@code n} ranks to the running job, with the next ids and a world of their own whose
     * {@code COMM_WORLD} has matching contexts {@code context} and {@code context + 1}; they run
     * once {@link #start started}. {@code madeBy} says what made them, for reports. Thread-safe.
     *
     * @return the new world
     */
    public World addRanks(int n, int context, String madeBy) {
        synchronized (this) {
            Rank[] now = ranks;
            Rank[] grown = java.util.Arrays.copyOf(now, now.length + n);
            Rank[] added = new Rank[n];
            for (int i = 0; i < n; i++) {
                added[i] = new Rank(this, now.length + i, origin);
                grown[now.length + i] = added[i];
            }
            World w = new World(new Membership(added), context, madeBy);
            for (Rank r : added) {
                r.joins(w);
            }
            ranks = grown;
            // A wait already in progress keeps its strategy; the next waits use the one for the new count.
            waitStrategy = waitStrategyFor(grown.length);
            return w;
        }
    }

    /**
     * Starts a rank added by {@link #addRanks} on a thread of its own running {@code task}, watched
     * like the job's first ranks: its failure fails the job, and the job ends only when it has.
     */
    public void start(Rank rank, RankTask task) {
        supervisor.startLate(rank, task);
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

    /**
     * One holder's release of the object stored under {@code key}, which {@code holders} callers
     * share (the members of a freed communicator, say): the last release removes it, so that a
     * program creating and freeing communicators in a loop does not grow the job. Whoever still
     * holds a reference keeps a working object (operations started before the free complete); a
     * lookup after the last release would make a new one, which MPI rules out (nothing uses a
     * freed handle). Thread-safe: the releases count in an atomic per key.
     */
    public void release(Object key, int holders) {
        if (holders <= 1) {
            shared.remove(key);
            return;
        }
        java.util.concurrent.atomic.AtomicInteger n =
            releases.computeIfAbsent(key, k -> new java.util.concurrent.atomic.AtomicInteger());
        if (n.incrementAndGet() == holders) {
            releases.remove(key);
            shared.remove(key);
        }
    }

    /** How many objects the ranks of this job share now ({@link #shared}): for tests of {@link #release}. */
    public int sharedCount() {
        return shared.size();
    }

    // ---- init -------------------------------------------------------------------------------

    /**
     * Registers a rank and waits until all of its world have registered: no rank leaves Init before
     * all came.
     */
    void register(Rank rank, String call) {
        World w = rank.world();
        Membership members = w.members();
        if (w.registered.incrementAndGet() == members.size()) {
            for (int i = 0; i < members.size(); i++) {
                members.rank(i).wake();
            }
        } else {
            rank.await(new InitWait(w), call);
        }
    }

    /** A rank in Init, waiting for the ranks of its world that have not called it yet. */
    private static final class InitWait implements Condition, Awaited {
        private final World world;

        InitWait(World world) {
            this.world = world;
        }

        @Override
        public boolean isMet() {
            return world.registered.get() == world.members().size();
        }

        @Override
        public String describe(Job job) {
            return "waiting for every rank to call it";
        }

        @Override
        public void addAwaitedRanks(Job job, java.util.BitSet awaited) {
            for (Rank r : world.members().ranks()) {
                if (!r.isInitialized()) {
                    awaited.set(r.id());
                }
            }
        }
    }

    /**
     * Finalize of a rank of a job that no supervising thread runs (a singleton: MPI.Init without
     * a launcher) waits until the ranks it spawned have ended: its program's return may end the
     * JVM, whose daemon rank threads would end midway. A supervised job waits for them anyway, and
     * spawned ranks never wait (they would wait for themselves); their own children are counted
     * among the ranks the first one waits for.
     */
    void awaitSpawnedRanks(Rank rank, String call) {
        if (!supervisor.supervises() && rank.world().isFirst()) {
            rank.await(() -> !supervisor.ranksRunning(), call);
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
                ranks.set(0, world.members().size());
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

    /** Ranks of the job's first world that have called Init so far. */
    public int registeredRanks() {
        return world.registered.get();
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
        Rank[] table = ranks;
        String who = rank >= 0 && rank < table.length ? table[rank].toString() : "rank " + rank;
        String note = !(cause instanceof StackOverflowError) || rank < 0 || rank >= table.length ? ""
            : (table[rank].isVirtual() ? ThreadKind.VIRTUAL : ThreadKind.PLATFORM).overflowNote(config.stackSize());
        if (failure.compareAndSet(null, new RankFailure(rank, cause, code, who, note))) {
            failedAt = now;
            wakeAll();
            supervisor.jobFailed();
        }
    }

    /**
     * Stops the job from outside (a signal): records a {@link JobStoppedException} whose report,
     * under {@code headline}, says where every rank stands now, then wakes every rank as any failure
     * does. The supervisor gives the ranks only {@link Tunables#STOP_GRACE} to leave (they are
     * daemons: the process ending ends the rest). Does nothing if the job has already failed.
     * Safe from any thread.
     */
    public void stop(String headline, int exitCode) {
        if (!failed()) {
            fail(-1, new JobStoppedException(JobReport.describe(this, headline), exitCode));
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

    void wakeAll() {
        for (Rank r : ranks) {
            r.wake();
        }
    }

    /** The job's first ranks, in order: the members of their world communicator. */
    public Membership world() {
        return world.members();
    }

    /**
     * The ranks, in order, spawned ones included (a snapshot; diagnostics and tests). A view, not a
     * copy: a spawn replaces the array rather than changing it, and the deadlock detector asks for
     * this ten times a second, which at 100,000 ranks would copy 100,000 references each time.
     */
    public List<Rank> ranks() {
        return Collections.unmodifiableList(Arrays.asList(ranks));
    }
}
