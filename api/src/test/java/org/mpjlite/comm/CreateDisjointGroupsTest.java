package org.mpjlite.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;
import mpi.Intracomm;
import mpi.MPI;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/**
 * MPI-2.2's Comm_create with disjoint groups: every rank passes the group it belongs to, and each
 * group gets a communicator of its own whose collectives and traffic stay apart from the others'.
 */
class CreateDisjointGroupsTest {
    /** The group of world rank {@code me}: consecutive pairs, the last rank alone when the count is odd. */
    private static int[] pairOf(int me, int n) {
        int first = me - me % 2;
        return IntStream.range(first, Math.min(first + 2, n)).toArray();
    }

    @Jobs.AnyRanks
    void eachDisjointGroupGetsItsOwnCommunicator(World w) {
        List<int[]> out = w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int[] ranks = pairOf(me, n);
            // Each pair in reverse order, so the group's order (not the world's) is checked.
            int[] reversed = IntStream.range(0, ranks.length).map(i -> ranks[ranks.length - 1 - i]).toArray();
            Intracomm a = MPI.COMM_WORLD.Create(MPI.COMM_WORLD.Group().Incl(reversed));
            Intracomm b = MPI.COMM_WORLD.create(MPI.COMM_WORLD.Group().Incl(ranks));
            // Different roots in different groups: the collectives must not meet.
            int[] x = {a.Rank() == a.Size() - 1 ? 1000 + me : -1};
            a.Bcast(x, 0, 1, MPI.INT, a.Size() - 1);
            int[] sum = new int[1];
            b.allReduce(new int[] {me}, sum, 1, MPI.INT, MPI.SUM);
            int[] got = new int[1];
            int peer = (b.getRank() + 1) % b.getSize();
            b.sendRecv(new int[] {me}, 1, MPI.INT, peer, 3, got, 1, MPI.INT, peer, 3);
            b.barrier();
            return new int[] {a.Size(), a.Rank(), x[0], b.getSize(), b.getRank(), sum[0], got[0]};
        });
        int n = w.size();
        for (int me = 0; me < n; me++) {
            int[] g = pairOf(me, n);
            int k = g.length;
            int inPair = me - g[0];
            int sum = IntStream.of(g).sum();
            int other = g[(inPair + 1) % k];
            assertArrayEquals(new int[] {k, k - 1 - inPair, 1000 + g[0], k, inPair, sum, other}, out.get(me),
                "rank " + me + " of " + n);
        }
    }

    @Jobs.MultiRanks
    void ranksInNoGroupPassTheEmptyGroup(World w) {
        List<Boolean> out = w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            // Rank 0 alone, the last rank alone, the others in no group.
            int[] ranks = me == 0 ? new int[] {0} : me == n - 1 ? new int[] {n - 1} : new int[0];
            Intracomm c = MPI.COMM_WORLD.create(MPI.COMM_WORLD.Group().Incl(ranks));
            if (ranks.length == 0) {
                return c.isNull();
            }
            int[] x = {me};
            c.bcast(x, 1, MPI.INT, 0);
            return c.getSize() == 1 && x[0] == me;
        });
        assertTrue(out.stream().allMatch(b -> b), out::toString);
    }

    @Jobs.MultiRanks
    void overlappingGroupsAreAnError(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            // Rank 0 names the whole world, the others only themselves: not the same, not disjoint.
            int[] ranks = me == 0 ? IntStream.range(0, n).toArray() : new int[] {me};
            if (me == 0) {
                Jobs.assertMpiError(MPI.ERR_GROUP, () -> MPI.COMM_WORLD.create(MPI.COMM_WORLD.Group().Incl(ranks)),
                    "create", "different groups");
            } else {
                MPI.COMM_WORLD.create(MPI.COMM_WORLD.Group().Incl(ranks));
            }
            return null;
        });
    }
}
