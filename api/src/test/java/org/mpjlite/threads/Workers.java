package org.mpjlite.threads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Runs a body on several threads of the calling rank, named {@code worker-0}, {@code worker-1}...,
 * and waits for them: the threads of the thread-level tests. A failure in any thread is rethrown on
 * the caller's thread (the first one, with the others suppressed).
 */
final class Workers {
    /** The body of one thread, given its index. */
    @FunctionalInterface
    interface Body {
        void run(int thread) throws Exception;
    }

    private Workers() {
    }

    static void runOn(int threads, Body body) throws InterruptedException {
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int index = t;
            Thread thread = new Thread(() -> {
                try {
                    body.run(index);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "worker-" + t);
            thread.start();
            started.add(thread);
        }
        for (Thread t : started) {
            t.join();
        }
        Throwable first = failures.poll();
        if (first != null) {
            for (Throwable other : failures) {
                first.addSuppressed(other);
            }
            if (first instanceof RuntimeException) {
                throw (RuntimeException) first;
            }
            if (first instanceof Error) {
                throw (Error) first;
            }
            throw new AssertionError(first);
        }
    }
}
