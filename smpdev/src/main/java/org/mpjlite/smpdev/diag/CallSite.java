package org.mpjlite.smpdev.diag;

import org.mpjlite.smpdev.JobConfig;

/**
 * Where the user's code called MPI: the first stack frame outside the JDK and MPJ Lite, for
 * reports and error messages. Finding it walks the stack, so callers take it only when something
 * is reported, or for every call under {@link JobConfig#check()}.
 *
 * <p>A frame is MPJ Lite's when its class is in one of the runtime's packages and was loaded by
 * the runtime's class loader (or is the per-rank {@code mpi.MPI}, which each rank's loader defines
 * from the runtime's bytes). So a program of the user's own in package {@code mpi}, which
 * {@code mpjrun} loads with a rank's loader, is the user's code, and so is any class outside the
 * runtime's packages (a program run in-process shares the runtime's loader). Another thread's
 * frames carry only their loader's name: there the runtime's loader is told by its name, and when
 * it has none (not the JVM's application loader) by the package alone.
 *
 * <p>Stateless; thread-safe.
 */
public final class CallSite {
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final ClassLoader RUNTIME_LOADER = CallSite.class.getClassLoader();
    private static final String RUNTIME_LOADER_NAME = RUNTIME_LOADER == null ? null : RUNTIME_LOADER.getName();

    private CallSite() {
    }

    /** The calling thread's user frame, or null when there is none (MPI called from the library). */
    public static StackTraceElement here() {
        return WALKER.walk(frames -> frames.filter(f -> isUser(f.getClassName(),
                f.getDeclaringClass().getClassLoader() == RUNTIME_LOADER)).findFirst()
            .map(StackWalker.StackFrame::toStackTraceElement).orElse(null));
    }

    /**
     * The user frame of another thread (its current stack: the thread may move on, so use it for a
     * thread known to be parked in MPI), or null.
     */
    public static StackTraceElement of(Thread t) {
        for (StackTraceElement e : t.getStackTrace()) {
            if (isUser(e)) {
                return e;
            }
        }
        return null;
    }

    /** Whether a frame of another thread's stack trace is the user's (see the class comment). */
    static boolean isUser(StackTraceElement e) {
        boolean runtimeLoader = RUNTIME_LOADER_NAME == null || RUNTIME_LOADER_NAME.equals(e.getClassLoaderName());
        return isUser(e.getClassName(), runtimeLoader);
    }

    /** Whether {@code className} is the JDK's. */
    static boolean isJdk(String className) {
        return className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.");
    }

    /** {@code Main.java:12} (the file and line), or {@code Main.java} when the line is unknown. */
    public static String line(StackTraceElement e) {
        if (e.getFileName() == null) {
            return e.getClassName() + "." + e.getMethodName();
        }
        return e.getLineNumber() >= 0 ? e.getFileName() + ":" + e.getLineNumber() : e.getFileName();
    }

    /** {@code Class.method(File.java:12)}, without the class loader prefix a loader name adds. */
    public static String frame(StackTraceElement e) {
        String where = e.getFileName() == null ? "Unknown Source" : line(e);
        return e.getClassName() + "." + e.getMethodName() + "(" + where + ")";
    }

    /** {@code " at Main.java:12"}, or empty when {@code e} is null: appended to a call in a report. */
    public static String at(StackTraceElement e) {
        return e == null ? "" : " at " + line(e);
    }

    /** @param runtimeLoader whether the class was loaded by the runtime's class loader */
    private static boolean isUser(String c, boolean runtimeLoader) {
        if (isJdk(c)) {
            return false;
        }
        boolean runtimePackage = c.startsWith("mpi.") || c.startsWith("org.mpjlite.smpdev.")
            || c.startsWith("org.mpjlite.matching.") || c.startsWith("mpjbuf.") || c.startsWith("org.jctools.");
        boolean perRankMpi = c.equals("mpi.MPI") || c.startsWith("mpi.MPI$");
        return !runtimePackage || !(runtimeLoader || perRankMpi);
    }
}
