package org.mpjlite.matching;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The published receive of a {@link LockFreeMailbox} as two adjacent cache lines in native memory:
 * its claim word and pattern, which senders read, and the status and data of a small message a
 * sender leaves there, which the owner reads. A small message to a waiting rank therefore moves the
 * one line the sender claims, writes and the receiver polls (two when its data passes the first
 * line's last 8 bytes), instead of the receive's fields, its buffer and its completion.
 *
 * <p>Layout (128 bytes on a 128-byte boundary, where the adjacent-line prefetcher fetches pairs;
 * native memory because a Java object's alignment is not known): the claim word, the inbox index
 * it was published at, context, source, tag, the receive's data kind and capacity (device-defined:
 * kind 0 takes no data in the line), then a sender's status (source, tag, count), the filled word,
 * and {@link #DATA_BYTES} bytes of data from byte 56.
 *
 * <p>The claim word only grows. Odd: a receive is published ({@link LockFreeMailbox} says who may
 * claim it); a compare-and-set from that odd value decides who took it: {@code +1} the owner or a
 * sender that fills the receive itself, {@code +3} ({@link #LINE_CLAIM}) a sender that leaves its
 * message here. Such a sender writes the status and the data, then the filled word with the claim
 * value it won (a volatile write: the sender's half of the doorbell's handshake); the owner reads
 * them once it sees that value and completes the receive; its next publish makes the claim word odd
 * again ({@code +4}). Consuming the message writes nothing here: the line stays in the cache of
 * the sender that wrote it until the owner publishes again.
 *
 * <p>Thread safety: the pattern is written by the owner only while nothing is published; the status
 * and data only by the one sender that won a line claim, until the owner consumes them. Memory
 * ordering: the claim word's release (publish) and acquire (senders) publish the pattern; the filled
 * word's volatile write and acquire read publish the status and data.
 */
public final class ReceiveLine {
    /** The most bytes of data a sender may leave in the line. */
    public static final int DATA_BYTES = 72;
    /** What a sender that leaves its message in the line adds to the odd claim word it takes. */
    static final long LINE_CLAIM = 3;

    private static final int SIZE = 128;
    private static final int CLAIM = 0;
    private static final int CLAIM_INDEX = 8;
    private static final int CONTEXT = 16;
    private static final int SOURCE = 20;
    private static final int TAG = 24;
    private static final int KIND = 28;
    private static final int CAPACITY = 32;
    private static final int STATUS_SOURCE = 36;
    private static final int STATUS_TAG = 40;
    private static final int COUNT = 44;
    private static final int FILLED = 48;
    private static final int DATA = 56;
    /** Lines carved from one block of native memory: one allocation per 512 mailboxes, not per rank. */
    private static final int LINES_PER_BLOCK = 512;
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private static ByteBuffer block;
    private static int nextInBlock = LINES_PER_BLOCK;

    private final ByteBuffer line;
    private final ByteBuffer data;

    private ReceiveLine(ByteBuffer line) {
        this.line = line;
        this.data = line.slice(DATA, DATA_BYTES).order(ByteOrder.nativeOrder());
        LONGS.setRelease(line, FILLED, -1L); // no claim value: nothing is waiting to be consumed
    }

    /** A new line, nothing published. Thread-safe. */
    static synchronized ReceiveLine allocate() {
        if (nextInBlock == LINES_PER_BLOCK) {
            block = ByteBuffer.allocateDirect(LINES_PER_BLOCK * SIZE + SIZE).alignedSlice(SIZE)
                .order(ByteOrder.nativeOrder());
            nextInBlock = 0;
        }
        ByteBuffer line = block.slice(nextInBlock++ * SIZE, SIZE).order(ByteOrder.nativeOrder());
        return new ReceiveLine(line);
    }

    // ---- the claim word ---------------------------------------------------------------------

    long claim() {
        return (long) LONGS.getAcquire(line, CLAIM);
    }

    long claimOpaque() {
        return (long) LONGS.getOpaque(line, CLAIM);
    }

    boolean tryClaim(long expected, long claimed) {
        return LONGS.compareAndSet(line, CLAIM, expected, claimed);
    }

    /** Compare-and-set returning the value found (the expected one if this call won). */
    long claimFrom(long expected, long claimed) {
        return (long) LONGS.compareAndExchange(line, CLAIM, expected, claimed);
    }

    /** Owner, nothing published: publishes {@code r} with the odd claim word {@code claim}. */
    void publish(Envelope r, long claim, long claimIndex) {
        LONGS.set(line, CLAIM_INDEX, claimIndex);
        line.putInt(CONTEXT, r.context);
        line.putInt(SOURCE, r.source);
        line.putInt(TAG, r.tag);
        line.putInt(KIND, r.lineKind);
        line.putInt(CAPACITY, Math.min(r.lineCapacity, DATA_BYTES));
        LONGS.setRelease(line, CLAIM, claim);
    }

    /** Sender, after an acquiring read of an odd claim word: the inbox index it was published at. */
    long claimIndex() {
        return (long) LONGS.get(line, CLAIM_INDEX);
    }

    /** Sender, after an acquiring read of an odd claim word: whether the receive accepts the key. */
    boolean accepts(int context, int source, int tag) {
        int s = line.getInt(SOURCE);
        int t = line.getInt(TAG);
        return line.getInt(CONTEXT) == context && (s == Envelope.ANY_SOURCE || s == source)
            && (t == Envelope.ANY_TAG || t == tag);
    }

    /** Sender, as {@link #accepts}: whether the receive takes {@code bytes} bytes of data of {@code kind} in the line. */
    boolean takes(int kind, int bytes) {
        return kind != 0 && line.getInt(KIND) == kind && bytes <= line.getInt(CAPACITY);
    }

    // ---- a message left in the line ---------------------------------------------------------

    /**
     * Where a sender that won a line claim writes its data (absolute puts, from byte 0), and where
     * the owner reads it; native byte order. The buffer object is shared: absolute access only.
     */
    public ByteBuffer data() {
        return data;
    }

    /**
     * Sender that won the line claim {@code claimed} and wrote the data: completes the message with
     * its status, then publishes it to the owner (a volatile write, which must come before the
     * sender reads whether the owner is parked).
     */
    public void fill(long claimed, int source, int tag, int count) {
        line.putInt(STATUS_SOURCE, source);
        line.putInt(STATUS_TAG, tag);
        line.putInt(COUNT, count);
        LONGS.setVolatile(line, FILLED, claimed);
    }

    /** The line claim value whose message has been left in the line (acquire); -1 before any. */
    long filled() {
        return (long) LONGS.getAcquire(line, FILLED);
    }

    /** Owner, once {@link #filled} shows the claim: the message's source in its communicator. */
    public int source() {
        return line.getInt(STATUS_SOURCE);
    }

    /** Owner, as {@link #source}: the message's tag. */
    public int tag() {
        return line.getInt(STATUS_TAG);
    }

    /** Owner, as {@link #source}: the message's element count. */
    public int count() {
        return line.getInt(COUNT);
    }
}
