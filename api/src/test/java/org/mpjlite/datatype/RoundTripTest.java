package org.mpjlite.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import mpi.Datatype;
import mpi.MPI;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;

/**
 * Derived datatypes through every send mode (standard, synchronous, buffered, ready; blocking,
 * non-blocking, persistent; Sendrecv and Sendrecv_replace), in both directions (a non-contiguous
 * send into a contiguous receive, and the reverse), with the receive posted first and with the
 * message waiting first, eager and rendezvous, on 2 and 3 ranks.
 */
class RoundTripTest {
    static Stream<World> worlds() {
        List<World> out = new ArrayList<>();
        for (int n : new int[] {2, 3}) {
            for (MatchingKind k : MatchingKind.values()) {
                out.add(new World(n, k, Tunables.DEFAULT_EAGER_THRESHOLD));
                out.add(new World(n, k, 0));
            }
        }
        return out.stream();
    }

    enum Mode { SEND, SSEND, BSEND, RSEND, ISEND, ISSEND, IBSEND, IRSEND, SEND_INIT, SSEND_INIT, BSEND_INIT,
        RSEND_INIT, OPEN_MPI_SEND, OPEN_MPI_ISEND }

    /** Every 3rd int of 3 * n from offset 1: the "column" the tests send. */
    static Datatype column(int n) {
        return committed(Datatype.Vector(n, 1, 3, MPI.INT));
    }

    static Datatype committed(Datatype t) {
        t.commit();
        return t;
    }

