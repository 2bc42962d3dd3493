package org.mpjlite.smpdev.diag;

import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.wait.Doorbell;

/**
 * The threads of one rank at one moment, as the deadlock detector and the job report see them:
 * which are parked in a blocking MPI call, which wait for one of those, and whether the rank as a
 * whole can still make progress.
 *
 * <p>At {@code THREAD_SINGLE} and {@code THREAD_FUNNELED} only the main thread calls MPI, so the
 * rank is stuck exactly when its main thread is parked in MPI: other threads, computing or not,
 * cannot send it anything.
 *
 * <p>At {@code THREAD_SERIALIZED} and {@code THREAD_MULTIPLE} (and for a rank whose main thread has
 * returned while threads it started live on) every live thread of the rank's thread group is
 * looked at, and the rank is stuck only when each of them is:
 * <ul>
 *   <li>parked in a blocking MPI call; or</li>
 *   <li>waiting without a time limit for another stuck thread of the rank: in {@code Thread.join}
 *       on it, or for a monitor or {@code java.util.concurrent} lock it holds.</li>
 * </ul>
 * A thread that runs, sleeps, waits with a time limit, or waits for anything whose waker cannot be
 * named (a future, a latch, a queue, an idle pool thread waiting for work) makes the rank count as
 * able to progress. That errs on the side of no report: a false deadlock report ends a correct
 * program, a missed one leaves it to {@code --timeout}.
 *
 * <p>A virtual rank (see {@code ThreadKind}) has no thread group: its threads are its main thread
 * and the threads that have blocked in MPI, which the rank tracks. While a thread its threads
 * created has never blocked in MPI, the rank counts as able to progress (that thread may be
 * running, and nothing lists it). Virtual threads are not in {@code ThreadMXBean} either, so a
 * virtual thread that joins or waits for a lock is not known to wait for a stuck thread, and
 * keeps its rank counting as able to progress too.
 *
 * <p>Immutable once built; built on the supervising thread from the ranks' published state.
 */
final class RankThreads {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Threads parked in MPI, oldest thread first, with their calls. */
    final Map<Thread, BlockedCall> inMpi;
    /** Threads waiting (join or lock) for a stuck thread: the thread and what it waits in. */
    final Map<Thread, String> waiting;
    /** No thread of the rank can make progress (the rank may still be woken by another rank). */
    final boolean stuck;
    /** The main thread has returned and no thread of the rank lives on. */
    final boolean finished;

    private RankThreads(Map<Thread, BlockedCall> inMpi, Map<Thread, String> waiting, boolean stuck, boolean finished) {
        this.inMpi = inMpi;
        this.waiting = waiting;
        this.stuck = stuck;
        this.finished = finished;
    }

    /**
     * The live threads of the JVM by thread group (a thread under each group it is in, directly or
     * through subgroups), enumerated once, when first asked, for a whole look at the job. On JDK 19
     * and later a thread group no longer lists its own threads: enumerating one walks every thread
     * of the JVM, so a look that enumerated each platform rank's group was quadratic in the ranks
     * (10,000 platform ranks kept the supervising thread busy for minutes).
     *
     * <p>Confined to one thread (the supervising thread, or the one writing a report).
     */
    static final class Census {
        private Map<ThreadGroup, List<Thread>> byGroup;

        /** The live threads in {@code group} and its subgroups, but {@code exclude}. */
        List<Thread> liveThreads(ThreadGroup group, Thread exclude) {
            if (byGroup == null) {
                byGroup = take();
            }
            List<Thread> live = new ArrayList<>();
            for (Thread t : byGroup.getOrDefault(group, List.of())) {
                if (t != exclude && t.isAlive()) {
                    live.add(t);
                }
            }
            return live;
        }

        private static Map<ThreadGroup, List<Thread>> take() {
            ThreadGroup root = Thread.currentThread().getThreadGroup();
            while (root.getParent() != null) {
                root = root.getParent();
            }
            Thread[] all = new Thread[root.activeCount() + 8];
            int n;
            while ((n = root.enumerate(all, true)) == all.length) {
                all = new Thread[all.length * 2];
            }
            Map<ThreadGroup, List<Thread>> byGroup = new HashMap<>();
            for (int i = 0; i < n; i++) {
                for (ThreadGroup g = all[i].getThreadGroup(); g != null; g = g.getParent()) {
                    byGroup.computeIfAbsent(g, k -> new ArrayList<>()).add(all[i]);
                }
            }
            return byGroup;
        }
    }

