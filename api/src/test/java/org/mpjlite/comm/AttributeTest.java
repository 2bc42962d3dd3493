package org.mpjlite.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/** Predefined attributes in both dialects' shapes, and the program's attributes (Open MPI keys). */
class AttributeTest {
    @Jobs.AnyRanks
    void predefinedAttributesInBothDialects(World w) {
        w.run(() -> {
            Intracomm dup = MPI.COMM_WORLD.Dup();
            for (Comm c : new Comm[] {MPI.COMM_WORLD, MPI.COMM_SELF, dup}) {
                // mpiJava: int[] of one element.
                assertArrayEquals(new int[] {Integer.MAX_VALUE}, (int[]) c.Attr_get(MPI.TAG_UB));
                assertArrayEquals(new int[] {MPI.PROC_NULL}, (int[]) c.Attr_get(MPI.HOST));
                assertArrayEquals(new int[] {MPI.ANY_SOURCE}, (int[]) c.Attr_get(MPI.IO));
                assertArrayEquals(new int[] {1}, (int[]) c.Attr_get(MPI.WTIME_IS_GLOBAL));
                // Open MPI: Integer, and Boolean for WTIME_IS_GLOBAL.
                int tagUb = (Integer) c.getAttr(MPI.TAG_UB);
                assertTrue(tagUb >= 32767);
                assertEquals(MPI.PROC_NULL, c.getAttr(MPI.HOST));
                assertEquals(MPI.ANY_SOURCE, c.getAttr(MPI.IO));
                assertEquals(Boolean.TRUE, c.getAttr(MPI.WTIME_IS_GLOBAL));
                // Open MPI's last error code and application number.
                assertEquals(MPI.ERR_LASTCODE, c.getAttr(MPI.LASTUSEDCODE));
                assertEquals(0, c.getAttr(MPI.APPNUM));
            }
            // The largest tag is usable.
            int me = MPI.COMM_WORLD.Rank();
            int[] got = new int[1];
            MPI.COMM_SELF.Sendrecv(new int[] {me}, 0, 1, MPI.INT, 0, Integer.MAX_VALUE, got, 0, 1, MPI.INT, 0,
                Integer.MAX_VALUE);
            assertEquals(me, got[0]);
            Jobs.assertMpiError(MPI.ERR_KEYVAL, () -> dup.setAttr(MPI.TAG_UB, 5), "setAttr", "predefined");
            Jobs.assertMpiError(MPI.ERR_KEYVAL, () -> dup.Attr_delete(MPI.TAG_UB), "Attr_delete", "predefined");
            Jobs.assertMpiError(MPI.ERR_KEYVAL, () -> Comm.freeKeyval(MPI.IO), "freeKeyval", "predefined");
            return null;
        });
    }

    @Jobs.AnyRanks
    void programAttributesAreCopiedByDupButNotBySplitAndArePerRank(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int key = Comm.createKeyval();
            int other = Comm.createKeyval();
            assertTrue(key != other && key != MPI.KEYVAL_INVALID);
            assertNull(MPI.COMM_WORLD.getAttr(key));
            // COMM_WORLD is one object for every rank here: each rank still has its own attributes.
            MPI.COMM_WORLD.setAttr(key, "rank " + me);
            MPI.COMM_WORLD.Barrier();
            assertEquals("rank " + me, MPI.COMM_WORLD.getAttr(key));
            Intracomm dup = MPI.COMM_WORLD.Dup();
            Intracomm clone = MPI.COMM_WORLD.clone();
            Intracomm split = MPI.COMM_WORLD.Split(0, me);
            assertEquals("rank " + me, dup.getAttr(key));
            assertEquals("rank " + me, clone.Attr_get(key));
            assertNull(split.getAttr(key));
            // Changing the copy leaves the original alone.
            dup.setAttr(key, me);
            dup.setAttr(other, 2.5);
            assertEquals(me, dup.getAttr(key));
            assertEquals("rank " + me, MPI.COMM_WORLD.getAttr(key));
            assertNull(MPI.COMM_WORLD.getAttr(other));
            dup.deleteAttr(key);
            assertNull(dup.getAttr(key));
            clone.Attr_delete(key);
            assertNull(clone.getAttr(key));
            // A freed key still set on dup lives on there (MPI): readable and deletable, not settable.
            Comm.freeKeyval(other);
            assertEquals(2.5, dup.getAttr(other));
            assertEquals(2.5, dup.Attr_get(other));
            assertNull(MPI.COMM_WORLD.getAttr(other));
            Jobs.assertMpiError(MPI.ERR_KEYVAL, () -> dup.setAttr(other, 1), "setAttr", "keyval " + other, "freed");
            Jobs.assertMpiError(MPI.ERR_KEYVAL, () -> Comm.freeKeyval(other), "freeKeyval", "freed");
            // Deleting its last attribute ends it.
            dup.deleteAttr(other);
            Jobs.assertMpiError(MPI.ERR_KEYVAL, () -> dup.getAttr(other), "getAttr", "keyval " + other);
            Jobs.assertMpiError(MPI.ERR_KEYVAL, () -> MPI.COMM_WORLD.Attr_get(other), "Attr_get", "keyval");
            Jobs.assertMpiError(MPI.ERR_KEYVAL, () -> dup.setAttr(other, 1), "setAttr", "keyval");
            Jobs.assertMpiError(MPI.ERR_KEYVAL, () -> Comm.freeKeyval(other), "freeKeyval", "freed");
            Jobs.assertMpiError(MPI.ERR_KEYVAL, () -> dup.Attr_get(123456789), "Attr_get", "123456789");
            Jobs.assertMpiError(MPI.ERR_ARG, () -> dup.setAttr(key, null), "setAttr", "null");
            MPI.COMM_WORLD.deleteAttr(key);
            Comm.freeKeyval(key);
            MPI.COMM_WORLD.Barrier();
            return null;
        });
    }

    @Jobs.AnyRanks
    void freedKeyLivesUntilItsLastAttributeGoesWithDeleteOrCommFree(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int key = Comm.createKeyval();
            Intracomm a = MPI.COMM_WORLD.Dup();
            a.setAttr(key, me);
            Intracomm b = a.Dup(); // copies the attribute: two uses
            Comm.freeKeyval(key);
            assertEquals(me, a.getAttr(key));
            assertEquals(me, b.getAttr(key));
            a.free();
            assertEquals(me, b.getAttr(key), "b still uses the key");
            Intracomm c = b.Dup(); // a freed key's attribute is still copied, as MPI's copy callback runs
            assertEquals(me, c.getAttr(key));
            b.free();
            c.deleteAttr(key);
            Jobs.assertMpiError(MPI.ERR_KEYVAL, () -> c.getAttr(key), "getAttr", "keyval " + key);
            c.free();
            // A key freed with nothing set under it is gone at once.
            int unused = Comm.createKeyval();
            Comm.freeKeyval(unused);
            Jobs.assertMpiError(MPI.ERR_KEYVAL, () -> MPI.COMM_WORLD.getAttr(unused), "getAttr", "keyval");
            MPI.COMM_WORLD.Barrier();
            return null;
        });
    }
}
