package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mpjlite.p2p.Jobs.ints;
import static org.mpjlite.p2p.Jobs.left;
import static org.mpjlite.p2p.Jobs.rank;
import static org.mpjlite.p2p.Jobs.right;
import static org.mpjlite.p2p.Jobs.size;

import java.nio.DoubleBuffer;
import java.util.List;
import mpi.MPI;
import mpi.Status;
import org.junit.jupiter.api.DisplayName;
import org.mpjlite.p2p.Jobs.World;

/** Sendrecv and Sendrecv_replace, both dialects: ring shifts, large messages, PROC_NULL edges. */
class SendrecvTest {
    @Jobs.AnyRanks
    @DisplayName("Sendrecv shifts eager and rendezvous-sized arrays around the ring without deadlock")
    void sendrecvRingShift(World w) {
        for (World shape : List.of(w, w.rendezvousOnly())) {
            shape.run(() -> {
                for (int n : new int[] {4, 20_000}) {
                    int[] in = new int[n + 1];
                    Status s = MPI.COMM_WORLD.Sendrecv(ints(n + 2, rank()), 2, n, MPI.INT, right(), 6,
                        in, 1, n, MPI.INT, left(), 6);
                    assertEquals(left(), s.source);
                    assertEquals(6, s.tag);
                    assertEquals(n, s.Get_count(MPI.INT));
                    int[] expected = new int[n + 1];
                    System.arraycopy(ints(n + 2, left()), 2, expected, 1, n);
                    assertArrayEquals(expected, in, "n=" + n);
                }
                return null;
            });
        }
    }

    @Jobs.AnyRanks
    @DisplayName("Sendrecv_replace and sendRecvReplace rotate a buffer around the whole ring")
    void sendrecvReplaceRotatesAroundTheRing(World w) {
        List<long[]> got = w.run(() -> {
            long[] buf = {rank(), rank() * 2L, -1};
            for (int step = 0; step < size(); step++) {
                Status s = MPI.COMM_WORLD.Sendrecv_replace(buf, 0, 2, MPI.LONG, right(), step, left(), step);
                assertEquals(left(), s.source);
                assertEquals(step, s.tag);
            }
            assertArrayEquals(new long[] {rank(), rank() * 2L, -1}, buf, "a full rotation restores the data");
            DoubleBuffer d = MPI.newDoubleBuffer(3).put(0, rank() + 0.5).put(1, 7).put(2, 8);
            Status s = MPI.COMM_WORLD.sendRecvReplace(d, 2, MPI.DOUBLE, right(), 1, MPI.ANY_SOURCE, MPI.ANY_TAG);
            assertEquals(left(), s.getSource());
            assertEquals(2, s.getCount(MPI.DOUBLE));
            return new long[] {(long) (d.get(0) * 2), (long) d.get(1), (long) d.get(2)};
        });
        for (int r = 0; r < w.size(); r++) {
            int l = (r + w.size() - 1) % w.size();
            assertArrayEquals(new long[] {2L * l + 1, 7, 8}, got.get(r), "rank " + r);
        }
    }

    @Jobs.AnyRanks
    @DisplayName("sendRecvReplace of complex numbers replaces every part: the real and the imaginary")
    void sendrecvReplaceOfComplexNumbers(World w) {
        w.run(() -> {
            int me = rank();
            int from = left();
            double[] d = {me + 0.25, me + 0.5, me + 0.75, me + 1.0, -1};
            Status s = MPI.COMM_WORLD.sendRecvReplace(d, 2, MPI.DOUBLE_COMPLEX, right(), 5, from, 5);
            assertArrayEquals(new double[] {from + 0.25, from + 0.5, from + 0.75, from + 1.0, -1}, d);
            assertEquals(2, s.getCount(MPI.DOUBLE_COMPLEX));
            assertEquals(2, s.getElements(MPI.DOUBLE_COMPLEX));
            float[] f = {me, -me, 7};
            MPI.COMM_WORLD.sendRecvReplace(f, 1, MPI.FLOAT_COMPLEX, right(), 6, from, 6);
            assertArrayEquals(new float[] {from, -from, 7}, f);
            return null;
        });
    }

    @Jobs.PairsBothProtocols
    @DisplayName("Sendrecv_replace of a rendezvous-sized buffer swaps the two ranks' data")
    void sendrecvReplaceLarge(World w) {
        int n = 50_000;
        w.run(() -> {
            int[] buf = ints(n, rank());
            MPI.COMM_WORLD.Sendrecv_replace(buf, 0, n, MPI.INT, 1 - rank(), 0, 1 - rank(), 0);
            assertArrayEquals(ints(n, 1 - rank()), buf);
            return null;
        });
    }

    @Jobs.AnyRanks
    @DisplayName("Open MPI sendRecv: a non-periodic shift with PROC_NULL at the ends")
    void nonPeriodicShiftWithProcNull(World w) {
        List<int[]> got = w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int n = MPI.COMM_WORLD.getSize();
            int up = me + 1 < n ? me + 1 : MPI.PROC_NULL;
            int down = me > 0 ? me - 1 : MPI.PROC_NULL;
            int[] in = {-1};
            Status s = MPI.COMM_WORLD.sendRecv(new int[] {me}, 1, MPI.INT, up, 2, in, 1, MPI.INT, down, 2);
            assertEquals(down, s.getSource());
            assertEquals(down == MPI.PROC_NULL ? 0 : 1, s.getCount(MPI.INT));
            return in;
        });
        for (int r = 0; r < w.size(); r++) {
            assertEquals(r == 0 ? -1 : r - 1, got.get(r)[0], "rank " + r);
        }
    }
}
