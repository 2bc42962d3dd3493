package org.mpjlite.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mpjlite.rma.Sizes.rank;
import static org.mpjlite.rma.Sizes.size;

import java.nio.IntBuffer;
import java.util.stream.Stream;
import mpi.Group;
import mpi.MPI;
import mpi.Win;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs.World;

/**
 * Every operation in every kind of epoch: each rank applies put, accumulate, get, getAccumulate,
 * fetchAndOp and compareAndSwap to its own slots of its right neighbour's window, inside a fence,
 * lock, lockAll or post-start-complete-wait epoch, then checks what it fetched and what its left
 * neighbour left in its own window.
 */
class SyncModesTest {
    enum Sync { FENCE, LOCK, LOCK_ALL, PSCW }

    static Stream<Arguments> cases() {
        return Sizes.all().flatMap(w -> Stream.of(Sync.values()).map(s -> Arguments.of(w, s)));
    }

    /** Window slots: 0 put, 1 accumulate, 2 get, 3 getAccumulate, 4 fetchAndOp, 5 compareAndSwap. */
    private static final int SLOTS = 6;

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void everyOperationInEveryEpoch(World w, Sync sync) {
        w.run(() -> {
            int me = rank();
            int n = size();
            int right = (me + 1) % n;
            int left = (me + n - 1) % n;
            IntBuffer mem = MPI.newIntBuffer(SLOTS);
            for (int s = 0; s < SLOTS; s++) {
                mem.put(s, 100 * me + s);
            }
            Win win = new Win(mem, SLOTS, 1, null, MPI.COMM_WORLD);
            Group world = win.getGroup();
            IntBuffer v = MPI.newIntBuffer(1).put(0, 7 + me);
            IntBuffer got = MPI.newIntBuffer(1);
            IntBuffer old = MPI.newIntBuffer(1);
            IntBuffer fetched = MPI.newIntBuffer(1);
            IntBuffer swapped = MPI.newIntBuffer(1);
            IntBuffer expected = MPI.newIntBuffer(1).put(0, 100 * right + 5);
            switch (sync) {
                case FENCE -> win.fence(MPI.MODE_NOPRECEDE);
                case LOCK -> win.lock(MPI.LOCK_EXCLUSIVE, right, 0);
                case LOCK_ALL -> win.lockAll(0);
                case PSCW -> {
                    win.post(world.incl(new int[] {left}), 0);
                    win.start(world.incl(new int[] {right}), 0);
                }
            }
            win.put(v, 1, MPI.INT, right, 0, 1, MPI.INT);
            win.accumulate(v, 1, MPI.INT, right, 1, 1, MPI.INT, MPI.SUM);
            win.get(got, 1, MPI.INT, right, 2, 1, MPI.INT);
            win.getAccumulate(v, 1, MPI.INT, old, 1, MPI.INT, right, 3, 1, MPI.INT, MPI.SUM);
            win.fetchAndOp(v, fetched, MPI.INT, right, 4, MPI.MAX);
            win.compareAndSwap(v, expected, swapped, MPI.INT, right, 5);
            switch (sync) {
                case FENCE -> win.fence(MPI.MODE_NOSUCCEED);
                case LOCK -> win.unlock(right);
                case LOCK_ALL -> win.unlockAll();
                case PSCW -> {
                    win.complete();
                    win.waitFor();
                }
            }
            if (sync == Sync.LOCK || sync == Sync.LOCK_ALL) {
                MPI.COMM_WORLD.barrier();
            }
            assertEquals(100 * right + 2, got.get(0));
            assertEquals(100 * right + 3, old.get(0));
            assertEquals(100 * right + 4, fetched.get(0));
            assertEquals(100 * right + 5, swapped.get(0));
            int from = 7 + left;
            assertEquals(from, mem.get(0));
            assertEquals(100 * me + 1 + from, mem.get(1));
            assertEquals(100 * me + 2, mem.get(2));
            assertEquals(100 * me + 3 + from, mem.get(3));
            assertEquals(Math.max(100 * me + 4, from), mem.get(4));
            assertEquals(from, mem.get(5));
            win.free();
            return null;
        });
    }
}
