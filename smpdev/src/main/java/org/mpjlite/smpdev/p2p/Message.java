package org.mpjlite.smpdev.p2p;

import mpjbuf.BufferFactory;
import org.mpjlite.matching.MessageRing;
import org.mpjlite.matching.SentEnvelope;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.Copier;
import org.mpjlite.smpdev.data.ElementSource;
import org.mpjlite.smpdev.data.Stash;
import org.mpjlite.smpdev.data.TypeMap;
import org.mpjlite.smpdev.diag.CallSite;

/**
 * A message on its way to a receive: its envelope, its element type and count, and where its data
 * is. Small eager messages carry their copy in an array of their own that the message keeps, one
 * per element type ({@link #inlineCopy}); larger eager and buffered messages carry a pooled copy
 * ({@link #stash});
 * rendezvous messages point at the sender's buffer ({@link #data}) and at the send request to
 * complete once it is copied.
 *
 * <p>Messages are recycled: once received ({@link #consumed}), a message is kept, with its array,
 * by the {@link Recycler} of the rank whose thread consumed it (the receiver's, or the sender's
 * after a claim), unless a probe handed it out ({@link #isExposed}), since the prober may still
 * read it. A withdrawn message (its send cancelled, {@link #withdrawn}) is dropped by the mailbox,
 * not recycled; a recycled one made withdrawable again gets a new stamp, so a cancel meant for its
 * earlier use fails.
 *
 * <p>Written by the sender before it is handed to a mailbox (which publishes it), read by the one
 * thread that matches it, which then keeps it for its own rank's next send (so its last use and the
 * next sender's first are on one thread).
 */
public final class Message extends SentEnvelope {
    /** The sender's datatype and item count: the message's signature. */
    TypeMap map;
    int items;
    /** The element type when the signature has one, else null. */
    BasicType type;
    /** Elements of the signature. */
    int count;
    /** The array small eager copies are made in, kept across uses; null until the first. */
    private Object inline;
    private BasicType inlineType;
    private int inlineLength;
    /**
     * The arrays this message has had for each element type, by ordinal ({@link #inline} is one of
     * them); null until the first. A program that sends small messages of several element types
     * in turn would otherwise make an array whenever a recycled message changes type.
     */
    private Object[] inlines;
    /** The next message in a recycler's free list, and the length of that list from here. */
    Message nextFree;
    int freeDepth;
    mpjbuf.Buffer stash;
    Object data;
    int dataIndex;
    SendRequest sender;
    BsendBuffer bsendBuffer;
    int bsendBytes;
    /** The send call, for reports; and its user line, taken under {@link JobConfig#check()} only. */
    String call;
    StackTraceElement site;
    /** The trace's flow of this message, handed to its receive; 0 when not traced. */
    long flow;

    Message(int context, int source, int tag, TypeMap map, int items, String call) {
        super(context, source, tag);
        describe(map, items, call);
    }

    /**
     * Makes a recycled message a new one; the caller owns it. References are stored only when they
     * change: a recycled message is an old object, and a reference store into one costs the G1
     * collector's write barrier a fence, where storing the same value again costs nothing.
     */
    void reuse(int context, int source, int tag, TypeMap map, int items, String call) {
        rekey(context, source, tag);
        keepsNoOrder();
        describe(map, items, call);
        site = null;
        flow = 0;
        dataIndex = 0;
    }

    private void describe(TypeMap map, int items, String call) {
        if (this.map != map) {
            this.map = map;
            this.type = map.base();
        }
        if (this.call != call) {
            this.call = call;
        }
        this.items = items;
        this.count = Math.toIntExact(map.elements() * items);
    }

    /** The data are {@code buffer}'s, from element {@code index} (rendezvous, or a claimed receive). */
    void pointAt(Object buffer, int index) {
        if (data != buffer) {
            data = buffer;
        }
        dataIndex = index;
    }

    /**
     * Carries a copy of {@code n} elements from {@code index} of the sender's array or NIO buffer,
     * in the message's own array (allocated once per element type and size class, then reused).
     */
    void inlineCopy(Object buffer, int index, int n) {
        Copier.copy(buffer, index, inlineArray(n), 0, n, type);
        pointAt(inline, 0);
    }

    /**
     * Carries a copy of the message's elements (contiguous, of one basic type) from {@code index} of
     * the sender's array or NIO buffer: in its own array ({@link #inlineCopy}) up to
     * {@link Tunables#SMALL_COPY_BYTES}, else in a buffer of {@code pool}.
     */
    void eagerCopy(BufferFactory pool, Object buffer, int index) {
        if (inOwnArray()) {
            inlineCopy(buffer, index, count);
        } else {
            stash = Stash.fill(pool, buffer, index, count, type);
        }
    }

    /** Whether an eager copy of this message goes into its own array rather than a pooled buffer. */
    private boolean inOwnArray() {
        return bytes() <= Tunables.SMALL_COPY_BYTES;
    }

