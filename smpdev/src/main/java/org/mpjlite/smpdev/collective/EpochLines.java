package org.mpjlite.smpdev.collective;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.Copier;

/**
 * Each member's cache lines for small reductions and broadcasts: a blocking Allreduce of at
 * most {@link #BYTES} bytes per member carries its contribution, its epoch and a compact signature
 * of the call in one line, so that the collective moves one line from each member to each other
 * member ({@link Team#allreduceInLines}); a blocking Bcast of at most {@link #BCAST_BYTES} bytes
 * carries the message in the root's lines (or, past {@link Tunables#LINE_BCAST_REGION_BYTES}, in
 * the team's Bcast area, one part per phase), and every member's
 * line carries the epoch, the signature and the root it names ({@link Team#bcastInLines}). A member
 * uses region {@code epoch % phases} of its {@link #phases} for the phase {@code epoch}: four lines,
 * 64-byte aligned (in native memory: a Java array's alignment is not known), so that a reduction's
 * header and data are one cache line, and a Bcast's message of up to 48 bytes too (longer ones
 * continue in the next three lines). With more than two phases the root of back-to-back Bcasts
 * writes the next ones while members still read earlier ones ({@link Team#nextLineEpoch}).
 *
 * <p>A line starts with its header, {@code epoch << SIGNATURE_BITS | signature}, written with
 * release semantics after the data; the signature packs the count, the basic type and the
 * predefined operation (for a Bcast, a marker no operation has; for a Reduce, a bit of its own),
 * the fields of a {@link Part} that members compare. A reader that sees a header with the epoch it
 * waits for sees the data that goes with it. A Bcast's line has the root in its second word and
 * the message after it; a Reduce's ({@link Team#reduceInLines}, at most {@link #REDUCE_BYTES}
 * bytes) the root and then the member's contribution.
 *
 * <p>Also holds each member's private scratch arrays (a staging array for one contribution, the
 * accumulator), so that the small path does not allocate. Thread safety: a line is written only by
 * its member; the protocol in {@link Team} guarantees that nobody reads a line while its member
 * overwrites it. A member's scratch is used only by that member.
 */
final class EpochLines {
    private static final int LINE = 64;
    /** Largest contribution carried in a line: the line less its 8-byte header. */
    static final int BYTES = Tunables.LINE_ALLREDUCE_BYTES;
    /**
     * A member's lines of one phase: the header's line, then room for a Bcast's longer message
     * (a reduction uses the first line only), on a boundary of two lines (the adjacent-line
     * prefetcher fetches pairs, so no pair is shared by two members or two phases).
     */
    private static final int REGION = 4 * LINE;
    /** A signature's fields, low to high: the count (14 bits), the basic type (4), the operation (4), REDUCE. */
    private static final int TYPE_SHIFT = 14;
    private static final int OP_SHIFT = 18;
    private static final int SIGNATURE_BITS = 23;
    /** The signature bit of a Reduce: its line also names the root, and its data follows that. */
    private static final long REDUCE = 1L << 22;
    /** Byte offsets in a line: the header, then a reduction's contribution, or a Bcast's root and message. */
    private static final int DATA = 8;
    private static final int ROOT = 8;
    private static final int BCAST_DATA = 16;
    /** Largest message of a Bcast carried in the lines ({@link Tunables#LINE_BCAST_BYTES}). */
    static final int BCAST_BYTES = Tunables.LINE_BCAST_BYTES;
    /** Largest message of a Bcast carried in the root's region: the region less its header and root word. */
    private static final int REGION_BCAST_BYTES = Tunables.LINE_BCAST_REGION_BYTES;
    /** Bytes of the team's Bcast area for one phase: the messages too long for the root's region. */
    private static final int AREA = BCAST_BYTES;
    /** Largest contribution of a Reduce carried in a line: the line less its header and root word. */
    static final int REDUCE_BYTES = LINE - BCAST_DATA;
    /** The operation field of a Barrier's signature: after every {@link BuiltinOp}. */
    private static final long BARRIER = 14;
    /** The operation field of a Bcast's signature: after every {@link BuiltinOp} and Barrier. */
    private static final long BCAST = 15;
    /** The signature of any call other than a small Allreduce (whose count is at most 56). */
    private static final long OTHER_CALL = (1L << SIGNATURE_BITS) - 1;
    private static final VarHandle HEADER = MethodHandles.byteBufferViewVarHandle(long[].class,
        ByteOrder.nativeOrder());