    /** Rank {@code rank}'s threads, as {@code census} (of the same look) lists them. */
    static RankThreads of(Rank rank, Census census) {
        boolean finished = rank.isFinished();
        ThreadGroup group = rank.threads();
        boolean virtual = rank.isVirtual();
        if ((group == null && !virtual) || (!finished && rank.threadLevel() <= Rank.THREAD_FUNNELED)) {
            return mainThreadOnly(rank, finished);
        }
        if (virtual && rank.hasUntrackedThreads()) {
            return new RankThreads(Map.of(), Map.of(), false, false); // a thread nothing lists may run
        }
        List<Thread> live = virtual ? trackedLiveThreads(rank, finished)
            : census.liveThreads(group, finished ? rank.mainThread() : null);
        if (live.isEmpty()) {
            return new RankThreads(Map.of(), Map.of(), finished, finished);
        }
        Map<Thread, BlockedCall> inMpi = new LinkedHashMap<>();
        List<Thread> others = new ArrayList<>();
        for (Thread t : live) {
            BlockedCall b = parkedCall(rank, t);
            if (b != null) {
                inMpi.put(t, b);
            } else {
                others.add(t);
            }
        }
        Map<Thread, Thread> dependsOn = others.isEmpty() ? Map.of() : dependencies(others, live);
        boolean stuck = dependsOn.size() == others.size() && allReachStuck(inMpi, dependsOn);
        Map<Thread, String> waiting = new LinkedHashMap<>();
        if (stuck) {
            for (Map.Entry<Thread, Thread> d : dependsOn.entrySet()) {
                waiting.put(d.getKey(), describeWait(d.getKey(), d.getValue()));
            }
        }
        return new RankThreads(inMpi, waiting, stuck, false);
    }

    private static RankThreads mainThreadOnly(Rank rank, boolean finished) {
        if (finished) {
            return new RankThreads(Map.of(), Map.of(), true, true);
        }
        Thread main = rank.mainThread();
        BlockedCall b = parkedCall(rank, main);
        return b == null ? new RankThreads(Map.of(), Map.of(), false, false)
            : new RankThreads(Map.of(main, b), Map.of(), true, false);
    }

    /**
     * The blocking call {@code t} is parked in, or null if it is in none or is running. A waiter
     * publishes its call once, before it first parks, and keeps it across wake-ups; between two
     * parks it may run for a long time on behalf of its call (moving a matched message into its
     * buffer: copying, or deserializing a large {@code MPI.OBJECT}), and a running thread can make
     * progress. Only a thread parked on a doorbell (its park blocker) is stuck.
     */
    private static BlockedCall parkedCall(Rank rank, Thread t) {
        BlockedCall b = rank.blockedCall(t);
        return b != null && LockSupport.getBlocker(t) instanceof Doorbell ? b : null;
    }

    /** A virtual rank's live threads: its main thread (unless finished) and those it tracks. */
    private static List<Thread> trackedLiveThreads(Rank rank, boolean finished) {
        List<Thread> live = new ArrayList<>();
        Thread main = rank.mainThread();
        if (!finished && main != null && main.isAlive()) {
            live.add(main);
        }
        for (Thread t : rank.trackedThreads()) {
            if (t.isAlive()) {
                live.add(t);
            }
        }
        return live;
    }

    /**
     * For each thread of {@code others} that waits without a time limit for a thread of
     * {@code live} (joins it, or wants a lock it holds), that thread. Threads that run, sleep, wait
     * with a time limit or for an unnamed waker are left out.
     */
    private static Map<Thread, Thread> dependencies(List<Thread> others, List<Thread> live) {
        long[] ids = new long[others.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = others.get(i).getId();
        }
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        Map<Thread, Thread> dependsOn = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            ThreadInfo info = infos[i];
            if (info == null) {
                continue; // ended meanwhile: it is not waiting for anything
            }
            Thread.State state = info.getThreadState();
            if (state != Thread.State.WAITING && state != Thread.State.BLOCKED) {
                continue;
            }
            Thread on = waitedFor(info, live);
            if (on != null) {
                dependsOn.put(others.get(i), on);
            }
        }
        return dependsOn;
    }

    /** The live thread that holds the lock {@code info}'s thread wants, or that it joins; or null. */
    private static Thread waitedFor(ThreadInfo info, List<Thread> live) {
        long owner = info.getLockOwnerId();
        LockInfo lock = info.getLockInfo();
        for (Thread t : live) {
            if (owner != -1 ? t.getId() == owner
                : lock != null && lock.getClassName().equals(t.getClass().getName())
                    && lock.getIdentityHashCode() == System.identityHashCode(t)) {
                return t;
            }
        }
        return null;
    }

    /**
     * True if every waiting thread's chain of waits ends at a thread parked in MPI, or goes round
     * in a cycle of joins and locks (stuck for good); false if it ends at a thread that can run.
     */
    private static boolean allReachStuck(Map<Thread, BlockedCall> inMpi, Map<Thread, Thread> dependsOn) {
        for (Thread t : dependsOn.keySet()) {
            Thread at = t;
            for (int hops = 0; at != null && !inMpi.containsKey(at) && hops <= dependsOn.size(); hops++) {
                at = dependsOn.get(at);
            }
            if (at == null) {
                return false;
            }
        }
        return true;
    }

    private static String describeWait(Thread t, Thread on) {
        boolean joins = Arrays.stream(t.getStackTrace())
            .anyMatch(e -> e.getClassName().equals("java.lang.Thread") && e.getMethodName().equals("join"));
        return (joins ? "waiting in Thread.join for thread '" : "waiting for a lock held by thread '")
            + on.getName() + "'";
    }
}
