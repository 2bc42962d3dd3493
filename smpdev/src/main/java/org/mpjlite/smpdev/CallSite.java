package org.mpjlite.smpdev;

/**
 * Where the user's code called MPI: the first stack frame outside the JDK and MPJ Lite, for
 * reports and error messages. Finding it walks the stack, so callers take it only when something
 * is reported, or for every call under {@link JobConfig#check()}.
 *
 * <p>Stateless; thread-safe.
 */
public final class CallSite {
    private static final StackWalker WALKER = StackWalker.getInstance();

    private CallSite() {
    }

    /** The calling thread's user frame, or null when there is none (MPI called from the library). */
    public static StackTraceElement here() {
        return WALKER.walk(frames -> frames.filter(f -> isUser(f.getClassName())).findFirst()
            .map(StackWalker.StackFrame::toStackTraceElement).orElse(null));
    }

    /**
     * The user frame of another thread (its current stack: the thread may move on, so use it for a
     * thread known to be parked in MPI), or null.
     */
    public static StackTraceElement of(Thread t) {
        for (StackTraceElement e : t.getStackTrace()) {
            if (isUser(e.getClassName())) {
                return e;
            }
        }
        return null;
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

    private static boolean isUser(String c) {
        return !(c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("sun.") || c.startsWith("mpi.")
            || c.startsWith("org.mpjlite.smpdev.") || c.startsWith("org.mpjlite.matching.")
            || c.startsWith("mpjbuf.") || c.startsWith("org.jctools."));
    }
}
