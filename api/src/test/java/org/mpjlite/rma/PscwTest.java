package org.mpjlite.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mpjlite.rma.Sizes.rank;
import static org.mpjlite.rma.Sizes.size;

import java.nio.IntBuffer;
import mpi.Group;
import mpi.MPI;
import mpi.Win;
import org.mpjlite.p2p.Jobs.World;

/** Post-start-complete-wait: generalized active target synchronization. */
class PscwTest {
    @Sizes.AllSizes
    void eachRankPutsToItsRightNeighbourManyEpochsInARow(World w) {
        w.run(() -> {
            int me = rank();
            int n = size();
            int right = (me + 1) % n;
            int left = (me + n - 1) % n;
            IntBuffer mem = MPI.newIntBuffer(1);
            Win win = new Win(mem, 1, 1, null, MPI.COMM_WORLD);
            Group world = win.getGroup();
            Group toRight = world.incl(new int[] {right});
            Group fromLeft = world.incl(new int[] {left});
            IntBuffer v = MPI.newIntBuffer(1);
            for (int epoch = 0; epoch < 30; epoch++) {
                win.post(fromLeft, 0);
                win.start(toRight, 0);
                v.put(0, 1000 * epoch + me);
                win.put(v, 1, MPI.INT, right, 0, 1, MPI.INT);
                win.complete();
                win.waitFor();
                assertEquals(1000 * epoch + left, mem.get(0));
            }
            win.free();
            return null;
        });
    }

    @Sizes.AllSizes
    void allToOneWithGetAndAccumulateEndedByTest(World w) {
        w.run(() -> {
            int me = rank();
            int n = size();
            IntBuffer mem = MPI.newIntBuffer(2);
            Win win = new Win(mem, 2, 1, null, MPI.COMM_WORLD);
            Group world = win.getGroup();
            if (me == 0) {
                mem.put(1, 42);
                win.post(world, MPI.MODE_NOCHECK);
            }
            win.start(world.incl(new int[] {0}), 0);
            IntBuffer one = MPI.newIntBuffer(1).put(0, me + 1);
            IntBuffer got = MPI.newIntBuffer(1);
            win.accumulate(one, 1, MPI.INT, 0, 0, 1, MPI.INT, MPI.SUM);
            win.get(got, 1, MPI.INT, 0, 1, 1, MPI.INT);
            win.complete();
            assertEquals(42, got.get(0));
            if (me == 0) {
                while (!win.test()) {
                    Thread.onSpinWait();
                }
                assertEquals(n * (n + 1) / 2, mem.get(0));
            }
            win.free();
            return null;
        });
    }
}
