package org.mpjlite.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mpjlite.datatype.RoundTripTest.committed;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import mpi.Datatype;
import mpi.MPI;
import mpi.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;

/**
 * Type signatures in point-to-point: what matches, mismatches (ERR_TYPE), truncation
 * (ERR_TRUNCATE), counts of derived and pair types, mixed structs in byte buffers, and the errors
 * of unusable datatypes.
 */
class SignatureTest {
    private static World pair(int eagerThreshold) {
        return new World(2, MatchingKind.LOCK_FREE, eagerThreshold);
    }

    private static List<World> bothProtocols() {
        return List.of(pair(Tunables.DEFAULT_EAGER_THRESHOLD), pair(0));
    }

    @Test
    void aSignatureMismatchIsErrType() {
        for (World w : bothProtocols()) {
            w.run(() -> {
                Datatype ints = committed(Datatype.Vector(2, 1, 2, MPI.INT));
                Datatype intDouble = committed(Datatype.createStruct(new int[] {1, 1}, new int[] {0, 4},
                    new Datatype[] {MPI.INT, MPI.DOUBLE}));
                Datatype doubleInt = committed(Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                    new Datatype[] {MPI.DOUBLE, MPI.INT}));
                if (MPI.COMM_WORLD.Rank() == 0) {
                    MPI.COMM_WORLD.Isend(new int[4], 0, 1, ints, 1, 0);
                    MPI.COMM_WORLD.Isend(new byte[12], 0, 1, intDouble, 1, 1);
                    MPI.COMM_WORLD.Isend(new byte[12], 0, 1, intDouble, 1, 2);
                } else {
                    assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Recv(new double[2], 0, 2, MPI.DOUBLE, 0, 0),
                        "Recv", "MPI.INT", "MPI.DOUBLE");
                    assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Recv(new byte[16], 0, 1, doubleInt, 0, 1),
                        "Recv", "element 0");
                    // a prefix of the receive's signature matches: int, double of (int, double) x 2
                    Status s = MPI.COMM_WORLD.Recv(new byte[24], 0, 2, intDouble, 0, 2);
                    assertEquals(1, s.Get_count(intDouble));
                    assertEquals(2, s.Get_elements(intDouble));
                }
                MPI.COMM_WORLD.Barrier();
                return null;
            });
        }
    }

    @Test
    void aTooShortReceiveIsErrTruncateAndGetsWhatFits() {
        for (World w : bothProtocols()) {
            w.run(() -> {
                Datatype col = committed(Datatype.Vector(3, 1, 2, MPI.INT));
                if (MPI.COMM_WORLD.Rank() == 0) {
                    MPI.COMM_WORLD.Send(new int[] {1, 2, 3, 4, 5, 6, 7}, 0, 7, MPI.INT, 1, 0);
                } else {
                    int[] in = new int[6];
                    assertMpiError(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.Recv(in, 0, 1, col, 0, 0), "Recv",
                        "7 elements", "longer");
                    assertArrayEquals(new int[] {1, 0, 2, 0, 3, 0}, in);
                }
                return null;
            });
        }
    }

    @Test
    void countsOfDerivedAndPairTypes() {
        pair(Tunables.DEFAULT_EAGER_THRESHOLD).run(() -> {
            Datatype two = committed(Datatype.Contiguous(2, MPI.INT));
            if (MPI.COMM_WORLD.Rank() == 0) {
                MPI.COMM_WORLD.Send(new int[5], 0, 5, MPI.INT, 1, 0);
                MPI.COMM_WORLD.Send(new int[4], 0, 4, MPI.INT, 1, 1);
                MPI.COMM_WORLD.Send(new int[] {7, 0, 8, 1, 9, 2}, 0, 3, MPI.INT2, 1, 2);
                MPI.COMM_WORLD.send(MPI.newByteBuffer(16), 2, MPI.FLOAT_INT, 1, 3);
            } else {
                Status odd = MPI.COMM_WORLD.Recv(new int[6], 0, 3, two, 0, 0);
                assertEquals(MPI.UNDEFINED, odd.Get_count(two));
                assertEquals(5, odd.Get_elements(two));
                assertEquals(5, odd.Get_count(MPI.INT));
                Status even = MPI.COMM_WORLD.Recv(new int[6], 0, 3, two, 0, 1);
                assertEquals(2, even.Get_count(two));
                int[] pairs = new int[8];
                Status p = MPI.COMM_WORLD.Recv(pairs, 2, 3, MPI.INT2, 0, 2);
                assertEquals(3, p.Get_count(MPI.INT2), "pair types count pairs");
                assertEquals(6, p.Get_elements(MPI.INT2));
                assertEquals(6, p.Get_count(MPI.INT));
                assertArrayEquals(new int[] {0, 0, 7, 0, 8, 1, 9, 2}, pairs);
                Status fi = MPI.COMM_WORLD.recv(MPI.newByteBuffer(16), 2, MPI.FLOAT_INT, 0, 3);
                assertEquals(2, fi.getCount(MPI.FLOAT_INT));
                assertEquals(4, fi.getElements(MPI.FLOAT_INT));
            }
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Send(new int[5], 0, 3, MPI.INT2, 0, 9), "Send",
                "beyond the end");
            return null;
        });
    }

    @ParameterizedTest(name = "eager threshold {0}")
    @ValueSource(ints = {Tunables.DEFAULT_EAGER_THRESHOLD, 0})
    void mixedStructsTravelBetweenByteBuffersOfAnyOrderAndByteArrays(int eager) {
        pair(eager).run(() -> {
            // {int at 0, double at 4, short at 12}, extent 16 after resizing
            Datatype s = committed(Datatype.createResized(Datatype.createStruct(new int[] {1, 1, 1},
                new int[] {0, 4, 12}, new Datatype[] {MPI.INT, MPI.DOUBLE, MPI.SHORT}), 0, 16));
            int n = 3;
            if (MPI.COMM_WORLD.Rank() == 0) {
                ByteBuffer big = ByteBuffer.allocate(16 * n).order(ByteOrder.BIG_ENDIAN);
                for (int i = 0; i < n; i++) {
                    big.putInt(16 * i, 10 + i).putDouble(16 * i + 4, 0.5 + i).putShort(16 * i + 12, (short) (-i));
                }
                MPI.COMM_WORLD.send(big, n, s, 1, 0);
                MPI.COMM_WORLD.Send(big.array(), 0, n, s, 1, 1); // the same bytes, read in native order
            } else {
                byte[] in = new byte[16 * n];
                MPI.COMM_WORLD.Recv(in, 0, n, s, 0, 0);
                ByteBuffer got = ByteBuffer.wrap(in).order(ByteOrder.nativeOrder());
                for (int i = 0; i < n; i++) {
                    assertEquals(10 + i, got.getInt(16 * i));
                    assertEquals(0.5 + i, got.getDouble(16 * i + 4));
                    assertEquals(-i, got.getShort(16 * i + 12));
                }
                ByteBuffer little = ByteBuffer.allocateDirect(16 * n).order(ByteOrder.LITTLE_ENDIAN);
                Status st = MPI.COMM_WORLD.recv(little, n, s, 0, 1);
                assertEquals(n, st.getCount(s));
                assertEquals(3 * n, st.getElements(s));
                // the byte[] held big-endian bytes, read as native-order values and written in the receiver's order
                boolean nativeBig = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;
                assertEquals(nativeBig ? 11 : Integer.reverseBytes(11), little.getInt(16));
                assertEquals(nativeBig ? (short) -2 : Short.reverseBytes((short) -2), little.getShort(32 + 12));
            }
            return null;
        });
    }

    @Test
    void unusableDatatypesAreErrType() {
        pair(Tunables.DEFAULT_EAGER_THRESHOLD).run(() -> {
            Datatype fresh = Datatype.Vector(2, 1, 2, MPI.INT);
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new int[4], 0, 1, fresh, 0, 0), "Send",
                "not committed");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.recv(new int[4], 1, fresh, 0, 0), "recv",
                "not committed");
            Datatype gone = committed(Datatype.Vector(2, 1, 2, MPI.INT));
            gone.Free();
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Isend(new int[4], 0, 1, gone, 0, 0), "Isend", "freed");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new int[4], 0, 1, MPI.DATATYPE_NULL, 0, 0), "Send",
                "DATATYPE_NULL");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new int[4], 0, 1, MPI.UB, 0, 0), "Send",
                "marker");
            Datatype mixed = committed(Datatype.createStruct(new int[] {1, 1}, new int[] {0, 4},
                new Datatype[] {MPI.INT, MPI.FLOAT}));
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new int[4], 0, 1, mixed, 0, 0), "Send",
                "byte[] or a ByteBuffer");
            Datatype odd = committed(Datatype.createHVector(2, 1, 6, MPI.INT));
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new int[4], 0, 1, odd, 0, 0), "Send",
                "ByteBuffer only");
            Datatype wide = committed(Datatype.Vector(3, 1, 4, MPI.INT));
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Send(new int[8], 0, 1, wide, 0, 0), "Send",
                "beyond the end");
            Datatype back = committed(Datatype.Vector(2, 1, -2, MPI.INT));
            assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Send(new int[8], 1, 1, back, 0, 0), "Send",
                "before the start");
            return null;
        });
    }

    @Test
    void unalignedByteDisplacementsWorkInByteBuffers() {
        pair(Tunables.DEFAULT_EAGER_THRESHOLD).run(() -> {
            Datatype odd = committed(Datatype.createHVector(3, 1, 6, MPI.INT)); // ints at bytes 0, 6, 12
            if (MPI.COMM_WORLD.Rank() == 0) {
                ByteBuffer b = MPI.newByteBuffer(16);
                b.putInt(0, 11).putInt(6, 22).putInt(12, 33);
                MPI.COMM_WORLD.send(b, 1, odd, 1, 0);
            } else {
                int[] in = new int[3];
                MPI.COMM_WORLD.recv(in, 3, MPI.INT, 0, 0);
                assertArrayEquals(new int[] {11, 22, 33}, in);
            }
            return null;
        });
    }
}
