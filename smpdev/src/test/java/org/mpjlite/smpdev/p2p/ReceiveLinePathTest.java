package org.mpjlite.smpdev.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.matching.Envelope;
import org.mpjlite.matching.ReceiveLine;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.TypeMap;
import org.mpjlite.smpdev.error.DeviceException;
import org.mpjlite.smpdev.error.ErrorClass;

/**
 * The small-message path of the lock-free mailbox: a message of at most
 * {@link ReceiveLine#DATA_BYTES} bytes of contiguous elements of one basic type, sent to a rank
 * whose matching receive is published, is left in the receiver's line and completed by the
 * receiver (so the receive is still pending when the send returns, and complete once the receiver
 * makes progress); anything else takes the general path, where a sender that claims the receive
 * completes it itself. Both give the same data and status; errors are raised as before.
 */
class ReceiveLinePathTest {
    private static final int CONTEXT = 0;
    private static final int TAG = 5;
    private static final String CALL = "Test";

    private final Job job = Job.create(JobConfig.builder().ranks(2).matching(MatchingKind.LOCK_FREE).build());
    private final Rank sender = job.rank(0);
    private final Rank receiver = job.rank(1);

    static Stream<Arguments> typesAndCounts() {
        List<Arguments> out = new ArrayList<>();
        for (BasicType type : BasicType.values()) {
            if (type == BasicType.OBJECT || type == BasicType.PACKED) {
                continue;
            }
            int fit = ReceiveLine.DATA_BYTES / type.size();
            for (int n : new int[] {0, 1, fit - 1, fit, fit + 1}) {
                out.add(Arguments.of(type, n));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{1} x {0}")
    @MethodSource("typesAndCounts")
    void arraysOfEveryBasicType(BasicType type, int n) {
        Object sent = values(type, n);
        Object got = type.newArray(n + 3);
        RecvRequest r = PointToPoint.irecv(receiver, CONTEXT, Envelope.ANY_SOURCE, Envelope.ANY_TAG, got, 1, n + 2,
            type, CALL);
        PointToPoint.isend(sender, receiver, CONTEXT, 0, TAG, sent, 0, n, type, SendMode.STANDARD, CALL);
        boolean inLine = (long) n * type.size() <= ReceiveLine.DATA_BYTES;
        assertEquals(!inLine, r.isComplete(), inLine ? "left in the line: the receiver completes it"
            : "too long for the line: the sender filled the receive");
        PointToPoint.progress(receiver);
        assertTrue(r.isComplete());
        assertFalse(r.failed(), () -> r.error().getMessage());
        assertEquals(0, r.statusSource());
        assertEquals(TAG, r.statusTag());
        assertEquals(n, r.statusCount());
        assertEquals(type, r.statusType());
        assertEquals((long) n * type.size(), r.statusBytes());
        Object expected = type.newArray(n + 3);
        System.arraycopy(sent, 0, expected, 1, n);
        assertEquals(describe(expected), describe(got));
        r.recycle();
    }

    @Test
    void nioBuffersOfEitherByteOrder() {
        for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            ByteBuffer sent = ByteBuffer.allocateDirect(64).order(order);
            for (int i = 0; i < 16; i++) {
                sent.putInt(4 * i, 1000 + i);
            }
            ByteBuffer got = ByteBuffer.allocateDirect(64).order(order);
            RecvRequest r = PointToPoint.irecv(receiver, CONTEXT, 0, TAG, got, 0, 16, BasicType.INT, CALL);
            PointToPoint.isend(sender, receiver, CONTEXT, 0, TAG, sent, 0, 16, BasicType.INT, SendMode.STANDARD, CALL);
            assertFalse(r.isComplete(), "left in the line");
            PointToPoint.progress(receiver);
            assertEquals(16, r.statusCount());
            for (int i = 0; i < 16; i++) {
                assertEquals(1000 + i, got.getInt(4 * i), order + " element " + i);
            }
            r.recycle();
        }
        IntBuffer typed = IntBuffer.allocate(4);
        RecvRequest r = PointToPoint.irecv(receiver, CONTEXT, 0, TAG, typed, 0, 4, BasicType.INT, CALL);
        PointToPoint.isend(sender, receiver, CONTEXT, 0, TAG, new int[] {7, 8, 9}, 0, 3, BasicType.INT,
            SendMode.STANDARD, CALL);
        PointToPoint.progress(receiver);
        assertEquals(3, r.statusCount());
        assertArrayEquals(new int[] {7, 8, 9, 0}, typed.array());
    }

    /** A message longer than the receive buffer is not left in the line: it is truncated as before. */
    @Test
    void truncationIsReportedAsBefore() {
        int[] got = new int[2];
        RecvRequest r = PointToPoint.irecv(receiver, CONTEXT, 0, TAG, got, 0, 2, BasicType.INT, CALL);
        PointToPoint.isend(sender, receiver, CONTEXT, 0, TAG, new int[] {1, 2, 3}, 0, 3, BasicType.INT,
            SendMode.STANDARD, CALL);
        PointToPoint.progress(receiver);
        assertTrue(r.failed());
        assertEquals(ErrorClass.ERR_TRUNCATE, errorClass(r));
        assertArrayEquals(new int[] {1, 2}, got, "the part that fits");
        assertEquals(2, r.statusCount());
    }

    /** Another element type takes the general path, which reports the mismatch. */
    @Test
    void aTypeMismatchIsReportedAsBefore() {
        RecvRequest r = PointToPoint.irecv(receiver, CONTEXT, 0, TAG, new int[2], 0, 2, BasicType.INT, CALL);
        PointToPoint.isend(sender, receiver, CONTEXT, 0, TAG, new double[] {1}, 0, 1, BasicType.DOUBLE,
            SendMode.STANDARD, CALL);
        PointToPoint.progress(receiver);
        assertTrue(r.failed());
        assertEquals(ErrorClass.ERR_TYPE, errorClass(r));
    }

    /** Contiguous derived types of one basic type go through the line too, counted in elements. */
    @Test
    void contiguousDerivedTypes() {
        TypeMap pairs = TypeMap.hvector(2, 1, 8, TypeMap.of(BasicType.LONG));
        long[] got = new long[6];
        RecvRequest r = PointToPoint.irecv(receiver, CONTEXT, 0, TAG, got, 0, 3, pairs, CALL);
        PointToPoint.isend(sender, receiver, CONTEXT, 0, TAG, new long[] {1, 2, 3, 4}, 0, 2, pairs,
            SendMode.STANDARD, CALL);
        assertFalse(r.isComplete(), "left in the line");
        PointToPoint.progress(receiver);
        assertEquals(4, r.statusCount());
        assertArrayEquals(new long[] {1, 2, 3, 4, 0, 0}, got);
    }

    /** A rank sending to itself, and every send mode, take the line alike. */
    @Test
    void selfSendsAndEverySendMode() {
        for (SendMode mode : SendMode.values()) {
            if (mode == SendMode.BUFFERED) {
                continue; // needs an attached buffer, which the line path never charges: see the API tests
            }
            int[] got = new int[1];
            RecvRequest r = PointToPoint.irecv(sender, CONTEXT, 0, TAG, got, 0, 1, BasicType.INT, CALL);
            SendRequest s = PointToPoint.isend(sender, sender, CONTEXT, 0, TAG, new int[] {mode.ordinal() + 1}, 0, 1,
                BasicType.INT, mode, CALL);
            assertTrue(s.isComplete(), mode + ": the send is matched, so complete");
            r.await(CALL);
            assertArrayEquals(new int[] {mode.ordinal() + 1}, got);
            r.recycle();
        }
    }

    /**
     * A blocking receive waiting on another thread is completed from the line: its wait polls the
     * line and makes the progress itself; many round trips keep MPI's order.
     */
    @Test
    void aPingPongThroughTheLine() throws InterruptedException {
        int rounds = 20_000;
        Thread echo = new Thread(() -> {
            int[] b = new int[4];
            for (int i = 0; i < rounds; i++) {
                RecvRequest r = PointToPoint.irecv(receiver, CONTEXT, 0, Envelope.ANY_TAG, b, 0, 4, BasicType.INT, CALL);
                r.await(CALL);
                int n = r.statusCount();
                r.recycle();
                PointToPoint.isend(receiver, sender, CONTEXT, 1, TAG, b, 0, n, BasicType.INT, SendMode.STANDARD, CALL)
                    .await(CALL);
            }
        });
        echo.start();
        int[] ping = new int[3];
        int[] pong = new int[4];
        for (int i = 0; i < rounds; i++) {
            ping[0] = i;
            ping[2] = -i;
            PointToPoint.isend(sender, receiver, CONTEXT, 0, i % 7, ping, 0, 3, BasicType.INT, SendMode.STANDARD, CALL)
                .await(CALL);
            RecvRequest r = PointToPoint.irecv(sender, CONTEXT, 1, TAG, pong, 0, 4, BasicType.INT, CALL);
            r.await(CALL);
            assertEquals(3, r.statusCount());
            assertEquals(i, pong[0]);
            assertEquals(-i, pong[2]);
            r.recycle();
        }
        echo.join();
        assertFalse(receiver.endpoint().mailbox().hasArrivals());
    }

    private static int errorClass(RecvRequest r) {
        return ((DeviceException) r.error()).errorClass();
    }

    /** {@code n} distinct values of {@code type} in an array of it (other tests of the package use it too). */
    static Object values(BasicType type, int n) {
        Object a = type.newArray(n);
        for (int i = 0; i < n; i++) {
            Object v = switch (type) {
                case BYTE -> (byte) (i * 7 - 100);
                case CHAR -> (char) ('a' + i);
                case SHORT -> (short) (i * 1000 - 30000);
                case BOOLEAN -> i % 3 == 0;
                case INT -> i * 100_003 - 7;
                case LONG -> i * 10_000_000_019L - 3;
                case FLOAT -> i * 1.5f - 0.25f;
                case DOUBLE -> i * 2.75 - 1e10;
                default -> throw new IllegalArgumentException(type.toString());
            };
            Array.set(a, i, v);
        }
        return a;
    }

    private static String describe(Object array) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Array.getLength(array); i++) {
            b.append(Array.get(array, i)).append(',');
        }
        return b.toString();
    }
}