    static {
        if (REGION_BCAST_BYTES != REGION - BCAST_DATA || BCAST_BYTES < REGION_BCAST_BYTES
            || BCAST_BYTES >= 1 << TYPE_SHIFT) {
            throw new ExceptionInInitializerError("the lines' Bcast sizes do not fit their layout");
        }
    }

    private final int members;
    /** Regions per member, one per phase in flight (a power of two, at least two). */
    private final int phases;
    /** Bytes per member: {@link #phases} regions. */
    private final int member;
    private final ByteBuffer lines;
    /**
     * The team's Bcast area: per phase, the message of a Bcast too long for its root's region,
     * written by that phase's root. A buffer of its own, so that the members' lines keep their layout.
     */
    private final ByteBuffer bcastArea;
    /**
     * Typed views of {@link #lines} and of {@link #bcastArea}, by basic type (null for bytes and
     * booleans), made once: a Bcast's message of wider elements moves between them and an array or
     * a typed buffer through the view's bulk copy, where the copier, handed the ByteBuffer, would
     * make a view and its duplicate for a run longer than it copies element by element.
     */
    private final Buffer[] lineViews;
    private final Buffer[] areaViews;
    /** Per member, per basic type: {staging of one contribution, accumulator}, each of a line's data. */
    private final Object[][][] scratch;

    /** Lines for {@code members} members, each with {@code phases} regions (a power of two, at least two). */
    EpochLines(int members, int phases) {
        if (phases < 2 || Integer.bitCount(phases) != 1) {
            throw new IllegalArgumentException("phases must be a power of two of at least 2: " + phases);
        }
        this.members = members;
        this.phases = phases;
        this.member = phases * REGION;
        // After the members' regions, one more region holds the result line (resultAt); the
        // slice's alignment is a region's (two lines), whatever the number of phases.
        lines = ByteBuffer.allocateDirect((members + 1) * member + REGION).alignedSlice(REGION)
            .order(ByteOrder.nativeOrder());
        bcastArea = ByteBuffer.allocateDirect(phases * AREA + REGION).alignedSlice(REGION)
            .order(ByteOrder.nativeOrder());
        lineViews = typedViews(lines);
        areaViews = typedViews(bcastArea);
        scratch = new Object[members][][];
    }

    /** A view of {@code b} for each basic type wider than a byte (the primitive ones with typed buffers). */
    private static Buffer[] typedViews(ByteBuffer b) {
        Buffer[] views = new Buffer[BasicType.values().length];
        for (BasicType t : BasicType.values()) {
            if (t.size() > 1) {
                views[t.ordinal()] = Copier.view(b, t);
            }
        }
        return views;
    }

    /**
     * True when a reduction fits in a line: the same answer on every member whose call has the
     * same count, type and operation (the compared fields), so members agree on the path or their
     * calls differ (which both paths report).
     */
    static boolean fits(int units, BasicType type, Reduction op) {
        BuiltinOp b = op.builtin();
        return (long) units * type.size() <= BYTES && b != null && b != BuiltinOp.MAXLOC && b != BuiltinOp.MINLOC
            && type != BasicType.OBJECT;
    }

    /**
     * True when a Reduce fits in a line beside the root it names: the same answer on every member
     * whose call has the same count, type and operation, as {@link #fits}.
     */
    static boolean fitsReduce(int units, BasicType type, Reduction op) {
        return fits(units, type, op) && (long) units * type.size() <= REDUCE_BYTES;
    }

    /** True when a Bcast fits in a line: the same answer on every member whose call has the same count and type. */
    static boolean fitsBcast(int units, BasicType type) {
        return (long) units * type.size() <= BCAST_BYTES && type != BasicType.OBJECT;
    }

