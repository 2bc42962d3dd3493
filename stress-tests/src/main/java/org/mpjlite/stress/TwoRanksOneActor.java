package org.mpjlite.stress;

import java.util.function.IntToLongFunction;

/**
 * Two ranks run by one jcstress actor: jcstress schedules at most one actor per core, so a test of
 * three ranks on two cores runs its third rank on a thread that the second actor starts and joins.
 */
final class TwoRanksOneActor {
    private TwoRanksOneActor() {
    }

    /** Runs {@code rank} for {@code onActor} on the calling thread and for {@code onThread} on a new one; both results. */
    static long[] run(IntToLongFunction rank, int onActor, int onThread) {
        long[] other = new long[1];
        Thread t = new Thread(() -> other[0] = rank.applyAsLong(onThread));
        t.start();
        long mine = rank.applyAsLong(onActor);
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new long[] {mine, other[0]};
    }
}