    /**
     * The message's own array for {@code n} elements of its type: the one it has if large enough,
     * else the one it had for the type if that is, else a new one.
     */
    private Object inlineArray(int n) {
        if (inlineType != type || inlineLength < n) {
            Object kept = null;
            if (inline != null) {
                // Only a message that changes type keeps a table: most carry one type all along.
                if (inlines == null) {
                    inlines = new Object[KINDS.length];
                }
                inlines[inlineType.ordinal()] = inline;
                kept = inlines[type.ordinal()];
            }
            int length = kept == null ? 0 : java.lang.reflect.Array.getLength(kept);
            if (length < n) {
                length = Math.max(n, Tunables.INLINE_ELEMENTS_BYTES / type.size());
                kept = type.newArray(length);
            }
            inline = kept;
            inlineType = type;
            inlineLength = length;
        }
        return inline;
    }

    /** The basic types by {@link #kindOf}, less one. */
    private static final BasicType[] KINDS = BasicType.values();

    /**
     * The kind of data (never 0, which takes none) that a receive line or a ring cell says it
     * carries: elements of {@code type}.
     */
    static int kindOf(BasicType type) {
        return type.ordinal() + 1;
    }

    /**
     * The receiving rank's message of a ring's cell (on its thread, from its recycler): the cell's
     * envelope, elements and the send call's name, with a copy of the data, since the cell goes back
     * to its sender: in the message's own array, or in a buffer of {@code pool} past
     * {@link Tunables#SMALL_COPY_BYTES}, as an eager sender copies.
     */
    static Message fromRing(Recycler recycler, BufferFactory pool, MessageRing ring, long index) {
        BasicType type = KINDS[ring.kind(index) - 1];
        int count = ring.count(index);
        Message m = recycler.message(ring.context(index), ring.source(index), ring.tag(index), TypeMap.of(type), count,
            (String) ring.note(index));
        if (m.inOwnArray()) {
            CellData.read(ring, index, m.inlineArray(count), 0, count, type);
            m.pointAt(m.inline, 0);
        } else {
            m.stash = CellData.stash(pool, ring, index, count, type);
        }
        return m;
    }

    /** The element type, or null when the signature mixes types. */
    public BasicType type() {
        return type;
    }

    /** Elements of the signature. */
    public int count() {
        return count;
    }

    /** Bytes of the signature's elements. */
    public long bytes() {
        return map.size() * items;
    }

    /** The pending send this message completes when received; null for eager and buffered messages. */
    public SendRequest sender() {
        return sender;
    }

    /** Where the data is, as a source of elements in signature order. */
    ElementSource source(ClassLoader loader) {
        return stash != null ? ElementSource.stash(stash, loader)
            : ElementSource.memory(data, (long) dataIndex * type.size(), map.isPacked());
    }

    /**
     * Copies the first {@code n} elements into the receiver's buffer (contiguous data both sides);
     * objects resolve their classes in {@code loader}.
     */
    void copyTo(Object dst, int dstIndex, int n, ClassLoader loader) {
        if (stash != null) {
            Stash.drain(stash, dst, dstIndex, n, type, loader);
        } else {
            Copier.copy(data, dataIndex, dst, dstIndex, n, type);
        }
    }

    /**
     * The message has been received (or dropped): release what it holds, complete its sender, and
     * leave it to {@code receiving}, the receiving rank's recycler, which keeps it if called on its
     * user thread.
     */
    void consumed(Recycler receiving) {
        if (stash != null) {
            stash.free();
            stash = null;
        }
        if (data != inline) {
            data = null; // the sender's buffer: not kept alive by a recycled message
        }
        if (bsendBuffer != null) {
            bsendBuffer.release(bsendBytes);
            bsendBuffer = null;
        }
        if (sender != null) {
            SendRequest s = sender;
            sender = null;
            s.owner().endpoint().sendReceived(s);
            s.complete(ANY_SOURCE, ANY_TAG, count, type, bytes());
        }
        if (!isExposed()) {
            receiving.keep(this);
        }
    }

    /**
     * Its sender withdrew it (a cancelled send): lets go of its copy and of the sender's buffer. The
     * withdrawing thread; no receive reads these fields any more, and the mailbox, which still holds
     * the message until it next meets it, reads only the envelope. Never recycled: it is dropped.
     */
    void withdrawn() {
        if (stash != null) {
            stash.free();
            stash = null;
        }
        data = null;
        sender = null;
    }

    /** {@code (source=1, tag=3, comm=MPI.COMM_WORLD, 8 bytes)}, for reports and warnings. */
    public String describe(Job job) {
        return "(source=" + source + ", tag=" + tag + ", comm=" + job.contextName(context) + ", "
            + bytes() + " bytes)";
    }

    /** {@code Send(count=4, MPI.INT) at Main.java:9}: the call that sent it, for error messages. */
    String describeSend() {
        return call + "(count=" + items + ", " + map.describeSignature() + ")" + CallSite.at(site);
    }

    @Override
    public String toString() {
        return "message(source=" + source + ", tag=" + tag + ", " + items + " x " + map.describeSignature() + ")";
    }
}
