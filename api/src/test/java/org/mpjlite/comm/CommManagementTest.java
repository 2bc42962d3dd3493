package org.mpjlite.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/** Compare, Free, Test_inter, names and the null communicator. */
class CommManagementTest {
    @Jobs.AnyRanks
    void compareTellsIdentCongruentSimilarAndUnequal(World w) {
        w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            Intracomm dup = MPI.COMM_WORLD.Dup();
            Intracomm reversed = MPI.COMM_WORLD.Split(0, -me);
            Intracomm half = MPI.COMM_WORLD.Split(me % 2, me);
            assertEquals(MPI.IDENT, Comm.Compare(MPI.COMM_WORLD, MPI.COMM_WORLD));
            assertEquals(MPI.IDENT, Intracomm.Compare(dup, dup));
            assertEquals(MPI.CONGRUENT, Comm.Compare(MPI.COMM_WORLD, dup));
            assertEquals(MPI.CONGRUENT, Comm.compare(dup, MPI.COMM_WORLD.clone()));
            assertEquals(n == 1 ? MPI.CONGRUENT : MPI.SIMILAR, Comm.compare(MPI.COMM_WORLD, reversed));
            assertEquals(n == 1 ? MPI.CONGRUENT : MPI.UNEQUAL, Comm.Compare(half, MPI.COMM_WORLD));
            assertEquals(n == 1 ? MPI.CONGRUENT : MPI.UNEQUAL, Comm.Compare(MPI.COMM_SELF, MPI.COMM_WORLD));
            assertEquals(MPI.IDENT, Comm.compare(MPI.COMM_SELF, MPI.COMM_SELF));
            Jobs.assertMpiError(MPI.ERR_COMM, () -> Comm.Compare(MPI.COMM_WORLD, null), "Compare", "comm2");
            assertFalse(MPI.COMM_WORLD.Test_inter());
            assertFalse(dup.isInter());
            return null;
        });
    }

    @Jobs.AnyRanks
    void aFreedCommunicatorIsUnusableAndTheOthersCarryOn(World w) {
        List<Integer> out = w.run(() -> {
            int n = MPI.COMM_WORLD.Size();
            int me = MPI.COMM_WORLD.Rank();
            Intracomm a = MPI.COMM_WORLD.Dup();
            Intracomm b = MPI.COMM_WORLD.Dup();
            a.Free();
            assertTrue(a.isNull());
            assertFalse(b.isNull());
            int[] buf = new int[1];
            Jobs.assertMpiError(MPI.ERR_COMM, () -> a.Send(buf, 0, 1, MPI.INT, 0, 0), "Send", "freed");
            Jobs.assertMpiError(MPI.ERR_COMM, () -> a.recv(buf, 1, MPI.INT, 0, 0), "recv", "freed");
            Jobs.assertMpiError(MPI.ERR_COMM, a::Barrier, "Barrier", "freed");
            Jobs.assertMpiError(MPI.ERR_COMM, a::Size, "Size", "freed");
            Jobs.assertMpiError(MPI.ERR_COMM, a::Dup, "Dup", "freed");
            Jobs.assertMpiError(MPI.ERR_COMM, a::free, "free", "freed");
            Jobs.assertMpiError(MPI.ERR_COMM, () -> Comm.compare(b, a), "compare", "freed");
            Jobs.assertMpiError(MPI.ERR_COMM, MPI.COMM_WORLD::Free, "Free", "MPI.COMM_WORLD", "predefined");
            Jobs.assertMpiError(MPI.ERR_COMM, MPI.COMM_SELF::free, "free", "predefined");
            // The other duplicate and the world still carry traffic.
            b.Sendrecv(new int[] {me}, 0, 1, MPI.INT, (me + 1) % n, 3, buf, 0, 1, MPI.INT, (me + n - 1) % n, 3);
            int[] sum = new int[1];
            b.Allreduce(new int[] {1}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
            b.free();
            MPI.COMM_WORLD.Barrier();
            return buf[0] * 1000 + sum[0];
        });
        int n = w.size();
        for (int r = 0; r < n; r++) {
            assertEquals((r + n - 1) % n * 1000 + n, out.get(r));
        }
    }

    @Jobs.AnyRanks
    void namesFollowMpiAndEachRankKeepsItsOwn(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            assertEquals("MPI_COMM_WORLD", MPI.COMM_WORLD.getName());
            assertEquals("MPI_COMM_SELF", MPI.COMM_SELF.getName());
            Intracomm dup = MPI.COMM_WORLD.dup();
            assertEquals("", dup.getName());
            dup.setName("halo " + me);
            assertEquals("halo " + me, dup.getName());
            assertTrue(dup.toString().startsWith("halo " + me + " (MPI.COMM_WORLD.dup()"), dup.toString());
            // The world is one object for every rank here: names are still per rank.
            MPI.COMM_WORLD.setName("world of " + me);
            MPI.COMM_WORLD.Barrier();
            assertEquals("world of " + me, MPI.COMM_WORLD.getName());
            // Names are not copied by dup; a derived communicator's report name starts from the parent's name.
            Intracomm again = dup.dup();
            assertEquals("", again.getName());
            assertTrue(again.toString().startsWith("halo " + me + ".dup()"), again.toString());
            Jobs.assertMpiError(MPI.ERR_ARG, () -> dup.setName(null), "setName", "name");
            MPI.COMM_WORLD.Barrier();
            return null;
        });
    }

    @Jobs.MultiRanks
    void mpiJavaNonMembersGetCommNullAndOpenMpiOnesANullCommunicator(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            Intracomm a = MPI.COMM_WORLD.Create(MPI.COMM_WORLD.Group().Incl(new int[] {0}));
            Intracomm b = MPI.COMM_WORLD.create(MPI.COMM_WORLD.Group().Incl(new int[] {0}));
            if (me == 0) {
                assertTrue(a != MPI.COMM_NULL);
                assertFalse(b.isNull());
            } else {
                assertSame(MPI.COMM_NULL, a);
                assertNull(a);
                assertTrue(b.isNull());
                Jobs.assertMpiError(MPI.ERR_COMM, b::getName, "getName", "null communicator");
            }
            return null;
        });
    }
}
