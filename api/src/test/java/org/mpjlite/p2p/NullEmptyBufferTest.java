package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;

import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.mpjlite.p2p.Jobs.World;

/** A count of 0 addresses no data, so MPI allows a null buffer with it: sends, receives, both dialects. */
class NullEmptyBufferTest {
    @Jobs.MultiRanksBothProtocols
    void emptyMessagesWithNullBuffersInBothDialects(World w) {
        w.run(() -> {
            int right = Jobs.right();
            int left = Jobs.left();
            // mpiJava
            Request r = MPI.COMM_WORLD.Irecv(null, 0, 0, MPI.INT, left, 1);
            MPI.COMM_WORLD.Send(null, 0, 0, MPI.INT, right, 1);
            Status s = r.Wait();
            assertEquals(0, s.Get_count(MPI.INT));
            assertEquals(left, s.source);
            Request send = MPI.COMM_WORLD.Isend(null, 0, 0, MPI.DOUBLE, right, 2);
            s = MPI.COMM_WORLD.Recv(null, 0, 0, MPI.DOUBLE, left, 2);
            send.Wait();
            assertEquals(2, s.tag);
            s = MPI.COMM_WORLD.Sendrecv(null, 0, 0, MPI.BYTE, right, 3, null, 0, 0, MPI.BYTE, left, 3);
            assertEquals(0, s.Get_count(MPI.BYTE));
            // Open MPI
            Request or = MPI.COMM_WORLD.iRecv(null, 0, MPI.INT, left, 4);
            MPI.COMM_WORLD.send(null, 0, MPI.INT, right, 4);
            assertEquals(0, or.waitStatus().getCount(MPI.INT));
            Request synchronous = MPI.COMM_WORLD.isSend(null, 0, MPI.INT, right, 5);
            assertEquals(left, MPI.COMM_WORLD.recv(null, 0, MPI.INT, left, 5).getSource());
            synchronous.waitFor();
            return null;
        });
    }

    @Jobs.MultiRanks
    void aMessageWithDataForANullEmptyReceiveIsTruncated(World w) {
        w.run(() -> {
            MPI.COMM_WORLD.Isend(new int[] {1, 2}, 0, 2, MPI.INT, Jobs.right(), 6);
            Jobs.assertMpiError(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.Recv(null, 0, 0, MPI.INT, Jobs.left(), 6),
                "Recv");
            return null;
        });
    }

    @Jobs.MultiRanks
    void aNullBufferWithACountIsStillAnError(World w) {
        w.run(() -> {
            Jobs.assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Send(null, 0, 1, MPI.INT, Jobs.right(), 7),
                "Send", "null");
            Jobs.assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.recv(null, 2, MPI.INT, Jobs.left(), 7),
                "recv", "null");
            return null;
        });
    }
}
