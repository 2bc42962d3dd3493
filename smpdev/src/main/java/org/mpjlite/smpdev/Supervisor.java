package org.mpjlite.smpdev;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
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
 * <p>Rank threads are platform or virtual ({@link JobConfig#threads()}); a platform rank runs in a
 * thread group of its own, which the threads it starts inherit.
 *
 * <p>Thread safety: the count of live ranks is atomic; the last rank to exit and a failure unpark
 * the supervising thread (published through a volatile field before any rank starts), which
 * re-checks both after every park. No rank ever waits for a lock of the supervisor: ten thousand
 * ranks leaving at once do not queue. The rest is confined to the supervising thread.
 */
final class Supervisor {
    private final Job job;
    /** Rank threads still running. */
    private final AtomicInteger alive = new AtomicInteger();
    /** The thread in {@link #run}, which rank exits and failures unpark; set before any rank starts. */
    private volatile Thread supervising;

    Supervisor(Job job) {
        this.job = job;
    }

    /** Runs every rank's {@code task} on a thread of its own and returns how the job ended. */
    JobResult run(RankTask task) {
        List<Rank> ranks = job.ranks();
        int n = ranks.size();
        Object[] results = new Object[n];
        Thread[] threads = new Thread[n];
        supervising = Thread.currentThread();
        alive.set(n);
        ThreadKind kind = job.config().threads();
        for (int i = 0; i < n; i++) {
            final Rank rank = ranks.get(i);
            // Virtual threads cannot join a group: a virtual rank tracks its threads itself.
            ThreadGroup group = null;
            if (kind == ThreadKind.PLATFORM) {
                group = rankThreadGroup(i);
                rank.runsIn(group);
            } else {
                rank.runsVirtual();
            }
            threads[i] = kind.newThread(group, "mpjlite-rank-" + i, job.config().stackSize(),
                () -> runRank(rank, task, results));
        }
        for (int i = 0; i < n; i++) {
            if (job.failed()) {
                // Stopped (or failed) while starting: the ranks not started yet never run.
                alive.addAndGet(i - n);
                threads = Arrays.copyOf(threads, i);
                break;
            }
            threads[i].start();
        }
        try {
            awaitEnd(threads);
        } catch (InterruptedException e) {
            job.fail(-1, e);
            Thread.currentThread().interrupt();
        }
        RankFailure f = job.failure();
        return new JobResult(f == null ? 0 : f.exitCode(), Arrays.asList(results), f);
    }

    /** The job has failed: the supervisor stops waiting for a normal end. */
    void jobFailed() {
        Thread t = supervising;
        if (t != null) {
            LockSupport.unpark(t);
        }
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
            if (alive.decrementAndGet() == 0) {
                LockSupport.unpark(supervising);
            }
        }
    }

    private void awaitEnd(Thread[] threads) throws InterruptedException {
        JobConfig config = job.config();
        DeadlockDetector detector = config.deadlockDetection() ? new DeadlockDetector(job) : null;
        long start = System.nanoTime();
        long limit = config.timeout() == null ? 0 : config.timeout().toNanos();
        long tick = TimeUnit.MILLISECONDS.toNanos(Tunables.SUPERVISOR_TICK_MILLIS);
        long nextTick = start + tick;
        while (alive.get() > 0 && !job.failed()) {
            if (detector == null && limit == 0) {
                park(0);
                continue;
            }
            long now = System.nanoTime();
            if (now - nextTick < 0) {
                park(nextTick - now);
                continue;
            }
            nextTick = now + tick;
            String deadlock = detector == null ? null : detector.tick(now);
            if (deadlock != null) {
                job.fail(-1, new DeadlockException(deadlock));
            } else if (limit != 0 && now - start >= limit) {
                job.fail(-1, new JobTimeoutException(JobReport.describe(job,
                    "timeout: the job ran longer than " + config.timeout().toMillis() / 1000.0 + " s")));
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
        while (alive.get() > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            park(left);
        }
        return true;
    }

    /**
     * Parks the supervising thread until a rank exits last, the job fails, or {@code nanos} pass
     * (0: no limit); may return early, as any park.
     */
    private void park(long nanos) throws InterruptedException {
        if (nanos == 0) {
            LockSupport.park(this);
        } else {
            LockSupport.parkNanos(this, nanos);
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }
}