    /** The header of a line of a Bcast of {@code units} of {@code type}, at {@code epoch}. */
    static long bcastHeader(long epoch, int units, BasicType type) {
        return packed(epoch, BCAST, type.ordinal(), units);
    }

    /** The header of a line of a Barrier at {@code epoch}: the signature alone, no data. */
    static long barrierHeader(long epoch) {
        return packed(epoch, BARRIER, 0, 0);
    }

    /** The header of a line of a Reduce of {@code units} of {@code type} with {@code op}, at {@code epoch}. */
    static long reduceHeader(long epoch, int units, BasicType type, BuiltinOp op) {
        return header(epoch, units, type, op) | REDUCE;
    }

    /** The header of a line carrying a reduction of {@code units} of {@code type} with {@code op}, at {@code epoch}. */
    static long header(long epoch, int units, BasicType type, BuiltinOp op) {
        return packed(epoch, op.ordinal(), type.ordinal(), units);
    }

    /** The one place that lays out a header: the epoch, then the signature's operation, type and count. */
    private static long packed(long epoch, long op, long type, int units) {
        return epoch << SIGNATURE_BITS | op << OP_SHIFT | type << TYPE_SHIFT | units;
    }

    /**
     * Marks member {@code me}'s arrival at phase {@code epoch} of any other call: the epoch with a
     * signature no small Allreduce has. Only the header is written, so a member may mark without
     * waiting (non-blocking calls): readers of the line's data from two phases before are not
     * disturbed, and a reader that sees a later epoch compares the parts instead.
     */
    void mark(int me, long epoch) {
        publishHeader(me, epoch << SIGNATURE_BITS | OTHER_CALL);
    }

    /** Phases the lines hold: a member writes a region again {@code phases} phases later. */
    int phases() {
        return phases;
    }

    /** Writes {@code header} alone into member {@code me}'s line of its epoch's phase (release): a Barrier's arrival. */
    void publishHeader(int me, long header) {
        soHeader(offset(me, epochOf(header)), header);
    }

    static long epochOf(long header) {
        return header >>> SIGNATURE_BITS;
    }

    /** The header member {@code m} last wrote in its line for the phases of {@code epoch}'s region. */
    long lvHeader(int m, long epoch) {
        return (long) HEADER.getVolatile(lines, offset(m, epoch));
    }

    /** Stores a header with release semantics: after the line's data, for a reader that loads it volatile. */
    private void soHeader(int at, long header) {
        HEADER.setRelease(lines, at, header);
    }

    private int offset(int m, long epoch) {
        return m * member + (int) (epoch & (phases - 1)) * REGION;
    }

    /**
     * Copies member {@code me}'s contribution into its line, then the header (release): readers that
     * see the header see the data.
     */
    void publish(int me, long header, Object src, int srcIndex, int units, BasicType type) {
        int at = offset(me, epochOf(header));
        Copier.copy(src, srcIndex, lines, elementAt(at + DATA, type), units, type);
        soHeader(at, header);
    }

    /**
     * Writes member {@code me}'s side of a Bcast from {@code root} into its line: the root, the
     * message if {@code me} is the root, then the header (release).
     */
    void publishBcast(int me, long header, int root, Object buf, int index, int units, BasicType type) {
        int at = offset(me, epochOf(header));
        HEADER.set(lines, at + ROOT, (long) root);
        if (me == root) {
            Copier.copy(buf, index, bcastBuffer(units, type, buf), bcastElement(me, epochOf(header), units, type),
                units, type);
        }
        soHeader(at, header);
    }

    /**
     * Writes member {@code me}'s side of a Reduce to {@code root} into its line: the root, its
     * contribution after it, then the header (release).
     */
    void publishReduce(int me, long header, int root, Object src, int srcIndex, int units, BasicType type) {
        int at = offset(me, epochOf(header));
        HEADER.set(lines, at + ROOT, (long) root);
        Copier.copy(src, srcIndex, lines, elementAt(at + BCAST_DATA, type), units, type);
        soHeader(at, header);
    }

