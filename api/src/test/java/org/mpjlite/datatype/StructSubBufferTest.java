package org.mpjlite.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.nio.ByteBuffer;
import mpi.Datatype;
import mpi.MPI;
import mpi.Struct;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/** Open MPI's {@code Struct.Data.getBuffer(type, field[, index])}: a buffer over one item of a datatype field. */
class StructSubBufferTest {
    /** {@code int id; double triple[2][3];}: the triples are a datatype field of two items. */
    static final class Record extends Struct {
        final Datatype triple;
        final int id;
        final int triples;

        Record(Datatype triple) {
            this.triple = triple;
            id = addInt();
            triples = addData(triple, 2);
        }

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            ByteBuffer triple(int index) {
                return getBuffer(triple, triples, index);
            }

            ByteBuffer first() {
                return getBuffer(triple, triples);
            }
        }
    }

    @Jobs.AnyRanks
    void anItemOfADatatypeFieldIsABufferOfItsOwn(World w) {
        w.run(() -> {
            int rank = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            Datatype triple = Datatype.createContiguous(3, MPI.DOUBLE);
            triple.commit();
            Record rec = new Record(triple);
            ByteBuffer out = MPI.newByteBuffer(rec.getExtent());
            ByteBuffer in = MPI.newByteBuffer(rec.getExtent());
            Record.Data o = rec.getData(out);
            Record.Data i = rec.getData(in);
            ByteBuffer second = o.triple(1);
            assertEquals(24, second.capacity());
            assertEquals(out.order(), second.order());
            for (int k = 0; k < 3; k++) {
                second.putDouble(8 * k, rank * 10 + k);
            }
            MPI.COMM_WORLD.sendRecv(second, 1, triple, (rank + 1) % size, 0,
                i.first(), 1, triple, (rank + size - 1) % size, 0);
            int left = (rank + size - 1) % size;
            for (int k = 0; k < 3; k++) {
                assertEquals(left * 10 + k, in.getDouble(rec.triples + 8 * k), "element " + k);
            }
            assertMpiError(MPI.ERR_ARG, () -> o.triple(2), "getBuffer", "index 2");
            assertMpiError(MPI.ERR_ARG, () -> o.triple(-1), "getBuffer", "index -1");
            return null;
        });
    }
}
