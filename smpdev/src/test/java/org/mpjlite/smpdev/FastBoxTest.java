package org.mpjlite.smpdev;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The fast box's slots: what fits, every element type through them, wrap-around, and the sender's rules. */
class FastBoxTest {
    private static final int CONTEXT = 0;

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = BasicType.class, names = {"OBJECT", "PACKED"}, mode = EnumSource.Mode.EXCLUDE)
    @DisplayName("every count that fits, from an array, arrives bit for bit (NaN payloads and -0.0 included)")
    void arraysRoundTrip(BasicType type) {
        FastBox box = new FastBox(3);
        long n = 0;
        for (int count = 0; count * type.size() <= FastBox.PAYLOAD_BYTES; count++) {
            Object sent = values(type, count, 1 + count);
            assertTrue(FastBox.fits(sent, count, type));
            box.write(n, CONTEXT, 5, 77, sent, 0, count, type, "Send");
            assertTrue(box.holds(n));
            Message m = box.read(n);
            assertEquals(5, m.source());
            assertEquals(77, m.tag());
            assertEquals(count, m.count());
            assertSame(type, m.type());
            assertEquals(3, m.origin);
            assertEquals("Send", m.call);
            assertArrayEquals(bitsOf(sent), bitsOf(m.data), type + " x " + count);
            n++;
        }
        assertFalse(FastBox.fits(values(type, FastBox.PAYLOAD_BYTES / type.size() + 1, 0),
            FastBox.PAYLOAD_BYTES / type.size() + 1, type), "one element too many");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = BasicType.class, names = {"BYTE", "CHAR", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE"})
    @DisplayName("from a ByteBuffer of either byte order, at an element offset, values arrive as Copier would copy them")
    void byteBuffersRoundTrip(BasicType type) {
        for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            for (boolean direct : new boolean[] {false, true}) {
                int count = FastBox.PAYLOAD_BYTES / type.size();
                Object expected = values(type, count, 9);
                ByteBuffer b = (direct ? ByteBuffer.allocateDirect(64 + 2 * FastBox.PAYLOAD_BYTES)
                    : ByteBuffer.allocate(64 + 2 * FastBox.PAYLOAD_BYTES)).order(order);
                Copier.copy(expected, 0, b, 3, count, type);
                b.position(7).limit(9); // position and limit are not the message's business
                assertTrue(FastBox.fits(b, count, type));
                FastBox box = new FastBox(0);
                box.write(0, CONTEXT, 1, 2, b, 3, count, type, "send");
                Message m = box.read(0);
                assertArrayEquals(bitsOf(expected), bitsOf(m.data), type + ", " + order + (direct ? ", direct" : ""));
                assertEquals(7, b.position());
                assertEquals(9, b.limit());
            }
        }
    }

    @Test
    @DisplayName("typed NIO buffers, booleans in ByteBuffers, objects and packed data do not fit: they take the mailbox")
    void whatDoesNotFit() {
        assertFalse(FastBox.fits(IntBuffer.allocate(4), 4, BasicType.INT));
        assertFalse(FastBox.fits(ByteBuffer.allocate(4), 4, BasicType.BOOLEAN));
        assertFalse(FastBox.fits(new Object[1], 1, BasicType.OBJECT));
        assertFalse(FastBox.fits(new byte[4], 4, BasicType.PACKED));
        assertFalse(FastBox.fits(new int[9], 9, BasicType.INT));
    }

    @Test
    @DisplayName("slots are reused round after round; a slot's old message is never taken for the next")
    void wrapsAround() {
        FastBox box = new FastBox(1);
        for (long n = 0; n < 5L * FastBox.SLOTS; n++) {
            assertFalse(box.holds(n), "message " + n + " before it is written");
            box.write(n, CONTEXT, 0, (int) n, new int[] {(int) n}, 0, 1, BasicType.INT, "Send");
            assertTrue(box.holds(n));
            assertFalse(box.holds(n + 1));
            assertEquals((int) n, box.read(n).tag());
            assertEquals((int) n, ((int[]) box.read(n).data)[0]);
        }
    }

    @Test
    @DisplayName("the writer opens a box after the threshold, stops when the receiver is SLOTS behind, "
        + "and waits for the inbox to drain before using the box again")
    void writerRules() {
        Job job = Job.create(JobConfig.builder().ranks(2).fastBoxAfter(2).build());
        Rank sender = job.rank(0);
        Rank receiver = job.rank(1);
        FastBoxWriter writer = sender.fastBoxWriter();
        int[] one = {42};
        assertFalse(send(writer, receiver, one), "first message: no box yet");
        writer.queued(receiver);
        assertFalse(send(writer, receiver, one), "second message: no box yet");
        writer.queued(receiver);
        assertFalse(send(writer, receiver, one), "box open, but two messages wait in the inbox");
        assertEquals(0, receiver.mailbox().unexpectedSnapshot().size(), "nothing was delivered to the inbox here");
        // Deliver the two counted inbox messages, and let the receiver drain them.
        for (int i = 0; i < 2; i++) {
            Message m = new Message(CONTEXT, 0, 1, TypeMap.of(BasicType.INT), 1);
            m.origin = 0;
            m.data = new int[] {i};
            receiver.mailbox().deliver(m);
        }
        assertEquals(2, receiver.mailbox().unexpectedSnapshot().size());
        for (int i = 0; i < FastBox.SLOTS; i++) {
            assertTrue(send(writer, receiver, new int[] {100 + i}), "box message " + i);
        }
        assertFalse(send(writer, receiver, one), "the box is full");
        List<Message> unexpected = receiver.mailbox().unexpectedSnapshot();
        assertEquals(2 + FastBox.SLOTS, unexpected.size());
        List<Integer> order = new ArrayList<>();
        for (Message m : unexpected) {
            order.add(((int[]) m.data)[0]);
        }
        assertEquals(0, order.get(0));
        assertEquals(1, order.get(1));
        for (int i = 0; i < FastBox.SLOTS; i++) {
            assertEquals(100 + i, order.get(2 + i), "box messages after the inbox ones, in order");
        }
        assertTrue(send(writer, receiver, one), "the receiver read the box: room again");
    }

    @Test
    @DisplayName("a receiver polls at most MAX_BOXES boxes; later senders keep the mailbox")
    void boxesPerReceiverAreBounded() {
        int ranks = FastBoxReader.MAX_BOXES + 3;
        Job job = Job.create(JobConfig.builder().ranks(ranks).fastBoxAfter(0).build());
        Rank receiver = job.rank(0);
        int boxed = 0;
        for (int s = 1; s < ranks; s++) {
            boxed += send(job.rank(s).fastBoxWriter(), receiver, new int[] {s}) ? 1 : 0;
        }
        assertEquals(FastBoxReader.MAX_BOXES, boxed);
        assertEquals(FastBoxReader.MAX_BOXES, receiver.mailbox().unexpectedSnapshot().size());
    }

    @Test
    @DisplayName("no fast boxes with locked matching or when switched off")
    void switchedOff() {
        assertNull(Job.create(JobConfig.builder().ranks(2).matching(MatchingKind.LOCKED).build()).rank(0)
            .fastBoxWriter());
        assertNull(Job.create(JobConfig.builder().ranks(2).fastBoxes(false).build()).rank(0).fastBoxWriter());
    }

    private static boolean send(FastBoxWriter writer, Rank dest, int[] data) {
        return writer.trySend(dest, CONTEXT, 0, 1, data, 0, data.length, BasicType.INT, "Send");
    }

    /** {@code count} values of the type that differ with {@code seed}, including awkward ones. */
    private static Object values(BasicType type, int count, int seed) {
        Object a = FastBoxTest.newArray(type, count);
        for (int i = 0; i < count; i++) {
            long v = (seed * 0x9E3779B97F4A7C15L) ^ (i * 0xBF58476D1CE4E5B9L);
            switch (type) {
                case BYTE: ((byte[]) a)[i] = (byte) v; break;
                case CHAR: ((char[]) a)[i] = (char) v; break;
                case SHORT: ((short[]) a)[i] = (short) -v; break;
                case BOOLEAN: ((boolean[]) a)[i] = (v & 1) != 0; break;
                case INT: ((int[]) a)[i] = (int) -v; break;
                case LONG: ((long[]) a)[i] = v; break;
                case FLOAT: ((float[]) a)[i] = i == 1 ? Float.intBitsToFloat(0x7fc01234) : i == 2 ? -0.0f : (float) v; break;
                case DOUBLE: ((double[]) a)[i] = i == 1 ? Double.longBitsToDouble(0x7ff8000000001234L) : i == 2 ? -0.0 : v; break;
                default: throw new IllegalArgumentException();
            }
        }
        return a;
    }

    private static Object newArray(BasicType type, int n) {
        return Array.newInstance(type.arrayClass().getComponentType(), n);
    }

    /** The raw bits of every element, to compare NaN payloads and signed zeros exactly. */
    private static long[] bitsOf(Object array) {
        long[] bits = new long[Array.getLength(array)];
        for (int i = 0; i < bits.length; i++) {
            Object v = Array.get(array, i);
            bits[i] = v instanceof Float ? Float.floatToRawIntBits((Float) v)
                : v instanceof Double ? Double.doubleToRawLongBits((Double) v)
                : v instanceof Boolean ? ((Boolean) v ? 1 : 0)
                : v instanceof Character ? (Character) v
                : ((Number) v).longValue();
        }
        return bits;
    }
}
