package mpi;

import java.util.function.BooleanSupplier;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.diag.Awaited;
import org.mpjlite.smpdev.wait.Condition;

/**
 * The one place where window synchronization waits and wakes (lock acquisition, PSCW's start and
 * wait): the device's wait path, so a waiting rank spins only while the ranks fit on the cores and
 * then parks, an interrupt or a job failure ends the wait with an error, and a wait that can never
 * end is part of the job's deadlock report, named by {@code call}.
 *
 * <p>Protocol: whoever makes a waited-for condition true does so with an atomic or volatile write,
 * then calls {@link #wake}; a waiter re-checks its condition after every wake-up. Conditions may
 * be evaluated several times (each must be idempotent once true).
 *
 * <p>Stateless; thread-safe.
 */
final class RmaWait {
    private RmaWait() {
    }

    /**
     * Returns when {@code condition} holds; {@code call} and {@code args} name the wait in reports
     * ({@code Win.lock(MPI.LOCK_SHARED, rank=1)}).
     */
    static void await(Rank me, BooleanSupplier condition, String call, String args) {
        me.await(new Described(condition, args), call);
    }

    /** Wakes the waiters of every rank in {@code ranks} so they re-check their conditions. */
    static void wake(Rank[] ranks) {
        for (Rank r : ranks) {
            r.doorbell().ring();
        }
    }

    /** A window wait as the waiter polls it and as a deadlock report names it. */
    private record Described(BooleanSupplier condition, String args) implements Condition, Awaited {
        @Override
        public boolean isMet() {
            return condition.getAsBoolean();
        }

        @Override
        public String describe(Job job) {
            return args;
        }
    }
}
