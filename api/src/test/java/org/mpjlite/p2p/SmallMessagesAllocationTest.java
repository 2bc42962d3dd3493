package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import mpi.Datatype;
import mpi.MPI;
import mpi.Prequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;

/**
 * The budget of a small message: in steady state a message of a few elements allocates nothing on
 * either side, whatever buffer it is sent from and received into: Java arrays, typed NIO buffers
 * ({@code MPI.newDoubleBuffer}, {@code MPI.newIntBuffer}), native-order ByteBuffers and the
 * big-endian ones {@code ByteBuffer.allocateDirect} makes, carrying bytes or doubles. Persistent
 * requests started again, so that the program itself makes no object; counted with HotSpot's
 * per-thread allocation counter on every rank, in rounds until steady ({@link AllocationRounds}). Each message
 * goes round the ranks as a token (rank 0 sends to rank 1, which then sends to rank 2, ... and the
 * last back to rank 0; to itself, with one rank), each rank posting its receive before it sends,
 * as in a ping-pong. The values are checked as the loop goes. The bound, under 8 bytes per
 * iteration of six messages, is far below one object per message and leaves room for a wait that
 * parks now and then (the slow path records the blocked call). With more ranks than cores every
 * wait parks, so 3 ranks run only where they fit.
 */
class SmallMessagesAllocationTest {
    private static final int TAG = 3;

    /**
     * 1, 2 and 3 ranks with the default, lock-free mailbox. The locked one makes a message object
     * for each small message that arrives before its receive is posted, and such messages stay
     * with whichever rank consumed them (the receiver, or the sender that found the receive
     * posted), so a rank that ran out makes new ones now and then.
     */
    static Stream<World> worlds() {
        return IntStream.of(1, 2, 3).mapToObj(n -> new World(n, MatchingKind.LOCK_FREE, Tunables.DEFAULT_EAGER_THRESHOLD));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void smallMessagesAllocateNothingWhateverTheBuffer(World w) {
        AllocationRounds.assumeMeasurable(w.size());
        w.run(() -> {
            int n = MPI.COMM_WORLD.getSize();
            int me = MPI.COMM_WORLD.getRank();
            int right = (me + 1) % n;
            int left = (me + n - 1) % n;
            DoubleBuffer doublesOut = MPI.newDoubleBuffer(2);
            DoubleBuffer doublesIn = MPI.newDoubleBuffer(2);
            IntBuffer intsOut = MPI.newIntBuffer(3);
            IntBuffer intsIn = MPI.newIntBuffer(3);
            ByteBuffer bigOut = ByteBuffer.allocateDirect(8);
            ByteBuffer bigIn = ByteBuffer.allocateDirect(8);
            ByteBuffer nativeOut = MPI.newByteBuffer(8);
            ByteBuffer nativeIn = MPI.newByteBuffer(8);
            double[] arrayOut = new double[2];
            double[] arrayIn = new double[2];
            ByteBuffer bigDoublesOut = ByteBuffer.allocateDirect(16);
            ByteBuffer bigDoublesIn = ByteBuffer.allocateDirect(16);
            Object[][] buffers = {{doublesOut, doublesIn}, {intsOut, intsIn}, {bigOut, bigIn}, {nativeOut, nativeIn},
                {arrayOut, arrayIn}, {bigDoublesOut, bigDoublesIn}};
            Datatype[] types = {MPI.DOUBLE, MPI.INT, MPI.BYTE, MPI.BYTE, MPI.DOUBLE, MPI.DOUBLE};
            int[] counts = {2, 3, 8, 8, 2, 2};
            Prequest[] sends = new Prequest[buffers.length];
            Prequest[] receives = new Prequest[buffers.length];
            for (int k = 0; k < buffers.length; k++) {
                sends[k] = MPI.COMM_WORLD.sendInit(buffers[k][0], counts[k], types[k], right, TAG + k);
                receives[k] = MPI.COMM_WORLD.recvInit(buffers[k][1], counts[k], types[k], left, TAG + k);
            }
            AllocationRounds.Result r = AllocationRounds.untilSteady(8, i -> {
                long mine = 1_000_003L * me + i;
                doublesOut.put(0, mine).put(1, -mine);
                intsOut.put(0, (int) mine).put(1, i).put(2, me);
                bigOut.putLong(0, mine);
                nativeOut.putLong(0, ~mine);
                arrayOut[0] = mine + 0.5;
                arrayOut[1] = i;
                bigDoublesOut.putDouble(0, -0.5 - mine).putDouble(8, i);
                for (int k = 0; k < sends.length; k++) {
                    receives[k].start();
                    if (me == 0) {
                        sends[k].start();
                        sends[k].waitFor();
                        receives[k].waitFor();
                    } else {
                        receives[k].waitFor();
                        sends[k].start();
                        sends[k].waitFor();
                    }
                }
                long theirs = 1_000_003L * left + i;
                if (doublesIn.get(0) != theirs || doublesIn.get(1) != -theirs || intsIn.get(0) != (int) theirs
                    || intsIn.get(1) != i || intsIn.get(2) != left || bigIn.getLong(0) != theirs
                    || nativeIn.getLong(0) != ~theirs || arrayIn[0] != theirs + 0.5 || arrayIn[1] != i
                    || bigDoublesIn.getDouble(0) != -0.5 - theirs || bigDoublesIn.getDouble(8) != i) {
                    assertEquals(theirs, (long) doublesIn.get(0), "DoubleBuffer, iteration " + i);
                    assertEquals(-theirs, (long) doublesIn.get(1), "DoubleBuffer, iteration " + i);
                    assertEquals((int) theirs, intsIn.get(0), "IntBuffer, iteration " + i);
                    assertEquals(i, intsIn.get(1), "IntBuffer, iteration " + i);
                    assertEquals(left, intsIn.get(2), "IntBuffer, iteration " + i);
                    assertEquals(theirs, bigIn.getLong(0), "big-endian ByteBuffer, iteration " + i);
                    assertEquals(~theirs, nativeIn.getLong(0), "native-order ByteBuffer, iteration " + i);
                    assertEquals(theirs + 0.5, arrayIn[0], "double[], iteration " + i);
                    assertEquals(i, arrayIn[1], "double[], iteration " + i);
                    assertEquals(-0.5 - theirs, bigDoublesIn.getDouble(0), "doubles, big-endian, iteration " + i);
                    assertEquals(i, bigDoublesIn.getDouble(8), "doubles, big-endian, iteration " + i);
                }
            });
            assertTrue(r.last() < 8, "six small messages sent and received allocated " + r);
            for (int k = 0; k < sends.length; k++) {
                sends[k].free();
                receives[k].free();
            }
            return null;
        });
    }
}
