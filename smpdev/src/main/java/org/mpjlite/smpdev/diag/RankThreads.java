package org.mpjlite.smpdev.diag;

import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * and the threads that have blocked in MPI, which the rank tracks. While a virtual thread its
 * threads created has never blocked in MPI, the rank counts as able to progress (that thread may
 * be running, and nothing lists it). A platform thread they created that has never blocked in MPI
 * is among the platform threads that virtual threads created, which the JVM lists together: the
 * rank can be stuck only when each of those is parked in MPI (for whichever rank) or waits for a
 * stuck thread, so a thread left running or idle anywhere in the JVM by a virtual thread keeps
 * such a rank counting as able to progress.
 *
 * <p>Virtual threads are not in {@code ThreadMXBean}: what such a thread joins, or which lock or
 * monitor it waits for, cannot be seen. A virtual thread of the rank (its main thread, or one it
 * started) that waits outside MPI without a time limit ({@code Thread.join}, a lock, a monitor,
 * {@code Object.wait}, {@code LockSupport.park}: state {@code WAITING} or {@code BLOCKED}) is
 * taken to wait for the rank's other threads, hence is stuck when at least one of them is parked
 * in MPI and each of the others is stuck too (or has ended): nothing of the rank is left to wake
 * it. Its own stack tells a few waits apart whose waker is no thread of any rank, and those keep
 * the rank counting as able to progress: I/O (a virtual thread reading a socket parks, where a
 * platform thread would be running in native code), a process, a reference queue, and the tasks
 * of fork-join pools and {@code CompletableFuture} (the common pool's threads are nobody's). So is
 * a thread inside MPJ Lite without being parked on the rank's doorbell. A wait for a thread
 * outside the job (in-process jobs can share objects with the code that runs them) would be taken
 * for a deadlock: the report says what the virtual thread waits in and that what it waits for
 * cannot be seen.
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
        if (virtual && rank.hasUntrackedVirtualThreads()) {
            return new RankThreads(Map.of(), Map.of(), false, false); // a thread nothing lists may run
        }
        List<Thread> live = virtual ? trackedLiveThreads(rank, finished)
            : census.liveThreads(group, finished ? rank.mainThread() : null);
        List<Thread> unowned = new ArrayList<>();
        ThreadGroup untracked = rank.untrackedPlatformThreads();
        if (untracked != null) {
            unowned.addAll(census.liveThreads(untracked, null));
            unowned.removeAll(live);
        }
        if (live.isEmpty() && unowned.isEmpty()) {
            return new RankThreads(Map.of(), Map.of(), finished, finished);
        }
        Map<Thread, BlockedCall> inMpi = new LinkedHashMap<>();
        Set<Thread> ends = new HashSet<>(); // threads parked in MPI, this rank's or (unowned ones) another's
        List<Thread> others = new ArrayList<>();
        for (Thread t : live) {
            BlockedCall b = parkedCall(rank, t);
            if (b != null) {
                inMpi.put(t, b);
                ends.add(t);
            } else {
                others.add(t);
            }
        }
        for (Thread t : unowned) {
            if (LockSupport.getBlocker(t) instanceof Doorbell) {
                ends.add(t);
            } else {
                others.add(t);
            }
        }
        List<Thread> all = new ArrayList<>(live);
        all.addAll(unowned);
        Map<Thread, String> unseen = new HashMap<>();
        Map<Thread, Thread> dependsOn = others.isEmpty() ? Map.of() : dependencies(others, all, inMpi, unseen);
        boolean stuck = dependsOn.size() == others.size() && allReachStuck(ends, dependsOn);
        Map<Thread, String> waiting = new LinkedHashMap<>();
        if (stuck) {
            for (Map.Entry<Thread, Thread> d : dependsOn.entrySet()) {
                Thread t = d.getKey();
                if (live.contains(t) || inMpi.containsKey(chainEnd(t, dependsOn))) { // not another rank's
                    waiting.put(t, unseen.containsKey(t) ? unseen.get(t) : describeWait(t, d.getValue()));
                }
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
     * with a time limit or for an unnamed waker are left out. A thread {@code ThreadMXBean} does
     * not show (a virtual thread) that waits for what only the rank's threads can end (see the
     * class comment) waits for one of those parked in MPI, if any: it goes into {@code unseen} with
     * what it waits in.
     */
    private static Map<Thread, Thread> dependencies(List<Thread> others, List<Thread> live,
                                                    Map<Thread, BlockedCall> inMpi, Map<Thread, String> unseen) {
        long[] ids = new long[others.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = others.get(i).getId();
        }
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        Map<Thread, Thread> dependsOn = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            ThreadInfo info = infos[i];
            Thread t = others.get(i);
            if (info == null) {
                // Not shown: a virtual thread, or a thread that has ended meanwhile (isAlive, asked
                // after, is false for it), which waits for nothing.
                String wait = inMpi.isEmpty() || !t.isAlive() ? null : unseenWait(t);
                if (wait != null) {
                    dependsOn.put(t, inMpi.keySet().iterator().next());
                    unseen.put(t, wait);
                }
                continue;
            }
            Thread.State state = info.getThreadState();
            if (state != Thread.State.WAITING && state != Thread.State.BLOCKED) {
                continue;
            }
            Thread on = waitedFor(info, live);
            if (on != null) {
                dependsOn.put(t, on);
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
     * True if every waiting thread's chain of waits ends at a thread parked in MPI (one of
     * {@code ends}), or goes round in a cycle of joins and locks (stuck for good); false if it ends
     * at a thread that can run.
     */
    private static boolean allReachStuck(Set<Thread> ends, Map<Thread, Thread> dependsOn) {
        for (Thread t : dependsOn.keySet()) {
            Thread end = chainEnd(t, dependsOn);
            if (!ends.contains(end) && !dependsOn.containsKey(end)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Where {@code t}'s chain of waits ends: the first thread on it that waits for no thread (parked
     * in MPI, or able to run), or, for a chain that goes round, a thread of the cycle.
     */
    private static Thread chainEnd(Thread t, Map<Thread, Thread> dependsOn) {
        Thread at = t;
        for (int hops = 0; dependsOn.containsKey(at) && hops <= dependsOn.size(); hops++) {
            at = dependsOn.get(at);
        }
        return at;
    }

    /**
     * What a virtual thread waits in, when it waits without a time limit outside MPI for something
     * that only a thread of its rank can end; null when it runs, waits with a time limit, is inside
     * MPJ Lite, or waits for I/O or for a waker that is no rank's (see the class comment). The
     * description names the JDK method the program called (the outermost JDK frame above the
     * program's), such as {@code Thread.join} or {@code ReentrantLock.lock}.
     */
    private static String unseenWait(Thread t) {
        Thread.State state = t.getState();
        if (state != Thread.State.WAITING && state != Thread.State.BLOCKED) {
            return null;
        }
        StackTraceElement[] stack = t.getStackTrace();
        if (t.getState() != state) {
            return null; // it moved while its stack was taken: the stack may show another wait
        }
        StackTraceElement called = null;
        for (StackTraceElement e : stack) {
            String c = e.getClassName();
            if (!CallSite.isJdk(c)) {
                if (!CallSite.isUser(e)) {
                    return null; // in MPI, not parked on the doorbell: about to park, or just woken
                }
                break;
            }
            if (wakerIsNoRanks(c)) {
                return null;
            }
            called = e;
        }
        String in = called == null ? "" : " in " + simpleName(called.getClassName()) + "." + called.getMethodName();
        return (state == Thread.State.BLOCKED ? "blocked on a monitor" + in : "waiting" + in)
            + ", a virtual thread (what it waits for cannot be seen), while every other thread of its rank is"
            + " blocked in MPI";
    }

    /** Whether a frame of class {@code c} waits for I/O, a process, the garbage collector or a pool's task. */
    private static boolean wakerIsNoRanks(String c) {
        return c.startsWith("sun.nio.") || c.startsWith("sun.net.") || c.startsWith("java.net.")
            || c.startsWith("java.nio.channels.") || c.startsWith("jdk.internal.net.") || c.startsWith("java.io.")
            || c.startsWith("java.lang.Process") || c.startsWith("java.lang.ref.")
            || c.startsWith("java.util.concurrent.CompletableFuture") || c.startsWith("java.util.concurrent.ForkJoin");
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    private static String describeWait(Thread t, Thread on) {
        boolean joins = Arrays.stream(t.getStackTrace())
            .anyMatch(e -> e.getClassName().equals("java.lang.Thread") && e.getMethodName().equals("join"));
        return (joins ? "waiting in Thread.join for thread '" : "waiting for a lock held by thread '")
            + on.getName() + "'";
    }
}
