package org.mpjlite.smpdev.diag;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.Tunables;

/**
 * Finds a job in which every rank is stuck: each rank finished, or with all its threads parked in
 * blocking MPI calls (or waiting for such threads, see {@link RankThreads}), and none can be woken
 * by anything still running.
 *
 * <p>Runs on the job's supervising thread, a tick at a time ({@link #tick}); it costs nothing on
 * the message path. When every unfinished rank is stuck it rings every doorbell: a waiter whose
 * condition has become true (a message in a lock-free inbox, a wake-up still on its way) leaves its
 * call and so changes the picture. If the same blocked calls (by identity: one record per call,
 * kept across re-parks) are still in place {@link Tunables#DEADLOCK_CONFIRM_NANOS} later, and
 * every one of their threads has parked again since the ring (so it ran and found its condition
 * still false, however long the scheduler made it wait), no rank can make progress and the job is
 * deadlocked.
 *
 * <p>Ranks at THREAD_SERIALIZED or THREAD_MULTIPLE are stuck only when none of their threads can
 * make progress; a thread that computes, sleeps or waits for something unnamed keeps its rank
 * alive in the detector's eyes. What a virtual thread joins or waits for cannot be seen: a virtual
 * thread waiting without a time limit outside MPI while its rank's other threads are blocked in
 * MPI counts as stuck ({@link RankThreads}), and since its wait has no park count to prove it has
 * not moved, the wait is part of the picture that must hold from one look to the next.
 *
 * <p>Confined to the supervising thread.
 */
public final class DeadlockDetector {
    private final Job job;
    private Object[] suspect;
    private long suspectSince;
    /** Each suspected blocked call's park count when the doorbells were rung. */
    private final Map<BlockedCall, Long> parksAtRing = new IdentityHashMap<>();
    /**
     * The rank the last look found able to make progress: looks start there, since it most likely
     * still is, so that a look at a running job of many ranks, most of them waiting, ends at once
     * instead of passing every waiting rank ten times a second.
     */
    private int lastRunning;

    public DeadlockDetector(Job job) {
        this.job = job;
    }

    /** One look at the job; returns the report when it is deadlocked, else null. */
    public String tick(long now) {
        Object[] picture = picture();
        if (picture == null) {
            suspect = null;
            return null;
        }
        if (suspect == null || !java.util.Arrays.equals(suspect, picture)) {
            suspect = picture;
            suspectSince = now;
            parksAtRing.clear();
            for (Object rank : picture) {
                if (rank instanceof Set<?> state) {
                    for (Object c : state) {
                        if (c instanceof BlockedCall b) {
                            parksAtRing.put(b, b.parks());
                        }
                    }
                }
            }
            for (Rank r : job.ranks()) {
                r.doorbell().ring();
            }
            return null;
        }
        if (now - suspectSince < Tunables.DEADLOCK_CONFIRM_NANOS || !allParkedAgainSinceTheRing()) {
            return null;
        }
        return report();
    }

    /**
     * True when rank {@code r} can surely make progress, seen from its main thread alone: the thread
     * is not parked in MPI and, above {@code THREAD_FUNNELED}, is running (not waiting for another
     * of the rank's threads). A few field reads, where the whole look at a rank's threads lists every
     * thread of the JVM and asks the JVM what each waits for: with ranks that fill the cores, each
     * look takes a core from a rank, and a long one outlasts its peer's spin, which then parks.
     */
    private static boolean runsOutsideMpi(Rank r) {
        Thread main = r.mainThread();
        return r.blockedCall(main) == null
            && (r.threadLevel() <= Rank.THREAD_FUNNELED || main != null && main.getState() == Thread.State.RUNNABLE);
    }

    /**
     * Each rank's blocked calls (by identity) and its threads' waits for them (by thread and what
     * it waits in), as a set; or FINISHED; null when some rank may still
     * make progress. The cheap look at main threads ({@link #runsOutsideMpi}) comes first, so that a
     * job whose ranks run is dismissed before any thread of any rank is examined.
     */
    private Object[] picture() {
        List<Rank> ranks = job.ranks();
        int n = ranks.size();
        for (int k = 0; k < n; k++) {
            int i = (lastRunning + k) % n;
            Rank r = ranks.get(i);
            if (!r.isFinished() && runsOutsideMpi(r)) {
                lastRunning = i;
                return null;
            }
        }
        Object[] picture = new Object[n];
        RankThreads.Census census = new RankThreads.Census();
        boolean anyBlocked = false;
        for (int k = 0; k < n; k++) {
            int i = (lastRunning + k) % n;
            Rank r = ranks.get(i);
            RankThreads threads = RankThreads.of(r, census);
            if (threads.finished) {
                picture[i] = FINISHED;
                continue;
            }
            if (!threads.stuck || r.endpoint().mailbox().hasArrivals()) {
                lastRunning = i;
                return null;
            }
            // What its threads wait for outside MPI is part of the picture: a thread that leaves
            // such a wait for another one changes it (a virtual thread's wait shows no park count).
            Set<Object> state = new java.util.HashSet<>(threads.inMpi.values());
            for (Map.Entry<Thread, String> w : threads.waiting.entrySet()) {
                state.add(Map.entry(w.getKey(), w.getValue()));
            }
            picture[i] = state;
            anyBlocked = true;
        }
        return anyBlocked ? picture : null;
    }

    /**
     * True when every suspected thread has parked again since the ring: it ran, found its condition
     * still false and went back to sleep. A thread the ring woke that the scheduler has not run yet
     * (a loaded machine can keep it waiting longer than the confirmation time) has not said so, and
     * is given the time it needs.
     */
    private boolean allParkedAgainSinceTheRing() {
        for (Map.Entry<BlockedCall, Long> e : parksAtRing.entrySet()) {
            if (e.getKey().parks() <= e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private static final Object FINISHED = new Object();

    private String report() {
        return JobReport.describe(job, "deadlock: every rank is blocked in MPI or finished, and no pending "
            + "operation can complete");
    }
}
