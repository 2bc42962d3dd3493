package org.mpjlite.smpdev.diag;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.mpjlite.smpdev.JobConfig;

/**
 * The requests of one rank that the program has not completed with a wait or a successful test
 * (or freed), under {@link JobConfig#check()}: listed at Finalize, where any still pending is an
 * error. The API layer adds an entry when a non-blocking call returns a request and removes it
 * when the request completes; entries keep their call and user line for the report.
 *
 * <p>Only built under {@code --check}, where every non-blocking call walks the stack anyway; a
 * lock is cheap next to that. Thread-safe (a rank at THREAD_MULTIPLE uses it from several threads).
 */
public final class OpenRequests {
    /** One request the program has not completed. */
    public interface Entry {
        /** True while the operation itself has not completed (not only the request left unwaited). */
        boolean isPending();

        /** {@code Isend(dest=1, tag=0, comm=MPI.COMM_WORLD, count=4, MPI.INT) at Main.java:12}. */
        String describe();
    }

    private final Set<Entry> open = new LinkedHashSet<>();

    public synchronized void add(Entry e) {
        open.add(e);
    }

    public synchronized void remove(Entry e) {
        open.remove(e);
    }

    /** The entries in the order they were opened. */
    synchronized List<Entry> snapshot() {
        return new ArrayList<>(open);
    }
}
