package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import mpi.MPI;
import org.junit.jupiter.api.DisplayName;
import org.mpjlite.p2p.Jobs.World;

/** Init/Finalize state in both dialects, clocks and processor names. */
class EnvironmentTest {
    @Jobs.AnyRanks
    @DisplayName("Init returns the args; Initialized/Finalized and isInitialized/isFinalized follow the life cycle")
    void lifeCycle(World w) {
        List<Integer> ranks = w.runRaw(() -> {
            assertFalse(MPI.Initialized());
            assertFalse(MPI.isInitialized());
            assertFalse(MPI.Finalized());
            assertFalse(MPI.isFinalized());
            String[] args = {"-x", "value"};
            assertArrayEquals(args, MPI.Init(args));
            assertTrue(MPI.Initialized());
            assertTrue(MPI.isInitialized());
            assertFalse(MPI.Finalized());
            int me = MPI.COMM_WORLD.Rank();
            assertEquals(me, MPI.COMM_WORLD.getRank());
            assertEquals(MPI.COMM_WORLD.Size(), MPI.COMM_WORLD.getSize());
            MPI.Finalize();
            assertTrue(MPI.Finalized());
            assertTrue(MPI.isFinalized());
            assertTrue(MPI.Initialized(), "MPI stays initialized after Finalize, as MPI_Initialized says");
            return me;
        });
        for (int r = 0; r < w.size(); r++) {
            assertEquals(r, ranks.get(r));
        }
    }

    @Jobs.Pairs
    @DisplayName("Wtime/wtime resolve below a microsecond; Wtick/wtick say so; processor names agree")
    void clocksAndProcessorName(World w) {
        w.run(() -> {
            assertTrue(MPI.Wtick() > 0 && MPI.Wtick() <= 1e-6, "Wtick " + MPI.Wtick());
            assertEquals(MPI.Wtick(), MPI.wtick());
            double smallestStep = Double.MAX_VALUE;
            double previous = MPI.Wtime();
            for (int i = 0; i < 100_000 && smallestStep > 1e-6; i++) {
                double now = i % 2 == 0 ? MPI.Wtime() : MPI.wtime();
                assertTrue(now >= previous, "time does not go backwards");
                if (now > previous) {
                    smallestStep = Math.min(smallestStep, now - previous);
                }
                previous = now;
            }
            assertTrue(smallestStep < 1e-6, "smallest Wtime step " + smallestStep + " s");
            String name = MPI.Get_processor_name();
            assertFalse(name.isEmpty());
            assertEquals(name, MPI.getProcessorName());
            return null;
        });
    }
}
