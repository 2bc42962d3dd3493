package org.mpjlite.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/** MPI_Comm_create_group (Open MPI's {@code createGroup}): collective over the group's ranks only. */
class CreateGroupTest {
    @Jobs.AnyRanks
    void evenAndOddRanksEachMakeTheirOwnCommunicatorWithoutTheOthers(World w) {
        w.run(() -> {
            int rank = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            int[] mine = IntStream.range(0, size).filter(r -> r % 2 == rank % 2).toArray();
            Group world = MPI.COMM_WORLD.getGroup();
            Group half = world.incl(mine);
            // Twice with the same group and tag: two communicators, whose traffic never mixes.
            Intracomm first = MPI.COMM_WORLD.createGroup(half, 7);
            Intracomm second = MPI.COMM_WORLD.createGroup(half, 7);
            for (Intracomm c : new Intracomm[] {first, second}) {
                assertEquals(mine.length, c.getSize());
                assertEquals(rank / 2, c.getRank());
            }
            int n = mine.length;
            int[] a = {rank};
            int[] b = {rank + 1000};
            int[] gotA = new int[1];
            int[] gotB = new int[1];
            int right = (first.getRank() + 1) % n;
            int left = (first.getRank() + n - 1) % n;
            mpi.Request ra = first.iRecv(gotA, 1, MPI.INT, left, 0);
            mpi.Request rb = second.iRecv(gotB, 1, MPI.INT, left, 0);
            second.send(b, 1, MPI.INT, right, 0);
            first.send(a, 1, MPI.INT, right, 0);
            ra.waitFor();
            rb.waitFor();
            assertEquals(mine[left], gotA[0]);
            assertEquals(mine[left] + 1000, gotB[0]);
            int[] sum = new int[1];
            second.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
            assertEquals(IntStream.of(mine).sum(), sum[0]);

            // A rank outside the group that calls anyway gets the null communicator.
            Group others = world.excl(new int[] {rank});
            if (size > 1) {
                assertTrue(MPI.COMM_WORLD.createGroup(others, 3).isNull());
            }
            first.free();
            second.free();
            others.free();
            half.free();
            world.free();
            return null;
        });
    }

    @Jobs.AnyRanks
    void aGroupWithRanksOutsideTheCommunicatorIsAnError(World w) {
        w.run(() -> {
            Group world = MPI.COMM_WORLD.getGroup();
            Intracomm self = MPI.COMM_SELF;
            if (MPI.COMM_WORLD.getSize() > 1) {
                Jobs.assertMpiError(MPI.ERR_GROUP, () -> self.createGroup(world, 0), "createGroup", "not a member");
            }
            Jobs.assertMpiError(MPI.ERR_GROUP, () -> MPI.COMM_WORLD.createGroup(null, 0), "createGroup", "null");
            Jobs.assertMpiError(MPI.ERR_TAG, () -> MPI.COMM_WORLD.createGroup(world, -1), "createGroup", "tag");
            world.free();
            return null;
        });
    }
}
