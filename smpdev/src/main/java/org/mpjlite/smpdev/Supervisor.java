package org.mpjlite.smpdev;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.mpjlite.smpdev.diag.DeadlockDetector;
import org.mpjlite.smpdev.diag.JobReport;

/**
 * Runs the ranks of a {@link Job} as threads and watches them: starts one daemon thread per rank,
 * waits until every rank has returned, and ends the job early when it fails, deadlocks or runs
 * past its time limit.
 *
 * <p>Threads: each rank thread runs its task, records a failure in the job and counts itself out;
 * the thread that called {@link #run} supervises, ten looks a second while deadlock detection or a
 * time limit is on (a timed wait, not a spin), else woken only by exits and failures. When the job
 * fails, every rank waiting in MPI has been woken by {@link Job#fail}; ranks that do not stop within
 * the grace period are interrupted, and after a second grace period the job is reported as ended
 * anyway (rank threads are daemons). Nothing waits forever on a failed job.
 *
 * <p>Ranks spawned while the job runs ({@link #startLate}) are started by the spawning rank's
 * thread and counted live before that rank goes on, so the job cannot end between a spawn and its
 * children's start; their results are not part of the job's (those are the first ranks').
 *
 * <p>Thread safety: the count of live ranks is guarded by the exit monitor, which exits and
 * failures notify; the threads are kept in a concurrent queue; the rest is confined to the
 * supervising thread.
 */
final class Supervisor {
    private final Job job;
    private final Object exitMonitor = new Object();
    /** Rank threads still running; guarded by {@link #exitMonitor}. */
    private int alive;
    /** Every rank thread started, the first ranks' and spawned ones', to interrupt on failure. */
    private final java.util.Queue<Thread> threads = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /**
     * The thread group every rank's group is made in: the supervising thread's (else the group of
     * the thread that first spawned). Not the spawning rank's, or a spawned rank's threads would
     * count as threads of its parent rank. Written before the first rank thread starts (in
     * {@link #run}, or under the exit monitor in {@link #startLate}), which orders it for them.
     */
    private ThreadGroup ranksParent;
    /** True once {@link #run} supervises the job. */
    private volatile boolean supervising;
    /** An unsupervised job's ranks are watched by a thread of their own; guarded by {@link #exitMonitor}. */
    private boolean watching;

    Supervisor(Job job) {
        this.job = job;
    }

    /** Runs every rank's {@code task} on a thread of its own and returns how the job ended. */
    JobResult run(RankTask task) {
        List<Rank> ranks = job.ranks();
        int n = ranks.size();
        Object[] results = new Object[n];
        Thread[] first = new Thread[n];
        ranksParent = Thread.currentThread().getThreadGroup();
        supervising = true;
        synchronized (exitMonitor) {
            alive += n;
        }
        for (int i = 0; i < n; i++) {
            Rank rank = ranks.get(i);
            first[i] = rankThread(rank, () -> results[rank.id()] = task.run(rank));
        }
        for (int i = 0; i < n; i++) {
            if (job.failed()) {
                // Stopped (or failed) while starting: the ranks not started yet never run.
                synchronized (exitMonitor) {
                    alive -= n - i;
                }
                break;
            }
            first[i].start();
        }
        try {
            awaitEnd();
        } catch (InterruptedException e) {
            job.fail(-1, e);
            Thread.currentThread().interrupt();
        }
        RankFailure f = job.failure();
        return new JobResult(f == null ? 0 : f.exitCode(), Arrays.asList(results), f);
    }

    /**
     * Starts a rank added while the job runs, on the calling (spawning) thread. A job nobody
     * supervises (a singleton: MPI.Init without a launcher) gets a watching thread while ranks it
     * spawned run: the deadlock detector and time limit of {@link #run}, so that a spawned rank and
     * its parent waiting for each other end with a report there too.
     */
    void startLate(Rank rank, RankTask task) {
        boolean watch;
        synchronized (exitMonitor) {
            alive++;
            if (ranksParent == null) {
                ranksParent = Thread.currentThread().getThreadGroup();
            }
            watch = !supervising && !watching;
            watching |= watch;
        }
        rankThread(rank, () -> task.run(rank)).start();
        if (watch) {
            Thread watcher = new Thread(ranksParent, this::watchSpawnedRanks, "mpjlite-supervisor");
            watcher.setDaemon(true);
            watcher.start();
        }
    }

