package org.mpjlite.run;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.mpjlite.smpdev.RankFailure;

/**
 * Prints why a job failed, for a student to read: which rank, what it threw (with the stack trace
 * of the user's code, not of the launcher that called it), and the exit code.
 */
final class FailureReport {
    private FailureReport() {
    }

    static void print(RankFailure failure, PrintStream err) {
        if (failure.isStuck()) {
            // The report is the whole story: calls, lines, unmatched messages, the cycle.
            err.print("mpjrun: " + failure.cause().getMessage());
        } else {
            err.println("mpjrun: " + failure.describe());
        }
        if (!failure.isAbort() && !failure.isStuck()) {
            trimLauncherFrames(failure.cause(), Collections.newSetFromMap(new IdentityHashMap<>()));
            failure.cause().printStackTrace(err);
        }
        err.println("mpjrun: job ended with exit code " + failure.exitCode());
    }

    /**
     * Drops the frames below the user's main (rank thread, job, launcher, reflection) from
     * {@code t}, its causes and suppressed exceptions.
     */
    private static void trimLauncherFrames(Throwable t, Set<Throwable> seen) {
        if (t == null || !seen.add(t)) {
            return;
        }
        StackTraceElement[] frames = t.getStackTrace();
        int end = frames.length;
        while (end > 0 && isLauncherFrame(frames[end - 1])) {
            end--;
        }
        t.setStackTrace(Arrays.copyOf(frames, end));
        trimLauncherFrames(t.getCause(), seen);
        for (Throwable s : t.getSuppressed()) {
            trimLauncherFrames(s, seen);
        }
    }

    private static boolean isLauncherFrame(StackTraceElement frame) {
        String c = frame.getClassName();
        return c.startsWith("org.mpjlite.run.")
            || c.startsWith("org.mpjlite.smpdev.Job")
            || c.startsWith("org.mpjlite.smpdev.Supervisor")
            || c.startsWith("jdk.internal.reflect.")
            || c.equals("java.lang.reflect.Method")
            || c.equals("java.lang.Thread");
    }
}