    /** The root member {@code m} named in its Bcast or Reduce line of {@code epoch}'s phase (read after its header). */
    long rootOf(int m, long epoch) {
        return (long) HEADER.get(lines, offset(m, epoch) + ROOT);
    }

    /** Copies the message of the Bcast at {@code epoch} from {@code root}'s line into {@code dst}. */
    void readBcast(int root, long epoch, int units, BasicType type, Object dst, int dstIndex) {
        Copier.copy(bcastBuffer(units, type, dst), bcastElement(root, epoch, units, type), dst, dstIndex, units, type);
    }

    /**
     * Writes into {@code dst} the reduction of every member's contribution at {@code epoch}, in rank
     * order ({@code x0 op (x1 op (... op x[n-1]))}) as {@link Reducer} combines them, so that the
     * result is bitwise the same on every member and on the general path: the last member's
     * contribution is copied from its line into the accumulator ({@code dst} itself when it is an
     * array), and each other's, from the last but one down, into the member's staging array and
     * combined into it. No contribution is copied twice, and nothing is allocated. Doubles, floats,
     * ints and longs reduced into a Java array by an element-wise predefined operation skip the copies:
     * they are read straight from the lines ({@link #reduceDoubles}).
     */
    void reduce(int me, long epoch, int units, BasicType type, Reduction op, Object dst, int dstIndex) {
        reduce(me, epoch, DATA, units, type, op, dst, dstIndex);
    }

    /** {@link #reduce}, of the contributions of a Reduce's lines (after the root word). */
    void reduceRooted(int me, long epoch, int units, BasicType type, Reduction op, Object dst, int dstIndex) {
        reduce(me, epoch, BCAST_DATA, units, type, op, dst, dstIndex);
    }

    /** {@link #reduce} of the contributions at byte {@code data} of each member's line. */
    private void reduce(int me, long epoch, int data, int units, BasicType type, Reduction op, Object dst,
                        int dstIndex) {
        BuiltinOp b = op.builtin();
        // One unit per item: not a complex type, whose product is not element by element, nor a pair.
        if (b != null && op.unitsPerItem() == 1 && reducesStraight(type, b)
            && takesElements(dst, dstIndex, units, type)) {
            if (type == BasicType.DOUBLE) {
                reduceDoubles(epoch, data, units, b, dst, dstIndex);
            } else if (type == BasicType.FLOAT) {
                reduceFloats(epoch, data, units, b, dst, dstIndex);
            } else if (type == BasicType.INT) {
                reduceInts(epoch, data, units, b, dst, dstIndex);
            } else {
                reduceLongs(epoch, data, units, b, dst, dstIndex);
            }
            return;
        }
        Object[] s = scratch(me, type);
        Object staging = s[0];
        boolean dstArray = !(dst instanceof Buffer);
        Object acc = dstArray ? dst : s[1];
        int accIndex = dstArray ? dstIndex : 0;
        Copier.copy(lines, elementAt(offset(members - 1, epoch) + data, type), acc, accIndex, units, type);
        for (int m = members - 2; m >= 0; m--) {
            Copier.copy(lines, elementAt(offset(m, epoch) + data, type), staging, 0, units, type);
            op.combine(staging, 0, acc, accIndex, units);
        }
        if (!dstArray) {
            Copier.copy(acc, 0, dst, dstIndex, units, type);
        }
    }

    /**
     * Whether {@link #reduce} combines elements of {@code type} read straight from the lines with
     * {@code op}: doubles and floats with an arithmetic operation, ints and longs with any
     * element-wise one.
     */
    private static boolean reducesStraight(BasicType type, BuiltinOp op) {
        return (type == BasicType.DOUBLE || type == BasicType.FLOAT) && op.isArithmetic()
            || (type == BasicType.INT || type == BasicType.LONG) && op.isElementwiseOnIntegers();
    }

