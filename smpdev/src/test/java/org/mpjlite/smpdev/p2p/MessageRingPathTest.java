package org.mpjlite.smpdev.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.matching.Envelope;
import org.mpjlite.matching.MessageRing;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.error.DeviceException;
import org.mpjlite.smpdev.error.ErrorClass;

/**
 * Small messages that find no posted receive take the sender's ring to the receiver (the lock-free
 * mailbox): a stream arrives complete, in order, with the sender's data and status, mixed with
 * messages of every other path (longer, rendezvous, derived types, a full ring), and errors are
 * reported as on the inbox path. Once the ring is drained, a posted receive is claimed again. A ring
 * opens for a stream only: small messages in a row that find no receive to claim.
 */
class MessageRingPathTest {
    private static final int CONTEXT = 0;
    private static final int TAG = 5;
    private static final String CALL = "Test";
    private static final int OPENING = 99;

    private final Job job = Job.create(JobConfig.builder().ranks(3).matching(MatchingKind.LOCK_FREE).build());
    private final Rank sender = job.rank(0);
    private final Rank receiver = job.rank(1);

    private SendRequest send(Rank from, int[] data, int tag, SendMode mode) {
        return PointToPoint.isend(from, receiver, CONTEXT, from.id(), tag, data, 0, data.length, BasicType.INT, mode,
            CALL);
    }

    private RecvRequest recv(int source, int[] into) {
        return recv(source, Envelope.ANY_TAG, into);
    }

    private RecvRequest recv(int source, int tag, int[] into) {
        return PointToPoint.irecv(receiver, CONTEXT, source, tag, into, 0, into.length, BasicType.INT, CALL);
    }

    private MessageRing ringOf(Rank from) {
        return from.endpoint().rings().to(receiver);
    }

    /** Opens {@code from}'s ring to the receiver: small messages in a row that find no receive, then received. */
    private MessageRing openRing(Rank from) {
        int opening = Tunables.RING_AFTER_UNCLAIMED;
        for (int i = 0; i < opening; i++) {
            assertNull(ringOf(from), "no ring before " + opening + " in a row");
            send(from, new int[] {i}, OPENING, SendMode.STANDARD);
        }
        MessageRing ring = ringOf(from);
        assertNotNull(ring, opening + " small messages in a row that found no receive open a ring");
        for (int i = 0; i < opening; i++) {
            RecvRequest r = recv(from.id(), OPENING, new int[1]);
            r.await(CALL);
        }
        assertTrue(ring.isDrained());
        return ring;
    }

    /** A ping-pong whose messages find their receives posted opens no ring, even if one now and then arrives first. */
    @Test
    void aPingPongOpensNoRing() {
        for (int round = 0; round < 100; round++) {
            if (round % 10 == 0) {
                send(sender, new int[] {round}, TAG, SendMode.STANDARD); // arrives first
                recv(0, new int[1]).await(CALL);
            } else {
                RecvRequest r = recv(0, new int[1]);
                send(sender, new int[] {round}, TAG, SendMode.STANDARD);
                r.await(CALL);
            }
        }
        assertNull(ringOf(sender));
    }

    /**
     * Messages longer than {@link Tunables#RING_OPENING_BYTES} that arrive before their receives, each
     * received before the next is sent (a ping-pong's replies), open no ring, however many in a
     * row; a stream of them opens one at its second message, the first still in the inbox, and
     * the rest take cells.
     */
    @Test
    void longerMessagesOpenARingOnlyInAStream() {
        int[] longer = new int[Tunables.RING_OPENING_BYTES / 4 + 1];
        for (int round = 0; round < 3 * Tunables.RING_AFTER_UNCLAIMED; round++) {
            longer[0] = round;
            send(sender, longer, TAG, SendMode.STANDARD); // arrives first
            int[] got = new int[longer.length];
            recv(0, got).await(CALL);
            assertEquals(round, got[0]);
        }
        assertNull(ringOf(sender), "a ping-pong's replies open no ring");

        int count = 10;
        for (int i = 0; i < count; i++) {
            longer[0] = i;
            send(sender, longer, TAG, SendMode.STANDARD);
        }
        MessageRing ring = ringOf(sender);
        assertNotNull(ring, "a stream of longer messages opens a ring");
        assertEquals(count - 1, ring.nextIndex(), "every message after the first in a cell");
        for (int i = 0; i < count; i++) {
            int[] got = new int[longer.length];
            RecvRequest r = recv(0, got);
            r.await(CALL);
            assertEquals(i, got[0], "in the order sent");
            assertEquals(longer.length, r.statusCount());
        }
        assertTrue(ring.isDrained());
    }

