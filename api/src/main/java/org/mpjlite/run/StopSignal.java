package org.mpjlite.run;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.mpjlite.smpdev.Job;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ends a running job promptly on {@code SIGTERM}, {@code SIGINT} or {@code SIGHUP}, with the report
 * of where every rank stood ({@link Job#stop}): the job ends as a stuck job does, {@code mpjrun}
 * prints the report and exits with 128 plus the signal's number (143 for {@code SIGTERM}). Ctrl-C
 * reaches the JVM as {@code SIGTERM}: the {@code mpjrun} script runs it in the background, where
 * {@code SIGINT} is ignored, and passes Ctrl-C on.
 *
 * <p>Without this the JVM's own handling would run its shutdown and end the ranks where they stand,
 * saying nothing. A second signal while the first is being handled (a report that takes too long,
 * a person pressing Ctrl-C again) halts the JVM at once.
 *
 * <p>The handlers run on threads the JVM starts per signal; they only read the ranks' published
 * state and record the failure, which is atomic.
 */
final class StopSignal implements AutoCloseable {
    private static final String[] NAMES = {"TERM", "INT", "HUP"};

    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();

    private StopSignal() {
    }

    /** Handles the stop signals for {@code job} until closed (each that the platform has and lets us handle). */
    static StopSignal install(Job job) {
        StopSignal installed = new StopSignal();
        AtomicBoolean stopping = new AtomicBoolean();
        SignalHandler handler = s -> {
            int code = 128 + s.getNumber();
            if (!stopping.compareAndSet(false, true)) {
                Runtime.getRuntime().halt(code);
            }
            job.stop("stopped by SIG" + s.getName() + ": where every rank stood", code);
        };
        for (String name : NAMES) {
            try {
                Signal signal = new Signal(name);
                installed.previous.add(Signal.handle(signal, handler));
                installed.signals.add(signal);
            } catch (IllegalArgumentException e) {
                // No such signal here, or the JVM keeps it (-Xrs): the JVM's own handling stays.
            }
        }
        return installed;
    }

    @Override
    public void close() {
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
    }
}
