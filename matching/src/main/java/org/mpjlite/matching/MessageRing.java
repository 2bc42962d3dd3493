package org.mpjlite.matching;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The small messages of one sending rank to one {@link LockFreeMailbox}, in order: a bounded ring
 * of 128-byte cells in native memory, each an envelope and up to {@link #CELL_BYTES} bytes of data
 * (up to {@link #CELL_BYTES} + {@link #SPILL_BYTES} with the cell's spill, 128 bytes apart from the
 * cells; up to {@link #DATA_BYTES} with the cell's overflow, an array of the sender's choosing),
 * which the sender writes and the owner reads when it matches. A stream of small messages thus
 * moves one line per message (up to 32 bytes), where the inbox moves a message object, its copy
 * array and the queue's slot, and makes the sender allocate. A receive that takes the message gets
 * it straight from the cell; otherwise the owner makes its own message of the cell, on its own
 * core, from its own recycled ones.
 *
 * <p><b>Order.</b> Once a sender has a ring to a mailbox, every message it sends there keeps the
 * ring's order. A message of at most {@link #DATA_BYTES} bytes takes the ring's next index
 * ({@link #claim}, one atomic add) and goes into that index's cell, or, if the ring is full, through
 * the inbox carrying the index ({@link SentEnvelope#takesIndex}). Any other message (larger,
 * rendezvous, derived types) takes no index and goes through the inbox carrying the ring's next
 * index as it was when sent ({@link SentEnvelope#followsIndicesOf}). The owner matches the indices
 * in order, holds an inbox message back until the indices before its place are matched, and
 * matches a cell only once the inbox messages offered before the cell was published are matched.
 * So a sender's messages are matched in the order it sent them, whichever way each came. A claim (a
 * sender filling or claiming a posted receive itself) is allowed only while the sender's ring is
 * drained ({@link #isDrained}), so that it overtakes no message in a cell; a small message asks only
 * the senders' last reading of the consumer index ({@link #seemsDrained}), so that a stream reads
 * nothing the owner writes. A message sent before the ring existed went through the inbox, and is
 * matched before any cell published after it.
 *
 * <p>Cell layout: the cell's sequence word (index + 1 once published), context, source, tag, the
 * device's kind of data, the element count, the size in bytes, then the data from byte 32.
 * Alongside each cell a reference the device chooses ({@link #note}: the send call's name), stored
 * only when it changes.
 *
 * <p>Thread safety: any number of threads of the sending rank may send ({@link #claim} is an atomic
 * add; a claimed cell belongs to its claimer until it publishes it); the owner's side
 * ({@link LockFreeMailbox}) reads cells under the mailbox's owner lock. Memory ordering: a cell's
 * fields are published by the release store of its sequence word and read after an acquiring read
 * of it; the consumer index, stored with release at the end of a drain that matched cells
 * ({@link #publishMatched}), hands them back and tells the senders how far they are matched.
 * The atomic add of the producer index is the sender's half of the doorbell handshake (as the
 * inbox's is): a waiter that sees it moved does not park, and waits the few instructions to the
 * publish.
 */
public final class MessageRing extends MessageRingOwnerPadding {
    /**
     * The most bytes of data a message in a ring carries: {@link #CELL_BYTES} in its cell, the rest
     * in its spill or its overflow. Up to 4 KB (Open MPI's eager limit in shared memory) a stream's
     * two copies through the ring cost less than the inbox's message object, queue slot and pooled
     * buffer: a device stream of 2 and 4 KB messages took 0.35-0.41x the time, and one of 8 KB
     * 0.70x, where an overflow per cell would cost half a megabyte per ring.
     */
    public static final int DATA_BYTES = 4096;
    /**
     * The bytes of data in the cell itself, with the envelope: a message of up to 32 bytes is one
     * line, up to 96 two. Longer ones continue in the cell's spill ({@link #spill}), apart, so that
     * the cells of a stream of short messages stay close together.
     */
    public static final int CELL_BYTES = 96;
    /**
     * The bytes of data in a cell's spill: a message of up to {@code CELL_BYTES + SPILL_BYTES}
     * continues there, in native memory as dense as the cells (a stream of such messages touches
     * one more line per message, next to the last one's); a longer one continues in the cell's
     * overflow instead ({@link #overflow}).
     */
    public static final int SPILL_BYTES = 128;
    /**
     * The most bytes of overflow arrays the rings of one mailbox hold together
     * ({@link #overflow(long, Object, int)}): what eight rings of 1 KB messages, or two of 4 KB
     * ones, need. A cell's overflow stays once made, so without a bound a mailbox whose eight
     * senders each once sent a few 4 KB messages in a row would keep 2 MB.
     */
    public static final int OVERFLOW_BUDGET_BYTES = 512 * 1024;
    /**
     * The kind of a cell that carries no message: its sender failed after claiming the index (the
     * owner waits for every index, so the sender publishes the cell anyway).
     */
    public static final int NO_MESSAGE = 0;
    /**
     * How often {@link #seemsDrained}, while the last reading is behind, reads the consumer index
     * again: a stream pays for one line from the owner's core per so many messages, and a
     * ping-pong that took the ring once goes back to claiming its posted receives within as many.
     */
    static final int LOOK_EVERY = 8;
    /** Cells in a ring: a power of two. */
    static final int CELLS = 64;

    private static final int CELL = 128;
    private static final int SEQ = 0;
    private static final int CONTEXT = 8;
    private static final int SOURCE = 12;
    private static final int TAG = 16;
    private static final int KIND = 20;
    private static final int COUNT = 24;
    private static final int BYTES = 28;
    private static final int DATA = 32;
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle PRODUCER;
    private static final VarHandle CONSUMER;
    private static final VarHandle SEEN;
    private static final VarHandle SPILLS;

    static {
        try {
            PRODUCER = MethodHandles.lookup().findVarHandle(MessageRingSenderFields.class, "producerIndex", long.class);
            CONSUMER = MethodHandles.lookup().findVarHandle(MessageRingOwnerFields.class, "consumerIndex", long.class);
            SEEN = MethodHandles.lookup().findVarHandle(MessageRingSenderFields.class, "seenConsumer", long.class);
            SPILLS = MethodHandles.lookup().findVarHandle(MessageRing.class, "spills", ByteBuffer[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The ring's number in its mailbox, from 1 (what a message that keeps its order carries). */
    final int id;
    private final ByteBuffer cells;
    private final ByteBuffer[] data = new ByteBuffer[CELLS];
    private final Object[] notes = new Object[CELLS];
    /**
     * The cells' spills, made by the first sender whose message needs one (a ring that carries only
     * short messages costs its cells alone); published by a compare-and-set before that sender
     * publishes its cell, so the owner, reading a spilled cell, sees them.
     */
    private volatile ByteBuffer[] spills;
    /**
     * Each cell's overflow: an array of the element type of the last message longer than a spill
     * holds, made by its claimer. Written by the cell's claimer before it publishes the cell, so the
     * owner, reading the cell, sees the array its message went into; the next claimer of the cell
     * sees it after the owner has handed the cell back (the consumer index's release and acquire).
     */
    private final Object[] overflows = new Object[CELLS];
    /** The bytes of each cell's overflow, as its claimer declared them; written with {@link #overflows}. */
    private final int[] overflowBytes = new int[CELLS];
    /** The bytes of overflow arrays of all the rings of this ring's mailbox. */
    private final AtomicLong mailboxOverflowBytes;

    /**
     * Ring {@code id} of a mailbox whose rings' overflows {@code mailboxOverflowBytes} counts
     * (shared by them; at most {@link #OVERFLOW_BUDGET_BYTES}).
     */
    MessageRing(int id, AtomicLong mailboxOverflowBytes) {
        this.id = id;
        this.mailboxOverflowBytes = mailboxOverflowBytes;
        cells = ByteBuffer.allocateDirect(CELLS * CELL + CELL).alignedSlice(CELL).order(ByteOrder.nativeOrder());
        for (int i = 0; i < CELLS; i++) {
            data[i] = cells.slice(i * CELL + DATA, CELL_BYTES).order(ByteOrder.nativeOrder());
        }
    }

    // ---- senders ------------------------------------------------------------------------------

    /** Takes the next index for a message to this ring's mailbox (atomic add). Any sending thread. */
    public long claim() {
        return (long) PRODUCER.getAndAdd(this, 1L);
    }

    /** The index the next {@link #claim} will take, unless another thread claims first. */
    public long nextIndex() {
        return (long) PRODUCER.getVolatile(this);
    }

    /**
     * True when every message sent through this ring has been matched (or kept as unexpected): only
     * then may a sender claim a posted receive, which would otherwise overtake them. The senders'
     * last reading of the consumer index answers if it shows the ring drained (a reading is never
     * ahead, and the consumer index never passes the producer index); otherwise the index itself
     * is read, a line from the owner's core if the owner has matched since.
     */
    public boolean isDrained() {
        long produced = (long) PRODUCER.getVolatile(this);
        return (long) SEEN.getAcquire(this) == produced || lookAtConsumer() == produced;
    }

    /**
     * {@link #isDrained} as of the senders' last reading of the consumer index: true only if the
     * ring is drained, false while that reading is behind, except that every {@link #LOOK_EVERY}th
     * such answer reads the index again. So a stream reads what the owner writes once per so many
     * messages, not at every one.
     */
    public boolean seemsDrained() {
        long produced = (long) PRODUCER.getVolatile(this);
        if ((long) SEEN.getAcquire(this) == produced) {
            return true;
        }
        if (++staleAnswers < LOOK_EVERY) {
            return false;
        }
        staleAnswers = 0;
        return lookAtConsumer() == produced;
    }

    /**
     * Whether an index is claimed whose message the owner has not matched yet, as the owner last
     * told the senders (any thread; writes nothing). Reads the producer index, which a sender's
     * claim moves with an atomic add before it reads the doorbell: so a waiter registered on the
     * doorbell that then sees no claim pending missed no message whose sender saw no waiter.
     */
    boolean hasPending() {
        return (long) CONSUMER.getAcquire(this) != (long) PRODUCER.getVolatile(this);
    }

    /** Whether index {@code index}, just claimed, has a free cell; if not the message takes the inbox. */
    public boolean hasCell(long index) {
        return index - (long) SEEN.getAcquire(this) < CELLS || index - lookAtConsumer() < CELLS;
    }

    /**
     * A sender reads the consumer index (a line from the owner's core if the owner has matched
     * since) and keeps the reading for the other senders' checks.
     */
    private long lookAtConsumer() {
        long consumed = (long) CONSUMER.getAcquire(this);
        SEEN.setRelease(this, consumed);
        return consumed;
    }

    /**
     * Where the claimer of {@code index} writes its data, the first {@link #CELL_BYTES} bytes of
     * it (absolute puts from 0, native order), and where the owner reads them.
     */
    public ByteBuffer data(long index) {
        return data[cell(index)];
    }

    /** As {@link #data}: where the data's bytes from {@link #CELL_BYTES} on go. */
    public ByteBuffer spill(long index) {
        ByteBuffer[] made = spills;
        return (made != null ? made : makeSpills())[cell(index)];
    }

    /**
     * As {@link #data}: where a message longer than {@code CELL_BYTES + SPILL_BYTES} continues
     * after the cell's own data, the cell's overflow (null before any such message came there): an
     * array of the claimer's choosing, so that the data moves with {@code System.arraycopy}
     * between arrays of its type.
     */
    public Object overflow(long index) {
        return overflows[cell(index)];
    }

    /**
     * The claimer of {@code index}, before it publishes the cell: makes {@code array}, of
     * {@code bytes}, the cell's overflow in place of the one there, if the overflows of this
     * mailbox's rings stay within {@link #OVERFLOW_BUDGET_BYTES} with it. False, the cell's overflow
     * unchanged, if not: the message then goes through the inbox with its index, as when the ring is
     * full.
     */
    public boolean overflow(long index, Object array, int bytes) {
        int c = cell(index);
        int more = bytes - overflowBytes[c];
        for (;;) {
            long held = mailboxOverflowBytes.get();
            if (more > 0 && held + more > OVERFLOW_BUDGET_BYTES) {
                return false;
            }
            if (mailboxOverflowBytes.compareAndSet(held, held + more)) {
                break;
            }
        }
        overflows[c] = array;
        overflowBytes[c] = bytes;
        return true;
    }

    /** The spills, made now unless another sender made them first. */
    private ByteBuffer[] makeSpills() {
        ByteBuffer all = ByteBuffer.allocateDirect(CELLS * SPILL_BYTES + CELL).alignedSlice(CELL);
        ByteBuffer[] made = new ByteBuffer[CELLS];
        for (int i = 0; i < CELLS; i++) {
            made[i] = all.slice(i * SPILL_BYTES, SPILL_BYTES).order(ByteOrder.nativeOrder());
        }
        ByteBuffer[] first = (ByteBuffer[]) SPILLS.compareAndExchange(this, (ByteBuffer[]) null, made);
        return first != null ? first : made;
    }

    /**
     * Publishes the message at {@code index} (its data written): its envelope, the device's kind of
     * data, element count and size in bytes, and a reference of the device's ({@link #note}).
     */
    public void publish(long index, int context, int source, int tag, int kind, int count, int bytes, Object note) {
        int c = cell(index);
        int at = c * CELL;
        cells.putInt(at + CONTEXT, context);
        cells.putInt(at + SOURCE, source);
        cells.putInt(at + TAG, tag);
        cells.putInt(at + KIND, kind);
        cells.putInt(at + COUNT, count);
        cells.putInt(at + BYTES, bytes);
        if (notes[c] != note) {
            notes[c] = note;
        }
        LONGS.setRelease(cells, at + SEQ, index + 1);
    }

    // ---- the owner --------------------------------------------------------------------------------

    /** The owner, after {@link #isPublished}: the message's context. */
    public int context(long index) {
        return cells.getInt(cell(index) * CELL + CONTEXT);
    }

    /** As {@link #context}: the message's source in its communicator. */
    public int source(long index) {
        return cells.getInt(cell(index) * CELL + SOURCE);
    }

    /** As {@link #context}: the message's tag. */
    public int tag(long index) {
        return cells.getInt(cell(index) * CELL + TAG);
    }

    /** As {@link #context}: the device's kind of data. */
    public int kind(long index) {
        return cells.getInt(cell(index) * CELL + KIND);
    }

    /** As {@link #context}: the element count. */
    public int count(long index) {
        return cells.getInt(cell(index) * CELL + COUNT);
    }

    /** As {@link #context}: the size of the data in bytes. */
    public int bytes(long index) {
        return cells.getInt(cell(index) * CELL + BYTES);
    }

    /** As {@link #context}: the reference the sender published with the message. */
    public Object note(long index) {
        return notes[cell(index)];
    }

    /** Whether the message at {@code index} is in its cell (acquire). */
    boolean isPublished(long index) {
        return (long) LONGS.getAcquire(cells, cell(index) * CELL + SEQ) == index + 1;
    }

    /** The next index to match, as the owner knows it: every one below has been matched. Owner. */
    long next() {
        return ownerNext;
    }

    /**
     * Whether the message the owner matches next is in its cell, by the consumer index (any thread
     * of the owner, without its lock: a hint, current between drains).
     */
    boolean hasPublished() {
        return isPublished((long) CONSUMER.getOpaque(this));
    }

    /**
     * The owner has matched the message at {@code index} (read its cell, and handed it to its
     * receive or kept it as unexpected): the next one is due. Senders learn of it at
     * {@link #publishMatched}. Owner.
     */
    void matched(long index) {
        ownerNext = index + 1;
    }

    /**
     * Tells the senders what the owner has matched (release): their claims of posted receives may
     * go ahead, and the cells are free again. Once per drain of the cells, not per cell, so that a
     * stream moves the consumer index's line to the sender's core at most once per drain (and at
     * once for a message of the ring that came through the inbox, which {@link LockFreeMailbox}
     * explains). Owner.
     */
    void publishMatched() {
        long next = ownerNext;
        if ((long) CONSUMER.getOpaque(this) != next) {
            CONSUMER.setRelease(this, next);
        }
    }

    /** Whether a message of this ring's order may be matched now: every index before its place is. Owner. */
    boolean isDue(SentEnvelope message) {
        long next = next();
        return message.hasIndex() ? message.index() == next : message.index() <= next;
    }

    /** Whether messages wait held ({@link #hold}). Owner. */
    boolean holdsAny() {
        return held != null;
    }

    /**
     * Holds a message of this ring's order that came through the inbox ahead of its turn (an earlier
     * index is still being written, or in a cell, or another held message comes first), in order of
     * place: at the end, unless threads of the sender interleaved their claims. Places may repeat
     * (messages that follow the same indices): equal ones keep their order. Owner.
     */
    void hold(SentEnvelope message) {
        SentEnvelope last = heldLast;
        if (last == null || last.ringPlace <= message.ringPlace) {
            message.next = null;
            if (last == null) {
                held = message;
            } else {
                last.next = message;
            }
            heldLast = message;
            return;
        }
        SentEnvelope before = null;
        SentEnvelope at = held;
        while (at.ringPlace <= message.ringPlace) {
            before = at;
            at = (SentEnvelope) at.next;
        }
        message.next = at;
        if (before == null) {
            held = message;
        } else {
            before.next = message;
        }
    }

    /** Takes the first held message if its turn has come; null otherwise. Owner. */
    SentEnvelope takeDue() {
        SentEnvelope first = held;
        if (first == null || !isDue(first)) {
            return null;
        }
        held = (SentEnvelope) first.next;
        if (held == null) {
            heldLast = null;
        }
        first.next = null;
        return first;
    }

    private static int cell(long index) {
        return (int) index & (CELLS - 1);
    }
}

/** Padding before the senders' fields (superclass fields come first in an object). */
abstract class MessageRingPadding {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

/** What the senders of a {@link MessageRing} write. */
abstract class MessageRingSenderFields extends MessageRingPadding {
    /** The next index to claim (atomic add). */
    volatile long producerIndex;
    /**
     * A sender's last reading of the consumer index, never ahead of it (release/acquire: a sending
     * thread that trusts another's reading sees what the owner had matched by then).
     */
    long seenConsumer;
    /**
     * Answers of {@link MessageRing#seemsDrained} from a reading behind since the last look: a
     * plain count the sending threads share without order (a lost update moves a look).
     */
    int staleAnswers;
}

/** Padding between the senders' fields and the owner's. */
abstract class MessageRingSenderPadding extends MessageRingSenderFields {
    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
}

/** What the owner of a {@link MessageRing} writes. */
abstract class MessageRingOwnerFields extends MessageRingSenderPadding {
    /**
     * Every index below has been matched: the owner's {@link #ownerNext} as of its last drain
     * (release), what senders read.
     */
    volatile long consumerIndex;
    /** The next index the owner matches; owner only. */
    long ownerNext;
    /** Messages of this ring that came through the inbox ahead of their turn, by place; owner only. */
    SentEnvelope held;
    /** The last of {@link #held}: one sending thread's messages come in order, and join at the end. */
    SentEnvelope heldLast;
}

/** Padding between the owner's fields and the ring's immutable ones. */
abstract class MessageRingOwnerPadding extends MessageRingOwnerFields {
    byte p200, p201, p202, p203, p204, p205, p206, p207, p208, p209, p210, p211, p212, p213, p214, p215;
    byte p216, p217, p218, p219, p220, p221, p222, p223, p224, p225, p226, p227, p228, p229, p230, p231;
    byte p232, p233, p234, p235, p236, p237, p238, p239, p240, p241, p242, p243, p244, p245, p246, p247;
    byte p248, p249, p250, p251, p252, p253, p254, p255, p256, p257, p258, p259, p260, p261, p262, p263;
}