    /** Every basic type and size a cell holds, sent before any receive is posted. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = BasicType.class, names = {"BYTE", "CHAR", "SHORT", "BOOLEAN", "INT", "LONG", "FLOAT", "DOUBLE"})
    void aStreamOfEveryBasicTypeArrivesInOrder(BasicType type) {
        int most = MessageRing.DATA_BYTES / type.size();
        List<Object> sent = new ArrayList<>();
        for (int n = 0; n <= most; n++) {
            Object data = ReceiveLinePathTest.values(type, n);
            sent.add(data);
            assertTrue(PointToPoint.isend(sender, receiver, CONTEXT, 0, n, data, 0, n, type, SendMode.STANDARD, CALL)
                .isComplete(), "eager: complete at once");
        }
        assertNotNull(ringOf(sender), "the stream opened a ring");
        for (int n = 0; n <= most; n++) {
            Object got = type.newArray(most + 1);
            RecvRequest r = PointToPoint.irecv(receiver, CONTEXT, 0, Envelope.ANY_TAG, got, 0, most + 1, type, CALL);
            r.await(CALL);
            assertFalse(r.failed(), () -> r.error().getMessage());
            assertEquals(0, r.statusSource());
            assertEquals(n, r.statusTag(), "in the order sent");
            assertEquals(n, r.statusCount());
            assertEquals(type, r.statusType());
            assertEquals((long) n * type.size(), r.statusBytes());
            for (int i = 0; i < n; i++) {
                assertEquals(java.lang.reflect.Array.get(sent.get(n), i), java.lang.reflect.Array.get(got, i));
            }
        }
        assertTrue(ringOf(sender).isDrained());
    }

    /**
     * Every basic type and size a cell holds (its spill too), into receives posted before the
     * message came and into receives posted after it: the receive takes it straight from the cell.
     * The receive senders may claim is an earlier one that takes none of these messages, so each
     * goes into a cell whatever the sender last saw of its ring.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = BasicType.class, names = {"BYTE", "CHAR", "SHORT", "BOOLEAN", "INT", "LONG", "FLOAT", "DOUBLE"})
    void receivesTakeMessagesOfEverySizeFromTheirCells(BasicType type) {
        MessageRing ring = openRing(sender);
        RecvRequest claimable = recv(0, OPENING, new int[1]);
        int most = MessageRing.DATA_BYTES / type.size();
        for (boolean postedFirst : new boolean[] {true, false}) {
            for (int n = 0; n <= most; n++) {
                Object data = ReceiveLinePathTest.values(type, n);
                Object got = type.newArray(most);
                RecvRequest r = null;
                if (postedFirst) {
                    r = PointToPoint.irecv(receiver, CONTEXT, 0, TAG, got, 0, most, type, CALL);
                }
                long before = ring.nextIndex();
                PointToPoint.isend(sender, receiver, CONTEXT, 0, TAG, data, 0, n, type, SendMode.STANDARD, CALL);
                assertEquals(before + 1, ring.nextIndex(), "into a cell");
                if (!postedFirst) {
                    r = PointToPoint.irecv(receiver, CONTEXT, 0, TAG, got, 0, most, type, CALL);
                }
                r.await(CALL);
                RecvRequest done = r;
                assertFalse(done.failed(), () -> done.error().getMessage());
                assertEquals(n, r.statusCount());
                assertEquals((long) n * type.size(), r.statusBytes());
                for (int i = 0; i < n; i++) {
                    assertEquals(java.lang.reflect.Array.get(data, i), java.lang.reflect.Array.get(got, i),
                        (postedFirst ? "posted first" : "posted after") + ", " + n + " elements, element " + i);
                }
            }
        }
        assertFalse(claimable.isComplete());
        send(sender, new int[] {7}, OPENING, SendMode.STANDARD);
        claimable.await(CALL);
        PointToPoint.progress(receiver);
        assertTrue(ring.isDrained());
    }

    /**
     * Messages past what a message's own array takes ({@link Tunables#SMALL_COPY_BYTES}) up to the
     * longest a cell carries, kept as unexpected: the receives are posted in the reverse order of
     * the tags, so each drain turns the cells before the one it matches into the receiver's
     * messages, which carry pooled copies of the cells' data. Every message arrives whole.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = BasicType.class, names = {"BYTE", "BOOLEAN", "INT", "DOUBLE"})
    void longMessagesKeptAsUnexpectedArriveWhole(BasicType type) {
        MessageRing ring = openRing(sender);
        int size = type.size();
        int[] counts = {Tunables.SMALL_COPY_BYTES / size, Tunables.SMALL_COPY_BYTES / size + 1, 2048 / size,
            MessageRing.DATA_BYTES / size - 1, MessageRing.DATA_BYTES / size};
        Object[] sent = new Object[counts.length];
        long first = ring.nextIndex();
        for (int tag = 0; tag < counts.length; tag++) {
            sent[tag] = ReceiveLinePathTest.values(type, counts[tag] + tag);
            PointToPoint.isend(sender, receiver, CONTEXT, 0, tag, sent[tag], tag, counts[tag], type,
                SendMode.STANDARD, CALL);
        }
        assertEquals(first + counts.length, ring.nextIndex(), "every message in a cell");
        for (int tag = counts.length - 1; tag >= 0; tag--) {
            int capacity = MessageRing.DATA_BYTES / size;
            Object got = type.newArray(capacity);
            RecvRequest r = PointToPoint.irecv(receiver, CONTEXT, 0, tag, got, 0, capacity, type, CALL);
            r.await(CALL);
            RecvRequest done = r;
            assertFalse(done.failed(), () -> done.error().getMessage());
            assertEquals(counts[tag], r.statusCount());
            assertEquals((long) counts[tag] * size, r.statusBytes());
            for (int i = 0; i < counts[tag]; i++) {
                assertEquals(java.lang.reflect.Array.get(sent[tag], tag + i), java.lang.reflect.Array.get(got, i),
                    counts[tag] + " elements, element " + i);
            }
        }
        assertTrue(ring.isDrained());
    }

    /**
     * Between ring messages, messages of the other paths: longer than a cell, rendezvous (above the
     * eager threshold), synchronous, a derived type; and more than a ring holds, so that some take the
     * inbox with their index. All arrive in the order sent.
     */
    @Test
    void everyOtherPathKeepsTheRingsOrder() throws Exception {
        openRing(sender);
        int count = 3 * 64;
        List<SendRequest> pending = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int[] data;
            SendMode mode = SendMode.STANDARD;
            switch (i % 8) {
                case 3 -> data = new int[40];            // longer than a cell
                case 5 -> data = new int[64 * 1024];     // rendezvous
                case 6 -> {
                    data = new int[1];
                    mode = SendMode.SYNCHRONOUS;
                }
                default -> data = new int[1 + i % 4];
            }
            data[0] = i;
            pending.add(send(sender, data, TAG, mode));
        }
        for (int i = 0; i < count; i++) {
            int[] got = new int[64 * 1024];
            RecvRequest r = recv(0, got);
            r.await(CALL);
            assertFalse(r.failed(), () -> r.error().getMessage());
            assertEquals(i, got[0], "message " + i + " in its place");
        }
        for (SendRequest s : pending) {
            s.await(CALL);
        }
        assertTrue(ringOf(sender).isDrained());
        assertTrue(receiver.endpoint().mailbox().unexpectedSnapshot().isEmpty());
    }

    /** With the ring drained, a small message to a posted receive is claimed again (the receive line). */
    @Test
    void aDrainedRingLetsTheSenderClaimAPostedReceive() {
        MessageRing ring = openRing(sender);
        for (int i = 0; i < 3; i++) {
            send(sender, new int[] {i}, TAG, SendMode.STANDARD);
        }
        assertFalse(ring.isDrained());
        RecvRequest posted = recv(0, new int[1]);
        int[] got = new int[1];
        RecvRequest next = recv(0, got);
        PointToPoint.progress(receiver);
        assertTrue(posted.isComplete());
        assertTrue(next.isComplete());
        assertTrue(recv(0, new int[1]).isComplete(), "the third was unexpected");
        assertTrue(ring.isDrained());
        int[] line = new int[1];
        RecvRequest viaLine = recv(0, line);
        send(sender, new int[] {42}, TAG, SendMode.STANDARD);
        assertFalse(viaLine.isComplete(), "left in the line: the receiver completes it");
        PointToPoint.progress(receiver);
        assertEquals(42, line[0]);
        assertTrue(ring.isDrained(), "the claim took no index");
    }

    /**
     * Once a ring is open, a message it can take, however long, goes by the sender's last reading
     * of the receiver's progress, so a stream keeps to its ring even past a receive posted
     * meanwhile; a message it cannot take reads the progress afresh and claims that receive.
     */
    @Test
    void ringMessagesGoByTheLastReadingAndOthersClaim() {
        MessageRing ring = openRing(sender);
        for (int i = 0; i < 3; i++) {
            send(sender, new int[] {i}, TAG, SendMode.STANDARD);
        }
        for (int i = 0; i < 3; i++) {
            recv(0, new int[1]).await(CALL);
        }
        // Drained now; the sender's last reading (before the three) is not (isDrained would read it again).

        int[] longest = new int[MessageRing.DATA_BYTES / Integer.BYTES];
        java.util.Arrays.fill(longest, 7);
        int[] got = new int[longest.length];
        RecvRequest posted = recv(0, got);
        long before = ring.nextIndex();
        send(sender, longest, TAG, SendMode.STANDARD);
        assertEquals(before + 1, ring.nextIndex(), "into a cell, as the sender last read its ring");
        posted.await(CALL);
        assertArrayEquals(longest, got);

        int[] past = new int[longest.length + 1];
        java.util.Arrays.fill(past, 9);
        int[] claimedInto = new int[past.length];
        RecvRequest claimable = recv(0, claimedInto);
        before = ring.nextIndex();
        send(sender, past, TAG, SendMode.STANDARD);
        assertEquals(before, ring.nextIndex(), "no index taken");
        assertTrue(claimable.isComplete(), "the sender claimed the receive and filled it");
        assertArrayEquals(past, claimedInto);
    }

    /**
     * Three senders stream windows of the longest ring messages to one rank before it posts a
     * receive: two rings' overflows take the mailbox's whole budget
     * ({@link MessageRing#OVERFLOW_BUDGET_BYTES}) but for a cell's worth, so the third sender's
     * messages, past the first, find no room for an overflow and go through the inbox with their
     * indices. Every message arrives, whole, in each sender's order.
     */
    @Test
    void streamsPastTheOverflowBudgetGoThroughTheInbox() {
        Job four = Job.create(JobConfig.builder().ranks(4).matching(MatchingKind.LOCK_FREE).build());
        Rank to = four.rank(1);
        int[] senders = {0, 2, 3};
        int width = MessageRing.DATA_BYTES / Integer.BYTES;
        int window = 64;
        assertEquals(MessageRing.OVERFLOW_BUDGET_BYTES, 2 * window * MessageRing.DATA_BYTES,
            "two windows of the longest messages fill the budget");
        for (int from : senders) {
            for (int i = 0; i < window; i++) {
                int[] data = new int[width];
                java.util.Arrays.fill(data, from * 1000 + i);
                PointToPoint.isend(four.rank(from), to, CONTEXT, from, TAG, data, 0, width, BasicType.INT,
                    SendMode.STANDARD, CALL);
            }
        }
        MessageRing last = four.rank(3).endpoint().rings().to(to);
        assertNotNull(last, "the third stream opened a ring too");
        // The first stream's first message went through the inbox, before its ring opened; the
        // others found the inbox busy and opened theirs at once.
        long inCells = four.rank(0).endpoint().rings().to(to).nextIndex()
            + four.rank(2).endpoint().rings().to(to).nextIndex();
        assertEquals(2 * window - 1, inCells);
        long room = (MessageRing.OVERFLOW_BUDGET_BYTES - inCells * MessageRing.DATA_BYTES) / MessageRing.DATA_BYTES;
        int overflows = 0;
        for (long index = 0; index < last.nextIndex(); index++) {
            overflows += last.overflow(index) == null ? 0 : 1;
        }
        assertEquals(window, last.nextIndex(), "every message of the third stream took an index");
        assertEquals(room, overflows, "the third ring's overflows: what the first two left of the budget");
        for (int from : senders) {
            for (int i = 0; i < window; i++) {
                int[] got = new int[width];
                RecvRequest r = PointToPoint.irecv(to, CONTEXT, from, TAG, got, 0, width, BasicType.INT, CALL);
                r.await(CALL);
                assertEquals(width, r.statusCount());
                int expected = from * 1000 + i;
                for (int v : got) {
                    assertEquals(expected, v, "from rank " + from + ", message " + i);
                }
            }
            assertTrue(four.rank(from).endpoint().rings().to(to).isDrained());
        }
        assertTrue(to.endpoint().mailbox().unexpectedSnapshot().isEmpty());
    }

    /** Errors on the ring path are those of the inbox path: truncation keeps the part that fits. */
    @Test
    void truncationAndTypeMismatchAreReported() {
        MessageRing ring = openRing(sender);
        send(sender, new int[] {1, 2, 3}, TAG, SendMode.STANDARD);
        send(sender, new int[] {4}, TAG, SendMode.STANDARD);
        assertFalse(ring.isDrained(), "both in cells");
        int[] two = new int[2];
        RecvRequest truncated = recv(0, two);
        truncated.await(CALL);
        assertTrue(truncated.failed());
        assertEquals(ErrorClass.ERR_TRUNCATE, ((DeviceException) truncated.error()).errorClass());
        assertArrayEquals(new int[] {1, 2}, two);
        RecvRequest mismatched = PointToPoint.irecv(receiver, CONTEXT, 0, TAG, new double[1], 0, 1, BasicType.DOUBLE,
            CALL);
        mismatched.await(CALL);
        assertTrue(mismatched.failed());
        assertEquals(ErrorClass.ERR_TYPE, ((DeviceException) mismatched.error()).errorClass());
        assertTrue(mismatched.error().getMessage().contains(CALL), mismatched.error().getMessage());

        // The receive senders may claim takes another tag: the next message goes into a cell.
        RecvRequest claimable = recv(0, OPENING, new int[1]);
        int[] spilled = new int[MessageRing.DATA_BYTES / 4];
        for (int i = 0; i < spilled.length; i++) {
            spilled[i] = 100 + i;
        }
        int[] most = new int[spilled.length - 1];
        RecvRequest posted = recv(0, TAG, most);
        long before = ring.nextIndex();
        send(sender, spilled, TAG, SendMode.STANDARD); // one element too many
        assertEquals(before + 1, ring.nextIndex(), "into a cell and its spill");
        posted.await(CALL);
        assertTrue(posted.failed());
        assertEquals(ErrorClass.ERR_TRUNCATE, ((DeviceException) posted.error()).errorClass());
        assertArrayEquals(java.util.Arrays.copyOf(spilled, most.length), most);
        send(sender, new int[] {7}, OPENING, SendMode.STANDARD);
        claimable.await(CALL);
    }

    /**
     * NIO buffers of either byte order, sent and received through the ring, keep their values: in
     * the cell alone, with its spill, and with its overflow.
     */
    @Test
    void nioBuffersOfEitherByteOrder() {
        openRing(sender);
        for (java.nio.ByteOrder order : new java.nio.ByteOrder[] {java.nio.ByteOrder.BIG_ENDIAN,
            java.nio.ByteOrder.LITTLE_ENDIAN}) {
            for (int n : new int[] {12, 50, MessageRing.DATA_BYTES / 4}) {
                java.nio.ByteBuffer sent = java.nio.ByteBuffer.allocateDirect(4 * n).order(order);
                for (int i = 0; i < n; i++) {
                    sent.putInt(4 * i, 1000 + i);
                }
                PointToPoint.isend(sender, receiver, CONTEXT, 0, TAG, sent, 0, n, BasicType.INT, SendMode.STANDARD,
                    CALL);
                assertFalse(ringOf(sender).isDrained(), "in a cell");
                java.nio.ByteBuffer got = java.nio.ByteBuffer.allocate(4 * n).order(order);
                RecvRequest r = PointToPoint.irecv(receiver, CONTEXT, 0, TAG, got, 0, n, BasicType.INT, CALL);
                r.await(CALL);
                assertEquals(n, r.statusCount());
                for (int i = 0; i < n; i++) {
                    assertEquals(1000 + i, got.getInt(4 * i), order + ", " + n + " elements, element " + i);
                }
            }
        }
    }

    /**
     * Messages longer than a cell and its spill take the cell's overflow, an array of their element
     * type: messages of three types in turn, three times round the ring, so that every cell's
     * overflow changes type, each received posted after it came (straight from the cell) or as a
     * message the receiver makes of the cell (a receive whose tag it did not match at first).
     */
    @Test
    void overflowsChangeTypeFromMessageToMessage() {
        MessageRing ring = openRing(sender);
        RecvRequest claimable = recv(0, OPENING, new int[1]);
        BasicType[] types = {BasicType.BYTE, BasicType.DOUBLE, BasicType.CHAR};
        for (int k = 0; k < 3 * 64; k++) {
            BasicType type = types[k % types.length];
            int n = (MessageRing.DATA_BYTES - (k % 5) * 40) / type.size();
            Object data = ReceiveLinePathTest.values(type, n);
            long before = ring.nextIndex();
            PointToPoint.isend(sender, receiver, CONTEXT, 0, TAG, data, 0, n, type, SendMode.STANDARD, CALL);
            assertEquals(before + 1, ring.nextIndex(), "into a cell");
            if (k % 2 == 1) {
                // An unmatched probe of another tag drains the ring: the message becomes the receiver's own.
                assertNull(PointToPoint.iprobe(receiver, CONTEXT, 0, TAG + 1));
            }
            Object got = type.newArray(n);
            RecvRequest r = PointToPoint.irecv(receiver, CONTEXT, 0, TAG, got, 0, n, type, CALL);
            r.await(CALL);
            assertFalse(r.failed(), () -> r.error().getMessage());
            assertEquals(n, r.statusCount());
            assertEquals(type, r.statusType());
            for (int i = 0; i < n; i++) {
                assertEquals(java.lang.reflect.Array.get(data, i), java.lang.reflect.Array.get(got, i),
                    "message " + k + " of " + type + ", element " + i);
            }
        }
        send(sender, new int[] {7}, OPENING, SendMode.STANDARD);
        claimable.await(CALL);
    }

    /** A probe sees a ring's message with its envelope and size; a matched probe takes it. */
    @Test
    void probesSeeRingMessages() {
        MessageRing ring = openRing(sender);
        send(sender, new int[] {1, 2}, 9, SendMode.STANDARD);
        send(sender, new int[] {3}, 10, SendMode.STANDARD);
        assertFalse(ring.isDrained(), "both in cells");
        Message m = PointToPoint.iprobe(receiver, CONTEXT, Envelope.ANY_SOURCE, 10);
        assertNotNull(m);
        assertEquals(0, m.source());
        assertEquals(1, m.count());
        Message taken = PointToPoint.improbe(receiver, CONTEXT, 0, 9);
        assertNotNull(taken);
        int[] got = new int[2];
        RecvRequest r = PointToPoint.mrecv(receiver, taken, got, 0, 2, org.mpjlite.smpdev.data.TypeMap.of(BasicType.INT),
            CALL);
        assertArrayEquals(new int[] {1, 2}, got);
        assertEquals(2, r.statusCount());
        assertNull(PointToPoint.iprobe(receiver, CONTEXT, 0, 9));
    }

    /** Under --check messages carry their call site: they take the inbox, with no ring. */
    @Test
    void checkedJobsOpenNoRings() {
        Job checked = Job.create(JobConfig.builder().ranks(2).matching(MatchingKind.LOCK_FREE).check(true).build());
        for (int i = 0; i < 2 * Tunables.RING_AFTER_UNCLAIMED; i++) {
            PointToPoint.isend(checked.rank(0), checked.rank(1), CONTEXT, 0, TAG, new int[] {1}, 0, 1, BasicType.INT,
                SendMode.STANDARD, CALL);
        }
        assertNull(checked.rank(0).endpoint().rings().to(checked.rank(1)));
    }

    /** The locked mailbox opens no rings: senders match posted receives under its lock. */
    @Test
    void lockedMailboxesOpenNoRings() {
        Job locked = Job.create(JobConfig.builder().ranks(2).matching(MatchingKind.LOCKED).build());
        for (int i = 0; i < 2 * Tunables.RING_AFTER_UNCLAIMED; i++) {
            PointToPoint.isend(locked.rank(0), locked.rank(1), CONTEXT, 0, TAG, new int[] {1}, 0, 1, BasicType.INT,
                SendMode.STANDARD, CALL);
        }
        assertNull(locked.rank(0).endpoint().rings().to(locked.rank(1)));
    }

    /**
     * Two senders stream to one receiver that receives from any source while they send: each
     * sender's messages arrive in its order, none lost or twice, some through cells, some through
     * the inbox when a ring is full.
     */
    @ParameterizedTest(name = "{0} messages per sender")
    @ValueSource(ints = {1_000, 50_000})
    void twoSendersStreamToAWildcardReceiver(int perSender) throws Exception {
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int s : new int[] {0, 2}) {
            Rank from = job.rank(s);
            Thread t = new Thread(() -> {
                try {
                    for (int i = 0; i < perSender; i++) {
                        send(from, new int[] {i, s}, TAG + i % 3, SendMode.STANDARD);
                    }
                } catch (Throwable e) {
                    failed.set(e);
                }
            });
            threads.add(t);
            t.start();
        }
        int[] next = new int[3];
        int[] got = new int[2];
        for (int i = 0; i < 2 * perSender; i++) {
            RecvRequest r = recv(Envelope.ANY_SOURCE, got);
            r.await(CALL);
            int from = r.statusSource();
            assertEquals(from, got[1]);
            assertEquals(next[from], got[0], "rank " + from + "'s messages in order");
            assertEquals(TAG + next[from] % 3, r.statusTag());
            next[from]++;
            r.recycle();
        }
        for (Thread t : threads) {
            t.join(10_000);
        }
        assertNull(failed.get());
        assertEquals(perSender, next[0]);
        assertEquals(perSender, next[2]);
        PointToPoint.progress(receiver);
        assertTrue(receiver.endpoint().mailbox().unexpectedSnapshot().isEmpty());
    }
}
