package org.mpjlite.smpdev;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * What kind of thread runs each rank's main: a platform thread (an OS thread with a stack of its
 * own, {@link JobConfig#stackSize()}), or a virtual thread (JDK 21 and later: a few hundred bytes
 * until it runs, carried by a small pool of platform threads; a rank that waits in MPI unmounts and
 * frees its carrier). Virtual ranks make jobs of tens of thousands of ranks fit in a laptop's
 * memory and start in seconds; see {@link #defaultFor} for which one a job gets.
 *
 * <p>Virtual threads are not time-sliced: a virtual rank that computes keeps its carrier until it
 * calls MPI (with as many ranks computing as there are carriers, the others wait for one of them to
 * call MPI). A poll that finds nothing (a Test, an Iprobe) lets the other ranks run before it
 * returns ({@link Rank#pollMissed}), so a loop of tests always completes, as MPI's progress rule
 * wants.
 *
 * <p>Threads a rank starts itself (at {@code THREAD_MULTIPLE}) are whatever the program makes them:
 * {@code new Thread(...)} is a platform thread even in a virtual rank.
 *
 * <p>The code is compiled for Java 17: virtual threads are created through {@code Thread.ofVirtual()}
 * found reflectively once, when this class is initialized. Immutable; thread-safe.
 */
public enum ThreadKind {
    /** One platform (OS) thread per rank: every JDK. */
    PLATFORM,
    /** One virtual thread per rank: JDK 21 and later. */
    VIRTUAL;

    /**
     * {@code Thread.ofVirtual()} as a handle taking the thread's name and task and returning the
     * unstarted thread; null before JDK 21.
     */
    private static final MethodHandle NEW_VIRTUAL = newVirtualHandle();
    /** {@code Thread.isVirtual()}; null before JDK 21. */
    private static final MethodHandle IS_VIRTUAL = NEW_VIRTUAL == null ? null : isVirtualHandle();
    /** See {@link #virtualThreadsGroup()}: asked of a virtual thread never started. */
    private static final ThreadGroup VIRTUAL_THREADS_GROUP = NEW_VIRTUAL == null ? null
        : VIRTUAL.newThread(null, "mpjlite-thread-group-probe", 0, () -> { }).getThreadGroup();

    /**
     * The kind a job of {@code ranks} ranks, each promised a stack of {@code stackSize} bytes, gets
     * unless told: the faster one, as measured (docs/PERFORMANCE.md, "Many ranks").
     * <ul>
     *   <li>Virtual when the ranks outnumber the cores, on JDK 24 or later, and the JVM's thread
     *       stack ({@code -Xss}, which bounds a virtual rank; {@code bin/mpjrun} sets it to
     *       {@code --stack-size}) is at least {@code stackSize}: there every wait parks, and a
     *       virtual rank parks and wakes several times faster than an OS thread (64 ranks on 2
     *       cores: a Barrier and an Allreduce in about a third of the time), and starts in a
     *       fraction of the time and memory.</li>
     *   <li>Platform otherwise. With a core per rank, waits spin and the kinds measure alike
     *       (2 ranks: latency and bandwidth within the noise of each other). On JDK 21 to 23 a
     *       virtual thread blocked inside {@code synchronized} pins its carrier, so a rank calling
     *       MPI under a lock could keep the ranks it waits for from running. A job run in-process in
     *       a JVM with a small {@code -Xss} (1m unless told) keeps its ranks' promised stacks.</li>
     * </ul>
     * Where virtual ranks differ from platform ranks:
     * <ul>
     *   <li>Stack: a virtual thread runs on the stack of its carrier thread, which the JVM makes
     *       with its default thread stack, {@code -Xss}: that, not {@link JobConfig#stackSize()},
     *       bounds how deep a virtual rank recurses. {@code bin/mpjrun} starts the JVM with
     *       {@code -Xss} set to {@code --stack-size} (8m by default), so under it virtual ranks
     *       recurse as deep as platform ranks; a job run in-process has the {@code -Xss} of the JVM
     *       it runs in (1m unless the JVM was started with more), and a rank that overflows it is
     *       reported with what bounds its stack.</li>
     *   <li>Deadlock detection at {@code THREAD_MULTIPLE}: what a virtual thread joins or which lock
     *       it waits for cannot be seen ({@code ThreadMXBean} does not show virtual threads). A
     *       virtual thread waiting outside MPI while its rank's other threads are blocked in MPI
     *       counts as waiting for them, and is reported with the call it waits in; a virtual
     *       thread a rank created that has never blocked in MPI keeps the rank counting as able to
     *       progress (nothing lists it), leaving such a deadlock to {@code --timeout}.</li>
     *   <li>Scheduling: virtual threads are not time-sliced, so a virtual rank that computes keeps
     *       its carrier until it calls MPI; a poll that finds nothing ({@code Test},
     *       {@code Iprobe}...) lets the other ranks run ({@link Rank#pollMissed}).</li>
     * </ul>
     */
    public static ThreadKind defaultFor(int ranks, long stackSize) {
        if (!VIRTUAL.available() || Runtime.version().feature() < 24
            || ranks <= Runtime.getRuntime().availableProcessors()) {
            return PLATFORM;
        }
        long jvm = jvmThreadStackSize();
        return stackSize == 0 || jvm >= stackSize ? VIRTUAL : PLATFORM;
    }

    /** Whether this JDK can run ranks of this kind. */
    public boolean available() {
        return this == PLATFORM || NEW_VIRTUAL != null;
    }

    /** {@code platform} or {@code virtual}, any case. */
    public static ThreadKind parse(String s) {
        return valueOf(s.trim().toUpperCase(java.util.Locale.ROOT));
    }

    /**
     * A new, unstarted daemon thread of this kind; platform threads go into {@code group} with
     * {@code stackSize}. It inherits no inheritable thread-local: a rank spawned from another rank's
     * thread is not that rank's (nor counted among the threads it created).
     */
    Thread newThread(ThreadGroup group, String name, long stackSize, Runnable task) {
        if (this == PLATFORM) {
            Thread t = new RankThread(group, task, name, stackSize);
            t.setDaemon(true);
            return t;
        }
        if (NEW_VIRTUAL == null) {
            throw new UnsupportedOperationException("virtual threads need JDK 21 or later; this is " + Runtime.version());
        }
        try {
            return (Thread) NEW_VIRTUAL.invokeExact(name, task);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("cannot create a virtual thread", e);
        }
    }

    /**
     * What to add to the report of a rank of this kind whose main thread overflowed its stack: how
     * large that stack was, what bounds it, and what gives it more. A platform rank's stack is the
     * {@code stackSize} it was made with (0: the JVM's default, {@code -Xss}). A virtual rank's
     * frames live on the stack of the platform thread carrying it while it runs, and the JVM makes
     * its carrier threads with its default thread stack: {@code -Xss} bounds a virtual rank,
     * whatever {@code stackSize} says. {@code bin/mpjrun} starts the JVM with {@code -Xss} set to
     * {@code --stack-size}; a job run in-process has the stacks of the JVM it runs in.
     *
     * @return the note, starting with a space
     */
    String overflowNote(long stackSize) {
        long jvm = jvmThreadStackSize();
        String bigger = "a larger --stack-size (MpjLite.options().stackSize(bytes) in-process) gives it more";
        if (this == PLATFORM || (jvm > 0 && jvm >= stackSize)) {
            long size = this == PLATFORM && stackSize > 0 ? stackSize : jvm;
            String where = this == PLATFORM ? (stackSize > 0 ? "" : ", the JVM's default thread stack (-Xss),")
                : ", the JVM's default thread stack (-Xss, which bounds a virtual rank; mpjrun sets it to"
                    + " --stack-size),";
            return " (the rank's stack" + (size > 0 ? " of " + bytes(size) : "") + where + " is full: " + bigger + ")";
        }
        return " (a virtual rank's stack is bounded by the JVM's default thread stack, -Xss"
            + (jvm > 0 ? " (" + bytes(jvm) + " here)" : "") + ", not by the stack size asked for ("
            + bytes(stackSize) + "): mpjrun starts the JVM with -Xss set to --stack-size; a job run in-process"
            + " needs the JVM started with -Xss" + bytes(stackSize) + ", or platform ranks)";
    }

    /** The JVM's default stack of a new thread ({@code -Xss}), in bytes; 0 when it cannot tell. */
    static long jvmThreadStackSize() {
        try {
            String kib = java.lang.management.ManagementFactory
                .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                .getVMOption("ThreadStackSize").getValue();
            return Long.parseLong(kib) << 10;
        } catch (RuntimeException | LinkageError e) {
            return 0; // not a HotSpot JVM (no such bean or option): the note says less
        }
    }

    /** {@code 8m}, {@code 512k} or a number of bytes: as --stack-size and -Xss take it. */
    private static String bytes(long n) {
        for (int shift = 30; shift > 0; shift -= 10) {
            if (n != 0 && n % (1L << shift) == 0) {
                return (n >> shift) + "kmg".substring(shift / 10 - 1, shift / 10);
            }
        }
        return String.valueOf(n);
    }

    /**
     * The thread group of every virtual thread, and of the platform threads that virtual threads
     * create (they cannot be told apart by rank); null before JDK 21, when there is none.
     */
    static ThreadGroup virtualThreadsGroup() {
        return VIRTUAL_THREADS_GROUP;
    }

    /** Whether {@code t} is a virtual thread (never before JDK 21). */
    static boolean isVirtual(Thread t) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(t);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("Thread.isVirtual() failed", e);
        }
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("JDK " + Runtime.version() + " has no Thread.isVirtual()", e);
        }
    }

    private static MethodHandle newVirtualHandle() {
        if (Runtime.version().feature() < 21) {
            return null; // JDK 19 and 20 have them only as a preview
        }
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
            MethodHandle create = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtual));
            MethodHandle name = lookup.findVirtual(builder, "name", MethodType.methodType(builder, String.class));
            MethodHandle inherit = lookup.findVirtual(builder, "inheritInheritableThreadLocals",
                MethodType.methodType(builder, boolean.class));
            MethodHandle unstarted = lookup.findVirtual(builder, "unstarted",
                MethodType.methodType(Thread.class, Runnable.class));
            // (name, task) -> Thread.ofVirtual().name(name).inheritInheritableThreadLocals(false).unstarted(task)
            MethodHandle named = MethodHandles.collectArguments(name, 0,
                create.asType(MethodType.methodType(builder)));
            MethodHandle namedAlone = MethodHandles.filterReturnValue(named,
                MethodHandles.insertArguments(inherit, 1, false));
            MethodHandle build = MethodHandles.collectArguments(unstarted, 0, namedAlone);
            return build.asType(MethodType.methodType(Thread.class, String.class, Runnable.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("JDK " + Runtime.version() + " has no Thread.ofVirtual()", e);
        }
    }

    /**
     * The main thread of a rank. Programs find their own frames in their thread's stack trace, the
     * outermost being {@code main} in a JVM's main thread (test suites name the main class and
     * report errors' lines from {@code Thread.currentThread().getStackTrace()}): so, asked by the
     * rank itself, the trace ends at the method the launcher called reflectively (the program's
     * {@code main}) and leaves out the frames that run the rank and make that call. Traces asked
     * by other threads (reports of where ranks wait) and traces of throwables are whole. (Virtual
     * threads cannot be subclassed: their traces are whole.)
     */
    private static final class RankThread extends Thread {
        RankThread(ThreadGroup group, Runnable body, String name, long stackSize) {
            super(group, body, name, stackSize, false);
        }

        @Override
        public StackTraceElement[] getStackTrace() {
            StackTraceElement[] all = super.getStackTrace();
            if (this != Thread.currentThread()) {
                return all;
            }
            int end = all.length;
            while (end > 0 && !isReflection(all[end - 1])) {
                end--;
            }
            while (end > 0 && isReflection(all[end - 1])) {
                end--;
            }
            // The first frame is Thread.getStackTrace, as for any thread; the next is this override.
            int skip = all.length > 1 && all[1].getClassName().equals(RankThread.class.getName()) ? 1 : 0;
            if (end <= 1 + skip) {
                end = all.length; // not started reflectively (a job run in-process): nothing to leave out
            }
            StackTraceElement[] mine = new StackTraceElement[end - skip];
            mine[0] = all[0];
            System.arraycopy(all, 1 + skip, mine, 1, end - 1 - skip);
            return mine;
        }

        private static boolean isReflection(StackTraceElement e) {
            String c = e.getClassName();
            return c.equals("java.lang.reflect.Method") || c.startsWith("jdk.internal.reflect.");
        }
    }
}
