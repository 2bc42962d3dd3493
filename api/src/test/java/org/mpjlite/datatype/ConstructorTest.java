package org.mpjlite.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import mpi.Datatype;
import mpi.MPI;
import org.junit.jupiter.api.Test;

/**
 * Every constructor of both dialects against a hand-computed reference: extent, size, lower and
 * upper bound (mpiJava in base elements, Open MPI in bytes) and the true bounds. Which elements the
 * types move is checked by {@link RoundTripTest} and {@link PackTest}.
 */
class ConstructorTest {
    /** mpiJava's answers in elements: extent, size, lb, ub. */
    private static void assertElements(Datatype t, int extent, int size, int lb, int ub) {
        assertEquals(extent, t.Extent(), "Extent of " + t);
        assertEquals(size, t.Size(), "Size of " + t);
        assertEquals(lb, t.Lb(), "Lb of " + t);
        assertEquals(ub, t.Ub(), "Ub of " + t);
    }

    /** Open MPI's answers in bytes: extent, size, lb, true lb, true extent. */
    private static void assertBytes(Datatype t, int extent, int size, int lb, int trueLb, int trueExtent) {
        assertEquals(extent, t.getExtent(), "getExtent of " + t);
        assertEquals(size, t.getSize(), "getSize of " + t);
        assertEquals(lb, t.getLb(), "getLb of " + t);
        assertEquals(trueLb, t.getTrueLb(), "getTrueLb of " + t);
        assertEquals(trueExtent, t.getTrueExtent(), "getTrueExtent of " + t);
    }

    @Test
    void predefinedTypesAndPairs() {
        assertElements(MPI.INT, 1, 1, 0, 1);
        assertBytes(MPI.DOUBLE, 8, 8, 0, 0, 8);
        assertElements(MPI.INT2, 2, 2, 0, 2);
        assertBytes(MPI.LONG2, 16, 16, 0, 0, 16);
        assertBytes(MPI.SHORT_INT, 8, 6, 0, 0, 8);
        assertBytes(MPI.DOUBLE_INT, 16, 12, 0, 0, 12);
        assertFalse(MPI.INT.isNull());
        assertTrue(MPI.DATATYPE_NULL.isNull());
        assertTrue(MPI.NULL.isNull());
    }

    @Test
    void contiguous() {
        Datatype t = Datatype.Contiguous(3, MPI.INT);
        assertElements(t, 3, 3, 0, 3);
        assertBytes(t, 12, 12, 0, 0, 12);
        assertBytes(Datatype.createContiguous(4, MPI.DOUBLE), 32, 32, 0, 0, 32);
        assertElements(Datatype.Contiguous(0, MPI.INT), 0, 0, 0, 0);
    }

    @Test
    void vectorStridesCountExtentsOfTheOldType() {
        // elements 0 1 . . 4 5 . . 8 9
        Datatype v = Datatype.Vector(3, 2, 4, MPI.INT);
        assertElements(v, 10, 6, 0, 10);
        assertBytes(v, 40, 24, 0, 0, 40);
        // a vector of vectors: the inner one (0, 2) has extent 3; stride 2 extents = 6 elements
        Datatype inner = Datatype.Vector(2, 1, 2, MPI.INT);
        Datatype outer = Datatype.createVector(2, 1, 2, inner);
        assertBytes(outer, 36, 16, 0, 0, 36);
        // a negative stride: elements 0 and -3
        Datatype back = Datatype.Vector(2, 1, -3, MPI.INT);
        assertElements(back, 4, 2, -3, 1);
        assertBytes(back, 16, 8, -12, -12, 16);
    }

    @Test
    void hvectorStridesAreBufferIndexesInMpiJavaAndBytesInOpenMpi() {
        Datatype mpiJava = Datatype.Hvector(2, 2, 5, MPI.INT); // elements 0 1 . . . 5 6
        assertElements(mpiJava, 7, 4, 0, 7);
        Datatype openMpi = Datatype.createHVector(2, 2, 20, MPI.INT);
        assertBytes(openMpi, 28, 16, 0, 0, 28);
        // a byte stride that is not a whole number of ints: a ByteBuffer-only type
        assertBytes(Datatype.createHVector(2, 1, 6, MPI.INT), 10, 8, 0, 0, 10);
    }

    @Test
    void indexedDisplacementsCountExtentsOfTheOldType() {
        Datatype t = Datatype.Indexed(new int[] {2, 1}, new int[] {0, 3}, MPI.INT); // 0 1 . 3
        assertElements(t, 4, 3, 0, 4);
        Datatype pairs = Datatype.createIndexed(new int[] {1, 1}, new int[] {2, 0}, MPI.INT2); // pairs at 4, 0
        assertElements(pairs, 6, 4, 0, 6);
        Datatype block = Datatype.createIndexedBlock(2, new int[] {0, 3}, MPI.INT); // 0 1 . 3 4
        assertBytes(block, 20, 16, 0, 0, 20);
    }

    @Test
    void hindexedDisplacementsAreBufferIndexesInMpiJavaAndBytesInOpenMpi() {
        Datatype mpiJava = Datatype.Hindexed(new int[] {1, 2}, new int[] {4, 0}, MPI.INT); // 4, then 0 1
        assertElements(mpiJava, 5, 3, 0, 5);
        Datatype openMpi = Datatype.createHIndexed(new int[] {1, 2}, new int[] {16, 0}, MPI.INT);
        assertBytes(openMpi, 20, 12, 0, 0, 20);
    }