    /**
     * Whether {@code units} elements of {@code type} from element {@code index} of {@code dst} can
     * be stored one by one: an array of the type, or a writable ByteBuffer or buffer of the type
     * whose limit holds them (absolute puts stop at the limit, the general path's copy does not);
     * not a null buffer, which only a call of no elements passes.
     */
    private static boolean takesElements(Object dst, int index, int units, BasicType type) {
        if (dst == null) {
            return false; // no elements, no buffer (MPI allows it): the general path copies nothing
        }
        if (dst.getClass() == type.arrayClass()) {
            return true;
        }
        if (!(dst instanceof Buffer b) || b.isReadOnly()) {
            return false;
        }
        if (dst instanceof ByteBuffer) {
            return (long) (index + units) * type.size() <= b.limit();
        }
        return type.capacityOf(dst) >= 0 && (long) index + units <= b.limit();
    }

    /**
     * {@link #reduce} of doubles into an array or a buffer, read straight from the lines: no copy
     * into the scratch arrays. Each member's element, from the last member down, is combined with
     * the accumulator by {@link BuiltinOp#combine(double, double)}, the general path's operation
     * and order, so the result is bitwise the general path's.
     */
    private void reduceDoubles(long epoch, int data, int units, BuiltinOp op, Object dst, int dstIndex) {
        int last = offset(members - 1, epoch) + data;
        for (int k = 0; k < units; k++) {
            double acc = lines.getDouble(last + k * Double.BYTES);
            for (int m = members - 2; m >= 0; m--) {
                acc = op.combine(lines.getDouble(offset(m, epoch) + data + k * Double.BYTES), acc);
            }
            putDouble(dst, dstIndex + k, acc);
        }
    }

    /** {@link #reduceDoubles} for floats, in float arithmetic. */
    private void reduceFloats(long epoch, int data, int units, BuiltinOp op, Object dst, int dstIndex) {
        int last = offset(members - 1, epoch) + data;
        for (int k = 0; k < units; k++) {
            float acc = lines.getFloat(last + k * Float.BYTES);
            for (int m = members - 2; m >= 0; m--) {
                acc = op.combine(lines.getFloat(offset(m, epoch) + data + k * Float.BYTES), acc);
            }
            putFloat(dst, dstIndex + k, acc);
        }
    }

    /** {@link #reduceDoubles} for ints, combined as longs and narrowed ({@link BuiltinOp#combine(long, long)}). */
    private void reduceInts(long epoch, int data, int units, BuiltinOp op, Object dst, int dstIndex) {
        int last = offset(members - 1, epoch) + data;
        for (int k = 0; k < units; k++) {
            int acc = lines.getInt(last + k * Integer.BYTES);
            for (int m = members - 2; m >= 0; m--) {
                acc = (int) op.combine((long) lines.getInt(offset(m, epoch) + data + k * Integer.BYTES), acc);
            }
            putInt(dst, dstIndex + k, acc);
        }
    }

    /** {@link #reduceDoubles} for longs, as {@link BuiltinOp#combine(long, long)} combines them. */
    private void reduceLongs(long epoch, int data, int units, BuiltinOp op, Object dst, int dstIndex) {
        int last = offset(members - 1, epoch) + data;
        for (int k = 0; k < units; k++) {
            long acc = lines.getLong(last + k * Long.BYTES);
            for (int m = members - 2; m >= 0; m--) {
                acc = op.combine(lines.getLong(offset(m, epoch) + data + k * Long.BYTES), acc);
            }
            putLong(dst, dstIndex + k, acc);
        }
    }

    /**
     * Stores element {@code index} of a destination {@link #takesElements} accepted for doubles.
     * One store per element, not a reduction into the accumulator copied out once as the general
     * path does: that copy goes through the copier's general case at every call, and an 8-byte
     * Allreduce into a ByteBuffer took 1.09 times as long with it.
     */
    private static void putDouble(Object dst, int index, double v) {
        if (dst instanceof double[] a) {
            a[index] = v;
        } else if (dst instanceof ByteBuffer b) {
            b.putDouble(index * Double.BYTES, v);
        } else {
            ((DoubleBuffer) dst).put(index, v);
        }
    }

    private static void putFloat(Object dst, int index, float v) {
        if (dst instanceof float[] a) {
            a[index] = v;
        } else if (dst instanceof ByteBuffer b) {
            b.putFloat(index * Float.BYTES, v);
        } else {
            ((FloatBuffer) dst).put(index, v);
        }
    }

