package org.mpjlite.smpdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.smpdev.collective.Collectives;
import org.mpjlite.smpdev.collective.Team;
import org.mpjlite.smpdev.data.BasicType;

/**
 * A rank that leaves a small Bcast early settles it at Finalize unless its communicator is freed
 * first; freeing it takes that action back, so a program that creates and frees communicators in a
 * loop does not keep every team until Finalize.
 */
class FinalizeActionsTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void aFreedTeamLeavesNothingForFinalize(int n) {
        JobResult r = Job.run(JobConfig.builder().ranks(n).shutdownGrace(Duration.ofMillis(500)).build(), rank -> {
            rank.init(Rank.THREAD_SINGLE, "Init");
            Job job = rank.job();
            Membership members = rank.world().members();
            int me = members.indexOf(rank);
            int[] buf = new int[1];
            int kept = -1;
            for (int i = 0; i <= 200; i++) {
                int context = 1_000_000 + 2 * i;
                Team t = Team.of(job, context, members);
                // The first Bcast on a team waits for every member; the later ones return early.
                for (int b = 0; b < 3; b++) {
                    buf[0] = me == 0 ? 10 * i + b : -1;
                    Collectives.bcast(t, me, buf, 0, 1, BasicType.INT, 0, null, "Bcast", null);
                    assertEquals(10 * i + b, buf[0], "Bcast " + b + " on team " + i);
                }
                if (i == 200) {
                    kept = rank.atFinalizeCount(); // a team not freed: settled at Finalize
                } else {
                    t.free(me, "Free");
                    Team.release(job, context, members);
                }
            }
            return List.of(kept, rank.atFinalizeCount());
        });
        assertTrue(r.succeeded(), () -> String.valueOf(r.failure()));
        for (Object counts : r.results()) {
            assertEquals(List.of(1, 1), counts, "Finalize actions with one team left unfreed");
        }
    }
}
