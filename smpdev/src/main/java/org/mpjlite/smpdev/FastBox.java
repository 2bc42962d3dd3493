package org.mpjlite.smpdev;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The fast box of one ordered pair of ranks: a ring of {@link #SLOTS} slots where the sender writes
 * small messages whole, envelope and data inline, and the receiver reads them (Open MPI vader's fast
 * boxes). A message in a slot crosses cores as the slot's one or two cache lines, where a message
 * through the mailbox is a chain of four or more (inbox index, inbox slot, {@link Message}, data).
 *
 * <p>Slot layout, {@link #SLOT_WORDS} longs: word 0 the message's number in the pair's stream plus
 * one (0: never written), written last with release semantics; word 1 context and source; word 2 tag
 * and element count; word 3 the element type; words 4-7 the data, {@link #PAYLOAD_BYTES} bytes at
 * most, element {@code i} at byte {@code i * size} (little-endian within each word).
 *
 * <p>Thread safety: single producer, single consumer. The producer is the sending rank at a thread
 * level below {@code THREAD_MULTIPLE} (its MPI calls are ordered), and writes slot {@code n} only once
 * the consumer has published that message {@code n - SLOTS} was read ({@link FastBoxWriter}). The
 * consumer is whichever thread of the receiving rank holds its mailbox's owner lock
 * ({@link FastBoxReader}). The release store of word 0 publishes the slot's other words and the call
 * name; the consumer's acquire load of it sees them. The box itself is immutable once built and
 * published with the reader's registry.
 */
final class FastBox {
    /** Slots per pair: a sender may be this many messages ahead of its receiver. Power of two. */
    static final int SLOTS = 16;
    static final int SLOT_WORDS = 8;
    /** Largest message (bytes) a slot carries. */
    static final int PAYLOAD_BYTES = 32;
    private static final int HEADER_WORDS = 4;
    private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);
    /** Eight bytes of a byte[] as the little-endian long the payload words hold. */
    private static final VarHandle BYTES_AS_LONG = MethodHandles.byteArrayViewVarHandle(long[].class,
        ByteOrder.LITTLE_ENDIAN);
    private static final BasicType[] TYPES = BasicType.values();

    /** The sender's world rank. */
    final int sender;
    private final long[] ring = new long[SLOTS * SLOT_WORDS];
    /** The send call of each slot's message, for reports; written only when it changes. */
    private final String[] calls = new String[SLOTS];

    FastBox(int sender) {
        this.sender = sender;
    }

    /**
     * True when {@code n} elements of {@code type} in {@code buffer} can travel in a slot: at most
     * {@link #PAYLOAD_BYTES}, primitive, in an array of the type or (bytes, numbers) a ByteBuffer.
     */
    static boolean fits(Object buffer, int n, BasicType type) {
        if (n * type.size() > PAYLOAD_BYTES || type == BasicType.OBJECT || type == BasicType.PACKED) {
            return false;
        }
        return buffer.getClass() == type.arrayClass() || (buffer instanceof ByteBuffer && type != BasicType.BOOLEAN);
    }

    /**
     * Producer: writes message number {@code n} (0-based) into its slot and publishes it. The slot
     * must be free: the consumer has read message {@code n - SLOTS}.
     */
    void write(long n, int context, int source, int tag, Object buffer, int index, int count, BasicType type,
               String call) {
        int slot = (int) n & (SLOTS - 1);
        int at = slot * SLOT_WORDS;
        long[] r = ring;
        r[at + 1] = (long) context << 32 | (source & 0xFFFF_FFFFL);
        r[at + 2] = (long) tag << 32 | (count & 0xFFFF_FFFFL);
        r[at + 3] = type.ordinal();
        encode(buffer, index, count, type, r, at + HEADER_WORDS);
        if (calls[slot] != call) { // usually the same call: leave the line alone
            calls[slot] = call;
        }
        WORD.setRelease(r, at, n + 1);
    }

    /** True when message number {@code n} has been written (any thread). */
    boolean holds(long n) {
        return (long) WORD.getAcquire(ring, ((int) n & (SLOTS - 1)) * SLOT_WORDS) == n + 1;
    }

    /**
     * Consumer: message number {@code n}, which {@link #holds} says is written, as a {@link Message}
     * with its own copy of the data; the slot may be reused once this returns.
     */
    Message read(long n) {
        int slot = (int) n & (SLOTS - 1);
        int at = slot * SLOT_WORDS;
        long[] r = ring;
        long where = r[at + 1];
        long what = r[at + 2];
        BasicType type = TYPES[(int) r[at + 3]];
        int count = (int) what;
        Message m = new Message((int) (where >>> 32), (int) where, (int) (what >>> 32), TypeMap.of(type), count);
        m.data = decode(r, at + HEADER_WORDS, count, type);
        m.call = calls[slot];
        m.origin = sender;
        return m;
    }

    // ---- data: elements as bits in the payload words ---------------------------------------------

    private static void encode(Object buffer, int index, int count, BasicType type, long[] r, int first) {
        int size = type.size();
        if (buffer instanceof ByteBuffer && ((ByteBuffer) buffer).limit() < (index + count) * size) {
            // Absolute gets stop at the limit; messages address the whole capacity (as Copier does).
            ByteBuffer b = (ByteBuffer) buffer;
            buffer = b.duplicate().order(b.order()).clear();
        }
        if (type == BasicType.BYTE) {
            encodeBytes(buffer, index, count, r, first);
            return;
        }
        long w0 = 0;
        long w1 = 0;
        long w2 = 0;
        long w3 = 0;
        long mask = mask(size);
        for (int i = 0; i < count; i++) {
            int byteAt = i * size;
            long bits = (bitsOf(buffer, index + i, type) & mask) << ((byteAt & 7) << 3);
            switch (byteAt >>> 3) {
                case 0: w0 |= bits; break;
                case 1: w1 |= bits; break;
                case 2: w2 |= bits; break;
                default: w3 |= bits; break;
            }
        }
        r[first] = w0;
        r[first + 1] = w1;
        r[first + 2] = w2;
        r[first + 3] = w3;
    }

    /** Bytes, eight at a time: the common case of the benchmarks and of byte-oriented programs. */
    private static void encodeBytes(Object buffer, int index, int count, long[] r, int first) {
        for (int w = 0; w < PAYLOAD_BYTES / 8; w++) {
            int from = w * 8;
            long word = 0;
            if (count - from >= 8) {
                if (buffer instanceof byte[]) {
                    word = (long) BYTES_AS_LONG.get((byte[]) buffer, index + from);
                } else {
                    ByteBuffer b = (ByteBuffer) buffer;
                    word = b.getLong(index + from);
                    if (b.order() == ByteOrder.BIG_ENDIAN) {
                        word = Long.reverseBytes(word);
                    }
                }
            } else {
                for (int k = Math.max(0, count - from) - 1; k >= 0; k--) {
                    word = word << 8 | (bitsOf(buffer, index + from + k, BasicType.BYTE) & 0xFF);
                }
            }
            r[first + w] = word;
        }
    }

    private static Object decode(long[] r, int first, int count, BasicType type) {
        if (type == BasicType.BYTE) {
            byte[] data = new byte[count];
            int whole = count & ~7;
            for (int at = 0; at < whole; at += 8) {
                BYTES_AS_LONG.set(data, at, r[first + (at >>> 3)]);
            }
            for (int at = whole; at < count; at++) {
                data[at] = (byte) (r[first + (at >>> 3)] >>> ((at & 7) << 3));
            }
            return data;
        }
        int size = type.size();
        long mask = mask(size);
        Object data = newArray(type, count);
        for (int i = 0; i < count; i++) {
            int byteAt = i * size;
            setBits(data, i, type, (r[first + (byteAt >>> 3)] >>> ((byteAt & 7) << 3)) & mask);
        }
        return data;
    }

    private static long mask(int size) {
        return size == 8 ? -1L : (1L << (size << 3)) - 1;
    }

    private static Object newArray(BasicType type, int n) {
        switch (type) {
            case BYTE: return new byte[n];
            case CHAR: return new char[n];
            case SHORT: return new short[n];
            case BOOLEAN: return new boolean[n];
            case INT: return new int[n];
            case LONG: return new long[n];
            case FLOAT: return new float[n];
            case DOUBLE: return new double[n];
            default: throw new IllegalArgumentException(type.toString());
        }
    }

    /** Element {@code i} of an array of the type, or of a ByteBuffer (absolute, its byte order). */
    private static long bitsOf(Object buffer, int i, BasicType type) {
        if (buffer instanceof ByteBuffer) {
            ByteBuffer b = (ByteBuffer) buffer;
            int at = i * type.size();
            switch (type) {
                case BYTE: return b.get(at);
                case CHAR: return b.getChar(at);
                case SHORT: return b.getShort(at);
                case INT: return b.getInt(at);
                case LONG: return b.getLong(at);
                case FLOAT: return b.getInt(at); // the float's bits, as getFloat would read them
                case DOUBLE: return b.getLong(at);
                default: throw new IllegalArgumentException(type.toString());
            }
        }
        switch (type) {
            case BYTE: return ((byte[]) buffer)[i];
            case CHAR: return ((char[]) buffer)[i];
            case SHORT: return ((short[]) buffer)[i];
            case BOOLEAN: return ((boolean[]) buffer)[i] ? 1 : 0;
            case INT: return ((int[]) buffer)[i];
            case LONG: return ((long[]) buffer)[i];
            case FLOAT: return Float.floatToRawIntBits(((float[]) buffer)[i]);
            case DOUBLE: return Double.doubleToRawLongBits(((double[]) buffer)[i]);
            default: throw new IllegalArgumentException(type.toString());
        }
    }

    private static void setBits(Object data, int i, BasicType type, long bits) {
        switch (type) {
            case BYTE: ((byte[]) data)[i] = (byte) bits; break;
            case CHAR: ((char[]) data)[i] = (char) bits; break;
            case SHORT: ((short[]) data)[i] = (short) bits; break;
            case BOOLEAN: ((boolean[]) data)[i] = bits != 0; break;
            case INT: ((int[]) data)[i] = (int) bits; break;
            case LONG: ((long[]) data)[i] = bits; break;
            case FLOAT: ((float[]) data)[i] = Float.intBitsToFloat((int) bits); break;
            case DOUBLE: ((double[]) data)[i] = Double.longBitsToDouble(bits); break;
            default: throw new IllegalArgumentException(type.toString());
        }
    }
}
