package org.mpjlite.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ThreadLocalRandom;
import mpi.MPI;
import mpi.Request;
import org.mpjlite.p2p.Jobs.World;

/**
 * Blocking Bcast of at most 1 KB, which the engine carries in the epoch lines instead of the slot (up
 * to 240 bytes in the root's own lines, longer ones in the team's Bcast area): every kind of buffer
 * at one element, the largest count each place holds and the first it does not (the area; the
 * general path), from every root; offsets; ByteBuffers of either byte order and with a limit below
 * the data; and loops that alternate it with the general path and other collectives, with
 * non-blocking collectives in flight, the root changing and ranks skewed by pauses.
 */
class SmallBcastTest {
    /** Largest count of {@code k}'s elements carried in the lines. */
    private static int lineCount(Kind k) {
        return org.mpjlite.smpdev.Tunables.LINE_BCAST_BYTES / k.type.getSize();
    }

    /** Largest count of {@code k}'s elements carried in the root's own lines. */
    private static int regionCount(Kind k) {
        return org.mpjlite.smpdev.Tunables.LINE_BCAST_REGION_BYTES / k.type.getSize();
    }

    private static long value(int root, int i) {
        return 3L * root + 7L * i + 1;
    }

    @Worlds.AllSizes
    void everyKindFromEveryRootAtTheLineLimitAndPastIt(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            for (Kind k : Kind.values()) {
                for (int root = 0; root < n; root++) {
                    for (int count : new int[] {1, regionCount(k), regionCount(k) + 1, lineCount(k), lineCount(k) + 1}) {
                        int from = root;
                        String what = k + " count " + count + " root " + root;
                        Object b = me == root ? k.filled(count, i -> value(from, i)) : k.create(count);
                        MPI.COMM_WORLD.bcast(b, count, k.type, root);
                        k.assertHolds(b, 0, count, i -> k.normalize(value(from, i)), "bcast " + what);
                        if (!k.isBuffer()) {
                            Object o = me == root ? k.filled(3 + count, i -> value(from, i - 3)) : k.create(5 + count);
                            MPI.COMM_WORLD.Bcast(o, me == root ? 3 : 5, count, k.type, root);
                            int at = me == root ? 3 : 5;
                            k.assertHolds(o, at, count, i -> k.normalize(value(from, i)), "Bcast with offset " + what);
                            if (me != root) {
                                k.assertHolds(o, 0, 5, i -> 0, "Bcast leaves the elements before the offset");
                            }
                        }
                    }
                }
            }
            return null;
        });
    }

    /**
     * Ints in ByteBuffers are read in the buffer's own byte order: big-endian buffers (the default of
     * {@code ByteBuffer.allocateDirect}) at the root, the other ranks or both, against the native
     * order of the line, and buffers whose limit is below the data (addressed over their capacity).
     */
    @Worlds.AllSizes
    void byteBuffersOfEitherOrderAndLimit(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            int root = n - 1;
            for (ByteOrder rootOrder : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
                for (ByteOrder otherOrder : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
                    for (int count : new int[] {3, 12, 20}) {
                        ByteBuffer b = ByteBuffer.allocateDirect(4 * count).order(me == root ? rootOrder : otherOrder);
                        if (me == root) {
                            for (int i = 0; i < count; i++) {
                                b.putInt(4 * i, 1000 * i - 7);
                            }
                        }
                        b.position(1).limit(2);
                        MPI.COMM_WORLD.bcast(b, count, MPI.INT, root);
                        String what = rootOrder + " to " + otherOrder + ", " + count + " ints";
                        ByteBuffer all = b.duplicate().order(b.order()).clear();
                        for (int i = 0; i < count; i++) {
                            assertEquals(1000 * i - 7, all.getInt(4 * i), what + ", element " + i);
                        }
                        assertEquals(1, b.position(), what);
                        assertEquals(2, b.limit(), what);
                    }
                }
            }
            return null;
        });
    }

    @Worlds.AllSizes
    void alternatesWithTheGeneralPathAndOtherCollectives(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            ThreadLocalRandom rnd = ThreadLocalRandom.current();
            for (int it = 0; it < 400; it++) {
                if (rnd.nextInt(40) == 0) {
                    Thread.sleep(1);
                }
                int root = it % n;
                long[] small = me == root ? new long[] {it, -it, root} : new long[3];
                MPI.COMM_WORLD.bcast(small, 3, MPI.LONG, root);
                assertArrayEquals(new long[] {it, -it, root}, small, "small " + it);
                switch (it % 5) {
                    case 0 -> {
                        int[] large = new int[100];
                        if (me == root) {
                            java.util.Arrays.fill(large, it);
                        }
                        MPI.COMM_WORLD.bcast(large, 100, MPI.INT, root);
                        assertEquals(it, large[99], "large " + it);
                    }
                    case 1 -> {
                        int[] a = {me == root ? it : -1};
                        int[] b = {me};
                        Request ra = MPI.COMM_WORLD.iBcast(a, 1, MPI.INT, root);
                        Request rb = MPI.COMM_WORLD.iAllReduce(b, 1, MPI.INT, MPI.MAX);
                        short[] c = {(short) (me == 0 ? it : 0)};
                        MPI.COMM_WORLD.bcast(c, 1, MPI.SHORT, 0);
                        assertEquals((short) it, c[0], "small after non-blocking " + it);
                        ra.waitFor();
                        rb.waitFor();
                        assertEquals(it, a[0], "iBcast " + it);
                        assertEquals(n - 1, b[0], "iAllReduce " + it);
                    }
                    case 2 -> {
                        double[] x = {me, it};
                        MPI.COMM_WORLD.allReduce(x, 2, MPI.DOUBLE, MPI.SUM);
                        assertEquals((double) n * (n - 1) / 2, x[0], "small allReduce " + it);
                    }
                    case 3 -> MPI.COMM_WORLD.barrier();
                    default -> {
                        int length = it % 2 == 0 ? 240 : 1000; // in the root's lines; in the Bcast area
                        byte[] bytes = new byte[length];
                        if (me == root) {
                            java.util.Arrays.fill(bytes, (byte) it);
                        }
                        MPI.COMM_WORLD.Bcast(bytes, 0, length, MPI.BYTE, root);
                        assertEquals((byte) it, bytes[0], length + " bytes " + it);
                        assertEquals((byte) it, bytes[length - 1], length + " bytes " + it);
                    }
                }
                int[] self = {me == 0 ? it : -1};
                MPI.COMM_SELF.bcast(self, 1, MPI.INT, 0);
            }
            return null;
        });
    }

    /** Many small Bcast calls in a row from every root in turn, ranks running ahead: every result right. */
    @Worlds.AllSizes
    void backToBack(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            int[] x = new int[2];
            for (int it = 0; it < 5000; it++) {
                int root = it % n;
                x[0] = me == root ? it : -1;
                x[1] = me == root ? root : -1;
                MPI.COMM_WORLD.bcast(x, 2, MPI.INT, root);
                if (x[0] != it || x[1] != root) {
                    throw new AssertionError("iteration " + it + ": " + x[0] + ", " + x[1]);
                }
            }
            return null;
        });
    }
}
