package org.mpjlite.stress;

import org.mpjlite.matching.OwnerLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The owner lock of a lock-free mailbox ({@link OwnerLock}), whose unlock is a release store rather
 * than a volatile write: sections still exclude each other, a section's writes are seen whole by
 * the next holder, and a thread waiting for a held lock gets it once it is released.
 */
public class OwnerLockExcludes {
    private OwnerLockExcludes() {
    }

    /**
     * Two threads each add one to a plain counter under the lock; the arbiter reads it.
     *
     * <p>Acceptable: {@code 2, 2}. FORBIDDEN: anything else, a lost update (the sections overlapped,
     * or a holder did not see the previous holder's write).
     */
    @JCStressTest
    @Outcome(id = "2, 2", expect = Expect.ACCEPTABLE, desc = "Both increments, each section after the other.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A lost update: the sections overlapped or did not see each other.")
    @State
    public static class Counts {
        private final OwnerLock lock = new OwnerLock();
        private int count;
        private int copy;

        private void add() {
            lock.lock();
            try {
                int c = count + 1;
                count = c;
                copy = c;
            } finally {
                lock.unlock();
            }
        }

        @Actor
        public void first() {
            add();
        }

        @Actor
        public void second() {
            add();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = count;
            r.r2 = copy;
        }
    }

    /**
     * One thread writes two plain fields in a section; another reads them in its own section.
     *
     * <p>Acceptable: {@code 0, 0} (the reader first) and {@code 1, 1} (the writer first).
     * FORBIDDEN: {@code 1, 0} and {@code 0, 1}, half a section seen.
     */
    @JCStressTest
    @Outcome(id = {"0, 0", "1, 1"}, expect = Expect.ACCEPTABLE, desc = "The other section seen whole or not at all.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "Half of the other section seen.")
    @State
    public static class WholeSections {
        private final OwnerLock lock = new OwnerLock();
        private int x;
        private int y;

        @Actor
        public void writer() {
            lock.lock();
            try {
                x = 1;
                y = 1;
            } finally {
                lock.unlock();
            }
        }

        @Actor
        public void reader(II_Result r) {
            lock.lock();
            try {
                r.r1 = y;
                r.r2 = x;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * The lock is held from the start; one thread asks for it (spins, then parks) and the signal
     * releases it. {@code TERMINATED} is the only acceptable outcome; {@code STALE} (still waiting
     * after the release) is a hang: FORBIDDEN.
     */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = Expect.ACCEPTABLE, desc = "Got the lock once it was released.")
    @Outcome(id = "STALE", expect = Expect.FORBIDDEN, desc = "Still waiting after the release.")
    @State
    public static class WaiterGetsIt {
        private final OwnerLock lock = new OwnerLock();

        public WaiterGetsIt() {
            lock.lock();
        }

        @Actor
        public void waiter() {
            lock.lock();
        }

        @Signal
        public void release() {
            lock.unlock();
        }
    }
}
