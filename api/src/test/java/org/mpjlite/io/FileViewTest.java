package org.mpjlite.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.mpjlite.io.IoJobs.intsOf;
import static org.mpjlite.io.IoJobs.value;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.nio.file.Path;
import mpi.Datatype;
import mpi.File;
import mpi.FileView;
import mpi.MPI;
import org.junit.jupiter.api.io.TempDir;
import org.mpjlite.io.IoJobs.IoRanks;
import org.mpjlite.p2p.Jobs.World;

/** Views: filetypes tiled from a displacement select what each rank sees; offsets count etypes. */
class FileViewTest {
    @TempDir
    Path dir;

    private static final int BLOCK = 3;
    private static final int BLOCKS = 4;
    private static final int HEADER = 8;

    /** The classic pattern: rank r owns block r of every row of size blocks. */
    @IoRanks
    void aVectorFiletypeInterleavesTheRanksBlocks(World world) {
        Path file = dir.resolve("vector");
        world.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
            Datatype mine = Datatype.createResized(Datatype.createContiguous(BLOCK, MPI.INT), 0, size * BLOCK * 4);
            mine.commit();
            f.setView(HEADER + (long) me * BLOCK * 4, MPI.INT, mine, "native");
            FileView v = f.getView();
            assertEquals(HEADER + (long) me * BLOCK * 4, v.getDisp());
            assertSame(MPI.INT, v.getEType());
            assertSame(mine, v.getFileType());
            assertEquals("native", v.getDataRep());
            int[] data = IoJobs.values(me, BLOCK * BLOCKS);
            f.writeAll(data, data.length, MPI.INT);
            assertEquals(BLOCK * BLOCKS, f.getPosition());
            // Offsets count ints of this rank's blocks: int 4 is the second int of its second block.
            assertEquals(HEADER + (long) (size + me) * BLOCK * 4 + 4, f.getByteOffset(BLOCK + 1));
            int[] got = new int[2];
            f.readAt(BLOCK + 1, got, 2, MPI.INT);
            assertArrayEquals(new int[] {value(me, BLOCK + 1), value(me, BLOCK + 2)}, got);
            f.close();
            return null;
        });
        int[] all = intsOf(file);
        assertEquals((HEADER + world.size() * BLOCK * BLOCKS * 4) / 4, all.length);
        for (int b = 0; b < BLOCKS * world.size(); b++) {
            int owner = b % world.size();
            for (int i = 0; i < BLOCK; i++) {
                assertEquals(value(owner, (b / world.size()) * BLOCK + i), all[HEADER / 4 + b * BLOCK + i]);
            }
        }
    }

    /** The same file written with a vector filetype and read with an indexed one, by another rank. */
    @IoRanks
    void anIndexedFiletypeReadsWhatAVectorOneWrote(World world) {
        Path file = dir.resolve("indexed");
        world.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
            Datatype vector = Datatype.createVector(BLOCKS, BLOCK, size * BLOCK, MPI.INT);
            Datatype tile = Datatype.createResized(vector, 0, BLOCKS * size * BLOCK * 4);
            tile.commit();
            f.setView((long) me * BLOCK * 4, MPI.INT, tile, "native");
            f.writeAll(IoJobs.values(me, BLOCKS * BLOCK), BLOCKS * BLOCK, MPI.INT);
            // Read rank (me+1)'s blocks through an indexed type of the same shape.
            int other = (me + 1) % size;
            int[] lengths = new int[BLOCKS];
            int[] displs = new int[BLOCKS];
            for (int b = 0; b < BLOCKS; b++) {
                lengths[b] = BLOCK;
                displs[b] = (b * size + other) * BLOCK;
            }
            Datatype indexed = Datatype.createIndexed(lengths, displs, MPI.INT);
            indexed.commit();
            f.setView(0, MPI.INT, indexed, "native");
            int[] got = new int[BLOCKS * BLOCK];
            assertEquals(BLOCKS * BLOCK, f.readAll(got, got.length, MPI.INT).getCount(MPI.INT));
            assertArrayEquals(IoJobs.values(other, BLOCKS * BLOCK), got);
            // SEEK_END: after the last int of the view that lies in the file, tiles repeating every extent.
            long total = (long) size * BLOCKS * BLOCK;
            long extentInts = indexed.getExtent() / 4;
            long visible = 0;
            for (long t = 0; t * extentInts < total; t++) {
                for (int b = 0; b < BLOCKS; b++) {
                    for (int i = 0; i < BLOCK; i++) {
                        visible += t * extentInts + displs[b] + i < total ? 1 : 0;
                    }
                }
            }
            f.seek(0, MPI.SEEK_END);
            assertEquals(visible, f.getPosition());
            if (other == size - 1) {
                assertEquals(BLOCKS * BLOCK, visible, "the last rank's blocks end with the file");
            }
            f.close();
            return null;
        });
        assertEquals(world.size() * BLOCKS * BLOCK, intsOf(file).length);
    }

    @IoRanks
    void aStructFiletypeSkipsItsHolesAndEtypesScaleOffsets(World world) {
        Path file = dir.resolve("struct");
        world.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            File f = new File(MPI.COMM_SELF, file.toString() + me, MPI.MODE_CREATE | MPI.MODE_RDWR);
            f.setSize(64);
            // Two ints at bytes 0 and 8 of every 16: the holes keep what was there.
            Datatype holes = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.INT});
            Datatype tile = Datatype.createResized(holes, 0, 16);
            tile.commit();
            Datatype pairEtype = Datatype.createContiguous(2, MPI.INT);
            pairEtype.commit();
            f.setView(0, MPI.INT, tile, "native");
            f.write(new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 8, MPI.INT);
            f.setView(0, pairEtype, tile, "native");
            int[] got = new int[2];
            f.readAt(2, got, 2, MPI.INT);
            assertArrayEquals(new int[] {5, 6}, got);
            assertEquals(32, f.getByteOffset(2));
            assertEquals(8, f.getTypeExtent(pairEtype));
            f.close();
            assertArrayEquals(new int[] {1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0},
                intsOf(Path.of(file.toString() + me)));
            return null;
        });
    }

    @IoRanks
    void badViewsAreErrorsOnEveryRank(World world) {
        Path file = dir.resolve("bad");
        world.run(() -> {
            File f = new File(MPI.COMM_WORLD, file.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
            assertMpiError(MPI.ERR_UNSUPPORTED_DATAREP, () -> f.setView(0, MPI.INT, MPI.INT, "external32"),
                "setView", "external32");
            assertMpiError(MPI.ERR_UNSUPPORTED_DATAREP, () -> f.setView(0, MPI.INT, MPI.INT, "internal"), "setView");
            assertMpiError(MPI.ERR_ARG, () -> f.setView(-4, MPI.INT, MPI.INT, "native"), "setView", "displacement");
            assertMpiError(MPI.ERR_ARG, () -> f.setView(MPI.DISPLACEMENT_CURRENT, MPI.INT, MPI.INT, "native"),
                "DISPLACEMENT_CURRENT");
            Datatype three = Datatype.createContiguous(3, MPI.BYTE);
            three.commit();
            assertMpiError(MPI.ERR_TYPE, () -> f.setView(0, MPI.INT, three, "native"), "setView", "etypes");
            Datatype backwards = Datatype.createIndexed(new int[] {1, 1}, new int[] {2, 0}, MPI.INT);
            backwards.commit();
            assertMpiError(MPI.ERR_TYPE, () -> f.setView(0, MPI.INT, backwards, "native"), "non-decreasing");
            Datatype uncommitted = Datatype.createContiguous(2, MPI.INT);
            assertMpiError(MPI.ERR_TYPE, () -> f.setView(0, MPI.INT, uncommitted, "native"), "committed");
            // Only one rank's view is bad: every rank fails, with the same class.
            Datatype filetype = MPI.COMM_WORLD.getRank() == 0 ? backwards : MPI.INT;
            assertMpiError(MPI.ERR_TYPE, () -> f.setView(0, MPI.INT, filetype, "native"), "setView",
                MPI.COMM_WORLD.getRank() == 0 ? "non-decreasing" : "rank 0");
            if (MPI.COMM_WORLD.getSize() > 1) {
                Datatype sized = MPI.COMM_WORLD.getRank() == 0 ? MPI.INT : MPI.SHORT;
                assertMpiError(MPI.ERR_NOT_SAME, () -> f.setView(0, sized, sized, "native"), "etypes");
            }
            // Data that are not whole etypes.
            f.setView(0, MPI.INT, MPI.INT, "native");
            assertMpiError(MPI.ERR_TYPE, () -> f.writeAt(0, new byte[3], 3, MPI.BYTE), "writeAt", "etypes");
            f.close();
            return null;
        });
    }
}