    @Test
    void structWithBoundMarkers() {
        // ints at 1 and 2..3, LB at 0, UB at 6: extent 6 elements
        Datatype t = Datatype.Struct(new int[] {1, 2, 1, 1}, new int[] {1, 2, 0, 6},
            new Datatype[] {MPI.INT, MPI.INT, MPI.LB, MPI.UB});
        assertElements(t, 6, 3, 0, 6);
        assertBytes(t, 24, 12, 0, 4, 12);
        // markers are sticky: a contiguous type of it keeps the marked extent
        assertElements(Datatype.Contiguous(2, t), 12, 6, 0, 12);
        // an LB marker below the data
        Datatype below = Datatype.Struct(new int[] {1, 1}, new int[] {-2, 0}, new Datatype[] {MPI.LB, MPI.DOUBLE});
        assertElements(below, 3, 1, -2, 1);
    }

    @Test
    void openMpiStructMixesTypesAtByteDisplacements() {
        Datatype t = Datatype.createStruct(new int[] {1, 2}, new int[] {0, 8}, new Datatype[] {MPI.INT, MPI.DOUBLE});
        assertBytes(t, 24, 20, 0, 0, 24);
        Datatype packed = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 4},
            new Datatype[] {MPI.INT, MPI.DOUBLE});
        assertBytes(packed, 12, 12, 0, 0, 12);
    }

    @Test
    void resized() {
        Datatype t = Datatype.createResized(MPI.INT, -4, 16);
        assertBytes(t, 16, 4, -4, 0, 4);
        // three items of it: ints at bytes 0, 16, 32
        Datatype three = Datatype.createContiguous(3, Datatype.createResized(MPI.INT, 0, 8));
        assertBytes(three, 24, 12, 0, 0, 20);
        assertElements(three, 6, 3, 0, 6);
    }

    @Test
    void dupNameAndCommitState() {
        Datatype v = Datatype.Vector(2, 1, 3, MPI.DOUBLE);
        Datatype d = v.dup();
        assertNotSame(v, d);
        assertEquals(v.getExtent(), d.getExtent());
        v.setName("columns");
        assertEquals("columns", v.getName());
        assertEquals(8 * 4, Datatype.createHVector(2, 1, 24, MPI.DOUBLE).clone().getExtent());
    }

    @Test
    void badArgumentsNameTheCallAndTheArgument() {
        assertMpiError(MPI.ERR_COUNT, () -> Datatype.Contiguous(-1, MPI.INT), "Contiguous", "count");
        assertMpiError(MPI.ERR_COUNT, () -> Datatype.createVector(-2, 1, 1, MPI.INT), "createVector", "count");
        assertMpiError(MPI.ERR_ARG, () -> Datatype.Vector(2, -1, 1, MPI.INT), "Vector", "blocklength");
        assertMpiError(MPI.ERR_ARG, () -> Datatype.Indexed(new int[] {1, -1}, new int[] {0, 2}, MPI.INT),
            "Indexed", "blocklengths[1]");
        assertMpiError(MPI.ERR_ARG, () -> Datatype.createHIndexed(new int[] {1}, new int[] {0, 2}, MPI.INT),
            "createHIndexed", "displacements");
        assertMpiError(MPI.ERR_ARG, () -> Datatype.createIndexedBlock(-1, new int[] {0}, MPI.INT),
            "createIndexedBlock", "blockLength");
        assertMpiError(MPI.ERR_TYPE, () -> Datatype.Contiguous(1, null), "Contiguous", "oldtype");
        assertMpiError(MPI.ERR_TYPE, () -> Datatype.Contiguous(1, MPI.DATATYPE_NULL), "Contiguous", "oldtype");
        assertMpiError(MPI.ERR_TYPE, () -> Datatype.Vector(1, 1, 1, MPI.LB), "Vector", "marker");
        assertMpiError(MPI.ERR_TYPE, () -> Datatype.Struct(new int[] {1, 1}, new int[] {0, 1},
            new Datatype[] {MPI.INT, MPI.DOUBLE}), "Struct", "types[1]", "one base type");
        assertMpiError(MPI.ERR_TYPE, () -> Datatype.createStruct(new int[] {1, 1}, new int[] {0, 1},
            new Datatype[] {MPI.OBJECT, MPI.INT}), "createStruct", "OBJECT");
        Datatype freed = Datatype.Contiguous(2, MPI.INT);
        freed.Free();
        assertMpiError(MPI.ERR_TYPE, () -> Datatype.Contiguous(2, freed), "Contiguous", "freed");
        assertMpiError(MPI.ERR_TYPE, freed::Extent, "Extent", "freed");
        assertMpiError(MPI.ERR_TYPE, freed::commit, "commit", "freed");
        // Open MPI: a freed type is MPI_DATATYPE_NULL.
        assertTrue(freed.isNull());
        Datatype vector = Datatype.createVector(2, 1, 3, MPI.SHORT);
        assertFalse(vector.isNull());
        vector.free();
        assertTrue(vector.isNull());
        MPI.INT.Free(); // predefined types stay usable
        assertFalse(MPI.INT.isNull());
        assertEquals(4, MPI.INT.getSize());
    }
}