    /** The watching thread of an unsupervised job: supervises until no spawned rank runs. */
    private void watchSpawnedRanks() {
        try {
            while (true) {
                awaitEnd();
                synchronized (exitMonitor) {
                    if (alive == 0 || job.failed()) {
                        watching = false;
                        return;
                    }
                }
            }
        } catch (InterruptedException e) {
            // a daemon interrupted by nobody but a JVM on its way out: nothing is left to watch
            synchronized (exitMonitor) {
                watching = false;
            }
        }
    }

    /**
     * A daemon thread that runs {@code body} as {@code rank}: a platform thread in the rank's own
     * thread group, or a virtual thread ({@link JobConfig#threads()}), which cannot be in a group:
     * a virtual rank tracks its threads itself.
     */
    private Thread rankThread(Rank rank, RankBody body) {
        ThreadKind kind = job.config().threads();
        ThreadGroup group = null;
        if (kind == ThreadKind.PLATFORM) {
            group = rankThreadGroup(ranksParent != null ? ranksParent : Thread.currentThread().getThreadGroup(),
                rank.id());
            rank.runsIn(group);
        } else {
            rank.runsVirtual();
        }
        Thread t = kind.newThread(group, "mpjlite-rank-" + rank.id(), job.config().stackSize(),
            () -> runRank(rank, body));
        threads.add(t);
        return t;
    }

    /**
     * True once {@link #run} supervises the job. A job nobody supervises (a singleton: MPI.Init
     * without a launcher) has its spawned ranks waited for by Finalize instead ({@link Job}).
     */
    boolean supervises() {
        return supervising;
    }

    /** True while a rank thread runs: for an unsupervised job, the ranks it spawned. */
    boolean ranksRunning() {
        synchronized (exitMonitor) {
            return alive > 0;
        }
    }

    /** What a rank's thread runs, its result kept by the body itself. */
    @FunctionalInterface
    private interface RankBody {
        void run() throws Throwable;
    }

    /** The job has failed: the supervisor stops waiting for a normal end. */
    void jobFailed() {
        synchronized (exitMonitor) {
            exitMonitor.notifyAll();
        }
    }

    /**
     * The thread group of one rank: its main thread runs in it and the threads a program starts
     * inherit it (as do executors' threads created by them), which is how the deadlock detector
     * finds every thread of a rank. A daemon group, so that on JDK 17 it is destroyed with its last
     * thread instead of staying in its parent's list (later JDKs hold groups weakly).
     */
    @SuppressWarnings("removal")
    private static ThreadGroup rankThreadGroup(ThreadGroup parent, int rank) {
        ThreadGroup group = new ThreadGroup(parent, "mpjlite-rank-" + rank);
        group.setDaemon(true);
        return group;
    }

    private void runRank(Rank rank, RankBody body) {
        rank.bindToCurrentThread();
        try {
            body.run();
            if (rank.isInitialized() && !rank.isFinalized() && !job.failed()) {
                job.config().warnings().accept("rank " + rank.id() + " returned without calling MPI.Finalize");
            }
        } catch (Throwable t) {
            job.fail(rank.id(), t);
        } finally {
            rank.markFinished();
            // Buffers this thread freed and kept for reuse go back to the pool for other threads.
            job.buffers().releaseThreadCache();
            Rank.unbindCurrentThread();
            boolean last;
            synchronized (exitMonitor) {
                last = --alive == 0;
                exitMonitor.notifyAll();
            }
            if (last && !supervises()) {
                job.wakeAll(); // a Finalize waits for the spawned ranks
            }
        }
    }

    private void awaitEnd() throws InterruptedException {
        JobConfig config = job.config();
        DeadlockDetector detector = config.deadlockDetection() ? new DeadlockDetector(job) : null;
        long start = System.nanoTime();
        long limit = config.timeout() == null ? 0 : config.timeout().toNanos();
        synchronized (exitMonitor) {
            while (alive > 0 && !job.failed()) {
                if (detector == null && limit == 0) {
                    exitMonitor.wait();
                    continue;
                }
                exitMonitor.wait(Tunables.SUPERVISOR_TICK_MILLIS);
                long now = System.nanoTime();
                String deadlock = detector == null ? null : detector.tick(now);
                if (deadlock != null) {
                    job.fail(-1, new DeadlockException(deadlock));
                } else if (limit != 0 && now - start >= limit) {
                    job.fail(-1, new JobTimeoutException(JobReport.describe(job,
                        "timeout: the job ran longer than " + config.timeout().toMillis() / 1000.0 + " s")));
                }
            }
        }
        if (!job.failed()) {
            return;
        }
        long grace = (job.failure().cause() instanceof JobStoppedException ? Tunables.STOP_GRACE
            : config.shutdownGrace()).toNanos();
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
}
