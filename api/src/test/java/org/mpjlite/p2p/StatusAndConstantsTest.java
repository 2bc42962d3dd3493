package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import mpi.Count;
import mpi.Datatype;
import mpi.MPI;
import mpi.Status;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.mpjlite.p2p.Jobs.World;

/**
 * Open MPI's Status setters and large counts (Count, getElementsX, setElements(X), setCancelled),
 * pControl, and the predefined attributes APPNUM, LASTUSEDCODE, UNIVERSE_SIZE.
 */
class StatusAndConstantsTest {
    @Test
    @DisplayName("Count: value, equality, order")
    void count() {
        Count a = new Count(5_000_000_000L);
        assertEquals(5_000_000_000L, a.getCount());
        assertEquals(new Count(5_000_000_000L), a);
        assertEquals(new Count(5_000_000_000L).hashCode(), a.hashCode());
        assertNotEquals(new Count(1), a);
        assertTrue(a.compareTo(new Count(1)) > 0);
        a.setCount(-3);
        assertTrue(a.compareTo(new Count(1)) < 0);
        assertThrows(ClassCastException.class, () -> a.compareTo("x"));
    }

    @Jobs.Pairs
    void statusSettersAndLargeCounts(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            MPI.COMM_WORLD.send(new int[6], 6, MPI.INT, 1 - me, 1);
            Status s = MPI.COMM_WORLD.recv(new int[6], 6, MPI.INT, 1 - me, 1);
            assertEquals(new Count(6), s.getElementsX(MPI.INT));
            assertEquals(new Count(6), s.getElementsX(MPI.INT2), "a pair's elements count one each");
            s.setElements(MPI.INT2, 5);
            assertEquals(5, s.getElements(MPI.INT2));
            assertEquals(MPI.UNDEFINED, s.getCount(MPI.INT2));
            assertEquals(5, s.getCount(MPI.INT));
            s.setElementsX(MPI.DOUBLE, new Count(4));
            assertEquals(4, s.getCount(MPI.DOUBLE));
            assertEquals(32, s.getCount(MPI.BYTE));
            s.setElements(MPI.DOUBLE_COMPLEX, 3);
            assertEquals(3, s.getElements(MPI.DOUBLE_COMPLEX));
            assertEquals(3, s.getCount(MPI.DOUBLE_COMPLEX));
            assertEquals(6, s.getCount(MPI.DOUBLE));
            Datatype mixed = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8}, new Datatype[] {MPI.INT,
                MPI.DOUBLE});
            mixed.commit();
            s.setElements(mixed, 4);
            assertEquals(4, s.getElements(mixed));
            assertEquals(2, s.getCount(mixed));
            assertEquals(1 - me, s.getSource());
            assertFalse(s.isCancelled());
            s.setCancelled(true);
            assertTrue(s.isCancelled());
            assertMpiError(MPI.ERR_COUNT, () -> s.setElements(MPI.INT, -1), "setElements");
            assertMpiError(MPI.ERR_COUNT, () -> s.setElementsX(MPI.INT, new Count(1L << 40)), "setElementsX");
            assertMpiError(MPI.ERR_TYPE, () -> s.setElements(null, 1), "setElements");
            return null;
        });
    }

    @Jobs.AnyRanks
    @DisplayName("pControl does nothing; APPNUM, LASTUSEDCODE and UNIVERSE_SIZE are predefined attributes")
    void pControlAndPredefinedAttributes(World w) {
        MPI.pControl(2, null); // before Init too
        w.run(() -> {
            MPI.pControl(0, "anything");
            assertEquals(0, MPI.COMM_WORLD.getAttr(MPI.APPNUM));
            assertEquals(MPI.ERR_LASTCODE, MPI.COMM_WORLD.getAttr(MPI.LASTUSEDCODE));
            // The ranks that can usefully run, as Open MPI counts its slots: the cores, or the ranks if more.
            int universe = Math.max(Runtime.getRuntime().availableProcessors(), MPI.COMM_WORLD.getSize());
            assertEquals(universe, MPI.COMM_WORLD.getAttr(MPI.UNIVERSE_SIZE));
            assertEquals(universe, ((int[]) MPI.COMM_WORLD.Attr_get(MPI.UNIVERSE_SIZE))[0]);
            assertMpiError(MPI.ERR_KEYVAL, () -> MPI.COMM_WORLD.setAttr(MPI.UNIVERSE_SIZE, 3), "predefined");
            return null;
        });
    }
}
