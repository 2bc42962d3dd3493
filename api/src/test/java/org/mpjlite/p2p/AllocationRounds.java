package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import mpi.MPI;
import mpi.MPIException;
import org.mpjlite.smpdev.ThreadKind;

/**
 * What each rank's thread allocates per iteration of a loop in steady state, for the tests of the
 * allocation budget: the loop runs in rounds, and after each round (outside it) the ranks agree,
 * with an Allreduce, whether every rank's round stayed under the bound. The first round is warm-up
 * and never counts.
 *
 * <p>Why rounds and not a fixed warm-up: escape analysis keeps a call's objects off the heap only
 * once C2 has compiled the loop with the callees inlined, and when that happens depends on the
 * machine and on the JVM's past. On a loaded machine the compile queue may take seconds, and a test
 * that runs after others in the same JVM may find the library's code deoptimized by their
 * profiles and recompiling. So rounds go on until one is under the bound, for at most
 * {@link #LIMIT_SECONDS}. A path that allocates per call does so in every round, and still fails.
 *
 * <p>HotSpot counts allocation per platform thread only: on virtual rank threads the counter reads
 * -1 and nothing can be measured ({@link #assumeMeasurable}).
 */
public final class AllocationRounds {
    /** Iterations per round. */
    public static final int ITERATIONS = 10_000;
    /** How long the rounds may go on before the last one decides. */
    public static final double LIMIT_SECONDS = 30;

    /** One iteration of the measured loop; {@code i} counts iterations across the rounds, from 0. */
    @FunctionalInterface
    public interface Iteration {
        void run(int i) throws MPIException;
    }

    /**
     * What the rounds found, the same on every rank: the most any rank allocated per iteration in
     * the first round after warm-up and in the last, the rounds run (warm-up included) and the
     * seconds they took.
     */
    public record Result(double first, double last, int rounds, double seconds) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.2f bytes per iteration (the most of any rank) in round %d after %.1f s;"
                + " %.2f in the first round after warm-up", last, rounds, seconds, first);
        }
    }

    private AllocationRounds() {
    }

    /**
     * Skips the calling test unless a job of {@code ranks} can be measured: its ranks each have a
     * core (with more ranks than cores every wait parks, and a park records the blocked call), and
     * its rank threads an allocation counter (not virtual ones).
     */
    public static void assumeMeasurable(int ranks) {
        assumeTrue(ranks <= Runtime.getRuntime().availableProcessors(), "more ranks than cores: every wait parks");
        assumeTrue(Jobs.threads() != ThreadKind.VIRTUAL, "virtual rank threads: HotSpot counts no allocation for them");
    }

    /**
     * Runs {@code body} in rounds of {@link #ITERATIONS} on every rank at once, until every rank's
     * round after the warm-up allocated under {@code bound} bytes per iteration, or
     * {@link #LIMIT_SECONDS} have passed.
     */
    public static Result untilSteady(double bound, Iteration body) throws MPIException {
        long start = System.nanoTime();
        int i = round(0, body);
        double[] mine = new double[2];
        double[] worst = new double[2];
        double first = 0;
        int rounds = 1;
        do {
            long before = allocated();
            i = round(i, body);
            mine[0] = (allocated() - before) / (double) ITERATIONS;
            mine[1] = (System.nanoTime() - start) / 1e9;
            rounds++;
            MPI.COMM_WORLD.allReduce(mine, worst, 2, MPI.DOUBLE, MPI.MAX);
            if (rounds == 2) {
                first = worst[0];
            }
        } while (worst[0] >= bound && worst[1] < LIMIT_SECONDS);
        return new Result(first, worst[0], rounds, worst[1]);
    }

    private static int round(int from, Iteration body) throws MPIException {
        int end = from + ITERATIONS;
        for (int i = from; i < end; i++) {
            body.run(i);
        }
        return end;
    }

    /** Bytes the calling thread has allocated so far. */
    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
