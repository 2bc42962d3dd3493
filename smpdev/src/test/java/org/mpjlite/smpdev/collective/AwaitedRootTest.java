package org.mpjlite.smpdev.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.JobResult;
import org.mpjlite.smpdev.Membership;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.wait.WaitMode;

/**
 * With ranks that park, a member entering a Barrier predicts the call after it from the call after
 * its previous Barrier: a Bcast's root, or none. The last member to arrive hands its core to the
 * woken ranks only on that prediction, so a Barrier followed by anything else keeps releasing its
 * last arriver first. Every collective's result is checked along the way.
 */
class AwaitedRootTest {
    /** What each step of the program does; "bcast" from {@code root}. */
    private static final String BARRIER = "barrier";
    private static final String BCAST = "bcast";
    private static final String ALLREDUCE = "allreduce";

    /**
     * Runs {@code steps} on every member and returns, per member, the root it predicted at each
     * Barrier, in order.
     */
    private static List<List<Integer>> predictions(int n, WaitMode wait, int root, String... steps) {
        JobResult r = Job.run(JobConfig.builder().ranks(n).waitMode(wait).build(), rank -> {
            rank.init(Rank.THREAD_SINGLE, "Init");
            Membership members = rank.world().members();
            int me = members.indexOf(rank);
            Team t = Team.of(rank.job(), 2_000_000, members);
            List<Integer> predicted = new ArrayList<>();
            int round = 0;
            for (String step : steps) {
                round++;
                switch (step) {
                    case BARRIER -> {
                        Collectives.barrier(t, me, null, "Barrier", null);
                        predicted.add(t.awaitedRoot(me));
                    }
                    case BCAST -> {
                        int[] buf = {me == root ? 100 + round : -1};
                        Collectives.bcast(t, me, buf, 0, 1, BasicType.INT, root, null, "Bcast", null);
                        assertEquals(100 + round, buf[0], "Bcast at step " + round);
                    }
                    case ALLREDUCE -> {
                        int[] sum = new int[1];
                        Collectives.allreduce(t, me, new int[] {me + round}, 0, sum, 0, 1, BasicType.INT,
                            BuiltinOp.SUM.on(Layout.basic(BasicType.INT)), false, null, "Allreduce", null);
                        assertEquals(n * round + n * (n - 1) / 2, sum[0], "Allreduce at step " + round);
                    }
                    default -> throw new IllegalArgumentException(step);
                }
            }
            return predicted;
        });
        assertTrue(r.succeeded(), () -> String.valueOf(r.failure()));
        List<List<Integer>> all = new ArrayList<>();
        for (Object p : r.results()) {
            @SuppressWarnings("unchecked")
            List<Integer> list = (List<Integer>) p;
            all.add(list);
        }
        return all;
    }

    private static void assertEveryMember(List<List<Integer>> byMember, Integer... expected) {
        for (int m = 0; m < byMember.size(); m++) {
            assertEquals(List.of(expected), byMember.get(m), "predictions of member " + m);
        }
    }

    @ParameterizedTest(name = "{0} ranks, root {1}")
    @CsvSource({"1, 0", "2, 1", "3, 2", "4, 0", "5, 3"})
    void aBcastAfterEachBarrierIsPredictedFromTheSecondBarrierOn(int n, int root) {
        assertEveryMember(predictions(n, WaitMode.PARK, root, BARRIER, BCAST, BARRIER, BCAST, BARRIER, BCAST, BARRIER),
            -1, root, root, root);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void otherCallsAfterABarrierPredictNoBcast(int n) {
        // After Allreduce, after Barrier, after nothing; then a Bcast that does not follow a Barrier.
        assertEveryMember(predictions(n, WaitMode.PARK, 1 % n, BARRIER, ALLREDUCE, BARRIER, BARRIER, BARRIER,
            ALLREDUCE, BCAST, BARRIER), -1, -1, -1, -1, -1);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {3, 4})
    void thePredictionFollowsTheLastBarrierOnly(int n) {
        // Bcast after the first Barrier, Allreduce after the second: the third predicts no Bcast, the
        // fourth the Bcast again.
        assertEveryMember(predictions(n, WaitMode.PARK, 2, BARRIER, BCAST, BARRIER, ALLREDUCE, BARRIER, BCAST, BARRIER),
            -1, 2, -1, 2);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3})
    void ranksThatSpinPredictNothing(int n) {
        assertEveryMember(predictions(n, WaitMode.SPIN, 0, BARRIER, BCAST, BARRIER, BCAST, BARRIER), -1, -1, -1);
    }
}
