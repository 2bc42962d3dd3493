package org.mpjlite.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import mpi.Datatype;
import mpi.MPI;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/** Open MPI's attributes of datatypes (MPI_Type_create_keyval, set/get/delete_attr): each rank's own. */
class DatatypeAttributeTest {
    @Jobs.AnyRanks
    void eachRankHasItsOwnAttributesEvenOnPredefinedTypes(World w) {
        w.run(() -> {
            int rank = MPI.COMM_WORLD.getRank();
            int key = Datatype.createKeyval();
            assertNull(MPI.INT.getAttr(key));
            MPI.INT.setAttr(key, "rank " + rank);
            Datatype pair = Datatype.createContiguous(2, MPI.INT);
            pair.setAttr(key, rank * 10);
            MPI.COMM_WORLD.barrier();
            assertEquals("rank " + rank, MPI.INT.getAttr(key), "another rank's value leaked into this rank's");
            assertEquals(rank * 10, pair.getAttr(key));

            Datatype copy = pair.dup();
            assertEquals(rank * 10, copy.getAttr(key), "dup copies the attributes");
            copy.deleteAttr(key);
            assertNull(copy.getAttr(key));
            assertEquals(rank * 10, pair.getAttr(key));

            MPI.INT.deleteAttr(key);
            assertNull(MPI.INT.getAttr(key));
            MPI.COMM_WORLD.barrier();
            Datatype.freeKeyval(key);
            assertMpiError(MPI.ERR_KEYVAL, () -> MPI.INT.getAttr(MPI.KEYVAL_INVALID), "getAttr", "keyval");
            pair.free();
            assertMpiError(MPI.ERR_TYPE, () -> pair.getAttr(key), "getAttr", "freed");
            copy.free();
            return null;
        });
    }
}