    static int[] data(int n, int seed) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = seed * 1000 + i;
        }
        return a;
    }

    static void send(Mode mode, Object buf, int offset, int count, Datatype type, int dest, int tag) {
        switch (mode) {
            case SEND -> MPI.COMM_WORLD.Send(buf, offset, count, type, dest, tag);
            case SSEND -> MPI.COMM_WORLD.Ssend(buf, offset, count, type, dest, tag);
            case BSEND -> MPI.COMM_WORLD.Bsend(buf, offset, count, type, dest, tag);
            case RSEND -> MPI.COMM_WORLD.Rsend(buf, offset, count, type, dest, tag);
            case ISEND -> MPI.COMM_WORLD.Isend(buf, offset, count, type, dest, tag).Wait();
            case ISSEND -> MPI.COMM_WORLD.Issend(buf, offset, count, type, dest, tag).Wait();
            case IBSEND -> MPI.COMM_WORLD.Ibsend(buf, offset, count, type, dest, tag).Wait();
            case IRSEND -> MPI.COMM_WORLD.Irsend(buf, offset, count, type, dest, tag).Wait();
            case SEND_INIT -> startTwice(MPI.COMM_WORLD.Send_init(buf, offset, count, type, dest, tag));
            case SSEND_INIT -> startTwice(MPI.COMM_WORLD.Ssend_init(buf, offset, count, type, dest, tag));
            case BSEND_INIT -> startTwice(MPI.COMM_WORLD.Bsend_init(buf, offset, count, type, dest, tag));
            case RSEND_INIT -> startTwice(MPI.COMM_WORLD.Rsend_init(buf, offset, count, type, dest, tag));
            case OPEN_MPI_SEND -> MPI.COMM_WORLD.send(MPI.slice((int[]) buf, offset), count, type, dest, tag);
            case OPEN_MPI_ISEND -> MPI.COMM_WORLD.iSend(MPI.slice((int[]) buf, offset), count, type, dest, tag)
                .waitFor();
            default -> throw new AssertionError(mode);
        }
    }

    /** Persistent sends go twice: the receiver takes two messages. */
    private static void startTwice(Prequest p) {
        p.Start();
        p.Wait();
        p.Start();
        p.Wait();
        p.Free();
    }

    static int messages(Mode mode) {
        return mode.name().endsWith("_INIT") ? 2 : 1;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void everyModeSendsAColumnIntoContiguousIntsAndBack(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int size = MPI.COMM_WORLD.Size();
            int right = (me + 1) % size;
            int left = (me + size - 1) % size;
            int n = 5;
            Datatype col = column(n);
            MPI.Buffer_attach(ByteBuffer.allocate(4096));
            for (Mode mode : Mode.values()) {
                // receives posted first: non-contiguous send into contiguous ints
                int k = messages(mode);
                int[][] in = new int[k][n + 2];
                Request[] r = new Request[k];
                for (int m = 0; m < k; m++) {
                    r[m] = MPI.COMM_WORLD.Irecv(in[m], 1, n, MPI.INT, left, 1);
                }
                MPI.COMM_WORLD.Barrier();
                send(mode, data(3 * n + 1, me), 1, 1, col, right, 1);
                Status[] s = Request.Waitall(r);
                int[] expected = new int[n + 2];
                for (int i = 0; i < n; i++) {
                    expected[1 + i] = left * 1000 + 1 + 3 * i;
                }
                for (int m = 0; m < k; m++) {
                    assertEquals(n, s[m].Get_count(MPI.INT), mode.toString());
                    assertEquals(1, s[m].Get_count(col), mode.toString());
                    assertArrayEquals(expected, in[m], mode + ": column of rank " + left + ", message " + m);
                }
                // message waiting first (except ready mode): contiguous ints into a column, a token ring
                if (mode == Mode.RSEND || mode == Mode.IRSEND || mode == Mode.RSEND_INIT) {
                    continue;
                }
                int[] col2 = new int[3 * n + 1];
                if (me == 0) {
                    sendContiguous(mode, n, me, right);
                    receiveColumn(col2, col, left, mode);
                } else {
                    receiveColumn(col2, col, left, mode);
                    sendContiguous(mode, n, me, right);
                }
                for (int i = 0; i < 3 * n + 1; i++) {
                    int want = i >= 1 && (i - 1) % 3 == 0 ? left * 1000 + (i - 1) / 3 : 0;
                    assertEquals(want, col2[i], mode + ": element " + i + " of the column from rank " + left);
                }
            }
            MPI.Buffer_detach();
            return null;
        });
    }

    private static void sendContiguous(Mode mode, int n, int me, int right) {
        if (messages(mode) == 2) {
            Prequest p = switch (mode) {
                case SEND_INIT -> MPI.COMM_WORLD.Send_init(data(n, me), 0, n, MPI.INT, right, 2);
                case SSEND_INIT -> MPI.COMM_WORLD.Ssend_init(data(n, me), 0, n, MPI.INT, right, 2);
                default -> MPI.COMM_WORLD.Bsend_init(data(n, me), 0, n, MPI.INT, right, 2);
            };
            p.Start();
            p.Wait();
            p.Free();
        } else {
            send(mode, data(n, me), 0, n, MPI.INT, right, 2);
        }
    }

    private static void receiveColumn(int[] col2, Datatype col, int left, Mode mode) {
        Status probed = MPI.COMM_WORLD.Probe(left, 2);
        assertEquals(5, probed.Get_count(MPI.INT), mode.toString());
        Status s = MPI.COMM_WORLD.Recv(col2, 1, 1, col, left, 2);
        assertEquals(1, s.Get_count(col), mode.toString());
        assertEquals(5, s.Get_elements(col), mode.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void sendrecvAndSendrecvReplaceWithColumns(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int size = MPI.COMM_WORLD.Size();
            int right = (me + 1) % size;
            int left = (me + size - 1) % size;
            int n = 4;
            Datatype col = column(n);
            int[] in = new int[3 * n];
            Status s = MPI.COMM_WORLD.Sendrecv(data(3 * n, me), 0, 1, col, right, 3, in, 0, 1, col, left, 3);
            assertEquals(1, s.Get_count(col));
            for (int i = 0; i < 3 * n; i++) {
                assertEquals(i % 3 == 0 ? left * 1000 + i : 0, in[i], "Sendrecv element " + i);
            }
            int[] buf = data(3 * n, me);
            MPI.COMM_WORLD.Sendrecv_replace(buf, 0, 1, col, right, 4, left, 4);
            for (int i = 0; i < 3 * n; i++) {
                assertEquals(i % 3 == 0 ? left * 1000 + i : me * 1000 + i, buf[i], "Sendrecv_replace element " + i);
            }
            int[] whole = data(2 * n, me);
            MPI.COMM_WORLD.sendRecvReplace(whole, 2, committed(Datatype.createContiguous(n, MPI.INT)), right, 5,
                left, 5);
            assertArrayEquals(data(2 * n, left), whole, "sendRecvReplace of a contiguous type");
            return null;
        });
    }
}
