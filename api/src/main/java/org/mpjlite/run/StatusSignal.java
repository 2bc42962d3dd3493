package org.mpjlite.run;

import java.io.PrintStream;
import org.mpjlite.smpdev.Job;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Prints where every rank of a running job stands when the process gets {@code SIGUSR1}, and lets
 * the job go on: the report {@code --timeout} prints, on demand, for a job that seems stuck but is
 * not deadlocked (ranks busy, or a rank waiting on one that computes).
 *
 * <p>Why not SIGQUIT: the JVM keeps SIGQUIT for its thread dump and refuses any handler for it
 * (even under {@code -Xrs}). The {@code mpjrun} script therefore stays the JVM's parent and turns
 * SIGQUIT (Ctrl-\) into SIGUSR1; a JVM started otherwise takes {@code kill -USR1 <pid>}. Where the
 * platform has no SIGUSR1 (Windows), there is no status signal.
 *
 * <p>The handler runs on the JVM's signal thread; it only reads the ranks' published state.
 */
final class StatusSignal implements AutoCloseable {
    static final String HEADLINE = "status (SIGQUIT or SIGUSR1): the job goes on";
    private static final Signal USR1 = usr1();

    private final SignalHandler previous;

    private StatusSignal(SignalHandler previous) {
        this.previous = previous;
    }

    /** Handles SIGUSR1 for {@code job} until closed, printing the status to {@code err}. */
    static StatusSignal install(Job job, PrintStream err) {
        if (USR1 == null) {
            return new StatusSignal(null);
        }
        return new StatusSignal(Signal.handle(USR1, s -> {
            String status = job.describeRanks(HEADLINE);
            synchronized (err) {
                err.print("mpjrun: " + status);
                err.flush();
            }
        }));
    }

    private static Signal usr1() {
        try {
            return new Signal("USR1");
        } catch (IllegalArgumentException e) {
            return null; // no such signal on this platform
        }
    }

    @Override
    public void close() {
        if (previous != null) {
            Signal.handle(USR1, previous);
        }
    }
}
