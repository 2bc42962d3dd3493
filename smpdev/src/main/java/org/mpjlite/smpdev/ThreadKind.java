package org.mpjlite.smpdev;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * What kind of thread runs each rank's main: a platform thread (an OS thread with a stack of its
 * own, {@link JobConfig#stackSize()}), or a virtual thread (JDK 21 and later: a few hundred bytes
 * until it runs, carried by a small pool of platform threads; a rank that waits in MPI unmounts and
 * frees its carrier). Virtual ranks make jobs of tens of thousands of ranks fit in a laptop's
 * memory and start in seconds; see {@link #DEFAULT} for which one a job gets.
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

    /**
     * The kind a job gets unless told: platform. Virtual ranks start a thousand ranks in a fraction
     * of the time and memory (docs/PERFORMANCE.md, "Many ranks") and are the choice for jobs of
     * thousands of ranks, but they are not yet the default: a virtual thread's stack is limited as
     * {@code -Xss} limits it (deep recursion such as deserializing a long linked list overflows where
     * a rank's 8 MiB platform stack does not), and a virtual thread that joins or waits on a lock is
     * invisible to the deadlock detector.
     */
    public static final ThreadKind DEFAULT = PLATFORM;

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
