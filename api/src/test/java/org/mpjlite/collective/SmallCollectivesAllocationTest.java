package org.mpjlite.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import mpi.MPI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.p2p.AllocationRounds;
import org.mpjlite.p2p.Jobs.World;

/**
 * The budget of small blocking collectives: in steady state a Barrier, a Bcast, an Allreduce and a
 * Reduce of a few elements allocate nothing (arrays and direct buffers, both dialects' calls, calls
 * of different counts alternating), nor do Bcasts of up to 1 KB, which travel in the epoch lines
 * too (800 bytes of doubles from an array, 160 of ints into an {@code IntBuffer}: runs longer than
 * the copier moves element by element), counted with HotSpot's per-thread allocation counter on
 * every rank, in rounds until steady ({@link AllocationRounds}). Results are checked as the loop goes, so the calls are
 * not idle work. The bound, under 8 bytes per iteration of seven calls, is far below one object per
 * call (16 bytes at least) and leaves room for a wait that parks now and then, which records the
 * blocked call for the deadlock detector (the slow path). With more ranks than cores every wait
 * parks, so the 3-rank case runs only where 3 ranks fit.
 */
class SmallCollectivesAllocationTest {

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3})
    void smallBlockingCollectivesAllocateNothing(int ranks) {
        AllocationRounds.assumeMeasurable(ranks);
        World w = Worlds.of(ranks);
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            int[] ints = new int[2];
            int[] sums = new int[3];
            int[] three = new int[3];
            FloatBuffer floats = MPI.newFloatBuffer(2);
            FloatBuffer total = MPI.newFloatBuffer(2);
            ByteBuffer bytes = MPI.newByteBuffer(8);
            double[] longer = new double[100];
            java.nio.IntBuffer intBuffer = MPI.newIntBuffer(40);
            AllocationRounds.Result r = AllocationRounds.untilSteady(8, i -> {
                MPI.COMM_WORLD.Barrier();
                ints[0] = me == 0 ? i : -1;
                ints[1] = me == 0 ? 2 * i : -1;
                MPI.COMM_WORLD.Bcast(ints, 0, 2, MPI.INT, 0);
                if (ints[0] != i || ints[1] != 2 * i) {
                    assertArrayEquals(new int[] {i, 2 * i}, ints, "Bcast, call " + i);
                }
                three[0] = me;
                three[1] = 1;
                three[2] = i;
                MPI.COMM_WORLD.Allreduce(three, 0, sums, 0, 3, MPI.INT, MPI.SUM);
                if (sums[0] != n * (n - 1) / 2 || sums[1] != n || sums[2] != n * i) {
                    assertArrayEquals(new int[] {n * (n - 1) / 2, n, n * i}, sums, "Allreduce, call " + i);
                }
                floats.put(0, me).put(1, i % 1000);
                MPI.COMM_WORLD.reduce(floats, total, 2, MPI.FLOAT, MPI.MAX, n - 1);
                if (me == n - 1 && (total.get(0) != n - 1 || total.get(1) != i % 1000)) {
                    assertEquals(n - 1, total.get(0), "reduce, call " + i);
                    assertEquals(i % 1000, total.get(1), "reduce, call " + i);
                }
                longer[99] = me == 0 ? i : -1;
                MPI.COMM_WORLD.Bcast(longer, 0, 100, MPI.DOUBLE, 0);
                intBuffer.put(39, me == 0 ? i : -1);
                MPI.COMM_WORLD.bcast(intBuffer, 40, MPI.INT, 0);
                if (longer[99] != i || intBuffer.get(39) != i) {
                    assertEquals(i, longer[99], "Bcast of 100 doubles, call " + i);
                    assertEquals(i, intBuffer.get(39), "bcast of 40 ints, call " + i);
                }
                bytes.put(0, (byte) (me + i % 100));
                MPI.COMM_WORLD.allReduce(bytes, 1, MPI.BYTE, MPI.MAX);
                byte most = (byte) (n - 1 + i % 100);
                if (bytes.get(0) != most) {
                    assertEquals(most, bytes.get(0), "allReduce in place, call " + i);
                }
            });
            assertTrue(r.last() < 8, "Barrier, three Bcasts, Allreduce, reduce and allReduce allocated " + r);
            return null;
        });
    }
}