    private static void putInt(Object dst, int index, int v) {
        if (dst instanceof int[] a) {
            a[index] = v;
        } else if (dst instanceof ByteBuffer b) {
            b.putInt(index * Integer.BYTES, v);
        } else {
            ((IntBuffer) dst).put(index, v);
        }
    }

    private static void putLong(Object dst, int index, long v) {
        if (dst instanceof long[] a) {
            a[index] = v;
        } else if (dst instanceof ByteBuffer b) {
            b.putLong(index * Long.BYTES, v);
        } else {
            ((LongBuffer) dst).put(index, v);
        }
    }

    /**
     * Where the message of a Bcast of {@code units} of {@code type} lies: in its root's region when
     * it fits after the header and the root word, else in {@link #bcastArea}. With
     * {@link #bcastElement}, the one place that decides it for the root and the readers alike.
     * Handed to the copier with the user's buffer {@code user}: as a typed view of the buffer for
     * wider elements from or into an array or a typed buffer, whose element indexes are the same.
     */
    private Buffer bcastBuffer(int units, BasicType type, Object user) {
        boolean region = inRegion(units, type);
        Buffer view = (region ? lineViews : areaViews)[type.ordinal()];
        if (view != null && !(user instanceof ByteBuffer)) {
            return view;
        }
        return region ? lines : bcastArea;
    }

    /**
     * The element of {@link #bcastBuffer} where the message of {@code root}'s Bcast at {@code epoch}
     * starts: after the root word of its region, or the phase's part of the area. Only the root of
     * the phase writes that part, and it is reused {@link #phases} phases later under the rule of
     * the regions ({@link Team#nextLineEpoch}: every member has arrived at a later phase, so has read it).
     */
    private int bcastElement(int root, long epoch, int units, BasicType type) {
        int at = inRegion(units, type) ? offset(root, epoch) + BCAST_DATA : (int) (epoch & (phases - 1)) * AREA;
        return elementAt(at, type);
    }

    private static boolean inRegion(int units, BasicType type) {
        return (long) units * type.size() <= REGION_BCAST_BYTES;
    }

    /** The line where a phase's one reduction is published: after every member's lines. */
    private int resultAt() {
        return members * member;
    }

    /**
     * Reduces, when every member's line carries {@code header} (the same call), the lines of
     * {@code epoch} into {@code dst} and publishes the result in the result line; false (nothing
     * written) when some line differs, for the caller to compare the calls.
     */
    boolean reduceOnce(int me, long epoch, long header, int units, BasicType type, Reduction op, Object dst, int dstIndex) {
        for (int m = 0; m < members; m++) {
            if (lvHeader(m, epoch) != header) {
                return false;
            }
        }
        reduce(me, epoch, units, type, op, dst, dstIndex);
        Copier.copy(dst, dstIndex, lines, elementAt(resultAt() + DATA, type), units, type);
        soHeader(resultAt(), header);
        return true;
    }

    /** Copies the result {@link #reduceOnce} published for {@code header} into {@code dst}; false if there is none. */
    boolean readOnce(long header, int units, BasicType type, Object dst, int dstIndex) {
        if ((long) HEADER.getAcquire(lines, resultAt()) != header) {
            return false;
        }
        Copier.copy(lines, elementAt(resultAt() + DATA, type), dst, dstIndex, units, type);
        return true;
    }

    /**
     * The index of the {@code type} element at byte {@code at} of the lines: a shift, since every
     * element size is a power of two, where a division would cost tens of cycles at every call.
     */
    private static int elementAt(int at, BasicType type) {
        return at >> Integer.numberOfTrailingZeros(type.size());
    }

    private Object[] scratch(int me, BasicType type) {
        Object[][] mine = scratch[me];
        if (mine == null) {
            mine = new Object[BasicType.values().length][];
            scratch[me] = mine;
        }
        Object[] s = mine[type.ordinal()];
        if (s == null) {
            int most = BYTES / type.size();
            s = new Object[] {type.newArray(most), type.newArray(most)};
            mine[type.ordinal()] = s;
        }
        return s;
    }
}
