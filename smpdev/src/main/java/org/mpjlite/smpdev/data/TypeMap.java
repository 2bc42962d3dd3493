package org.mpjlite.smpdev.data;

import java.util.Arrays;

/**
 * The flattened type map of an MPI datatype: one item is a sequence of runs, each {@code length}
 * elements of one {@link BasicType} starting {@code disp} bytes from the item's origin, in type-map
 * order (the order data is sent in, not sorted by displacement); runs that continue each other in
 * memory and type are merged. Items of a count follow each other at {@link #extent()} bytes.
 *
 * <p>Also computed once: the bounds ({@code lb}, {@code ub}, with MPI's sticky LB/UB markers and
 * resizing, and the true bounds of the data), the size, the element count, and the type signature
 * (runs of one type merged regardless of displacement), which is what sender and receiver must agree
 * on. Displacements are bytes whatever the dialect: the API converts mpiJava's element units.
 *
 * <p>An {@code OBJECT} element has a nominal size of one byte, so that displacements of object
 * types are array indexes.
 *
 * <p>Immutable; thread-safe.
 */
public final class TypeMap {
    private static final TypeMap[] BASIC = new TypeMap[BasicType.values().length];

    static {
        for (BasicType t : BasicType.values()) {
            Builder b = new Builder().run(0, t, 1);
            b.lb = 0;
            b.ub = t.size();
            BASIC[t.ordinal()] = b.build(false);
        }
    }

    /** Run starts in bytes from the item origin, run types and lengths (elements), in type-map order. */
    private final long[] disps;
    private final BasicType[] types;
    private final int[] lengths;
    /** The one element type of every run, or null when the runs mix types. */
    private final BasicType base;
    private final long elements;
    private final long size;
    private final long lb;
    private final long ub;
    private final boolean lbMarked;
    private final boolean ubMarked;
    private final long trueLb;
    private final long trueUb;
    private final BasicType[] signatureTypes;
    private final long[] signatureCounts;
    private final boolean contiguous;
    private final boolean aligned;

    private TypeMap(Builder b, long lb, long ub, boolean lbMarked, boolean ubMarked) {
        int n = b.runs;
        this.disps = Arrays.copyOf(b.disps, n);
        this.types = Arrays.copyOf(b.types, n);
        this.lengths = Arrays.copyOf(b.lengths, n);
        this.lb = lb;
        this.ub = ub;
        this.lbMarked = lbMarked;
        this.ubMarked = ubMarked;
        BasicType common = n == 0 ? BasicType.BYTE : types[0];
        long elems = 0;
        long bytes = 0;
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        int sig = 0;
        for (int i = 0; i < n; i++) {
            if (types[i] != common) {
                common = null;
            }
            elems += lengths[i];
            bytes += (long) lengths[i] * types[i].size();
            lo = Math.min(lo, disps[i]);
            hi = Math.max(hi, disps[i] + (long) lengths[i] * types[i].size());
            if (i == 0 || types[i] != types[i - 1]) {
                sig++;
            }
        }
        this.base = common;
        this.elements = elems;
        this.size = bytes;
        this.trueLb = n == 0 ? 0 : lo;
        this.trueUb = n == 0 ? 0 : hi;
        this.signatureTypes = new BasicType[sig];
        this.signatureCounts = new long[sig];
        for (int i = 0, s = -1; i < n; i++) {
            if (i == 0 || types[i] != types[i - 1]) {
                signatureTypes[++s] = types[i];
            }
            signatureCounts[s] += lengths[i];
        }
        this.contiguous = common != null && n <= 1 && (n == 0 || disps[0] == 0) && lb == 0 && ub == bytes;
        boolean al = true;
        if (common != null) {
            int unit = common.size();
            al = lb % unit == 0 && ub % unit == 0;
            for (int i = 0; i < n && al; i++) {
                al = disps[i] % unit == 0;
            }
        }
        this.aligned = al;
    }

    /** One element of a basic type. */
    public static TypeMap of(BasicType type) {
        return BASIC[type.ordinal()];
    }

    // ---- constructors of derived maps ----------------------------------------------------------

    /**
     * {@code count} blocks of {@code blockLength} items of {@code old}, block {@code i} at
     * {@code i * strideBytes} (MPI_Type_create_hvector; contiguous and vector types are this too).
     */
    public static TypeMap hvector(int count, int blockLength, long strideBytes, TypeMap old) {
        Builder b = new Builder();
        for (int i = 0; i < count; i++) {
            for (int j = 0; j < blockLength; j++) {
                b.append(old, i * strideBytes + j * old.extent());
            }
        }
        return b.build(false);
    }

    /** Block {@code i}: {@code blockLengths[i]} items of {@code old} at {@code dispBytes[i]}. */
    public static TypeMap hindexed(int[] blockLengths, long[] dispBytes, TypeMap old) {
        Builder b = new Builder();
        for (int i = 0; i < blockLengths.length; i++) {
            for (int j = 0; j < blockLengths[i]; j++) {
                b.append(old, dispBytes[i] + j * old.extent());
            }
        }
        return b.build(false);
    }

    /**
     * Block {@code i}: {@code blockLengths[i]} items of {@code types[i]} at {@code dispBytes[i]}; a
     * null type is an LB ({@code lbMarker[i]}) or UB marker at that displacement.
     */
    public static TypeMap struct(int[] blockLengths, long[] dispBytes, TypeMap[] types, boolean[] lbMarker) {
        Builder b = new Builder();
        for (int i = 0; i < blockLengths.length; i++) {
            if (types[i] == null) {
                b.marker(lbMarker[i], dispBytes[i]);
                continue;
            }
            for (int j = 0; j < blockLengths[i]; j++) {
                b.append(types[i], dispBytes[i] + j * types[i].extent());
            }
        }
        return b.build(false);
    }

    /** The same data with bounds {@code lb} and {@code lb + extent} (MPI_Type_create_resized). */
    public static TypeMap resized(TypeMap old, long lb, long extent) {
        Builder b = new Builder();
        b.append(old, 0);
        b.lb = lb;
        b.ub = lb + extent;
        return b.build(true);
    }

    /** Accumulates runs, merging a run into the previous one when it continues it. */
    private static final class Builder {
        long[] disps = new long[4];
        BasicType[] types = new BasicType[4];
        int[] lengths = new int[4];
        int runs;
        long lb = Long.MAX_VALUE;
        long ub = Long.MIN_VALUE;
        long markedLb = Long.MAX_VALUE;
        long markedUb = Long.MIN_VALUE;
        boolean lbMarked;
        boolean ubMarked;

        Builder run(long disp, BasicType type, int length) {
            if (length == 0) {
                return this;
            }
            int last = runs - 1;
            if (last >= 0 && types[last] == type
                && disps[last] + (long) lengths[last] * type.size() == disp
                && (long) lengths[last] + length <= Integer.MAX_VALUE) {
                lengths[last] += length;
                return this;
            }
            if (runs == disps.length) {
                disps = Arrays.copyOf(disps, runs * 2);
                types = Arrays.copyOf(types, runs * 2);
                lengths = Arrays.copyOf(lengths, runs * 2);
            }
            disps[runs] = disp;
            types[runs] = type;
            lengths[runs] = length;
            runs++;
            return this;
        }

        /** One item of {@code map} at {@code offset}: its runs and its bounds. */
        void append(TypeMap map, long offset) {
            for (int i = 0; i < map.disps.length; i++) {
                run(offset + map.disps[i], map.types[i], map.lengths[i]);
            }
            if (map.lbMarked) {
                lbMarked = true;
                markedLb = Math.min(markedLb, offset + map.lb);
            }
            if (map.ubMarked) {
                ubMarked = true;
                markedUb = Math.max(markedUb, offset + map.ub);
            }
            if (map.disps.length > 0 || map.lbMarked || map.ubMarked) {
                lb = Math.min(lb, offset + map.lb);
                ub = Math.max(ub, offset + map.ub);
            }
        }

        void marker(boolean isLb, long disp) {
            if (isLb) {
                lbMarked = true;
                markedLb = Math.min(markedLb, disp);
            } else {
                ubMarked = true;
                markedUb = Math.max(markedUb, disp);
            }
        }

        /** @param resized the bounds were set explicitly: both are sticky from now on */
        TypeMap build(boolean resized) {
            if (resized) {
                return new TypeMap(this, lb, ub, true, true);
            }
            long l = lbMarked ? markedLb : lb == Long.MAX_VALUE ? 0 : lb;
            long u = ubMarked ? markedUb : ub == Long.MIN_VALUE ? 0 : ub;
            if (u < l && !(lbMarked && ubMarked)) {
                u = l;
            }
            return new TypeMap(this, l, u, lbMarked, ubMarked);
        }
    }

    // ---- queries ---------------------------------------------------------------------------

    /** The element type of every run, or null when the runs mix types. */
    public BasicType base() {
        return base;
    }

    /**
     * Bytes per unit of a buffer offset: the base type's size, or 1 for mixed maps, whose buffers
     * are byte buffers. mpiJava offsets and displacements count these units.
     */
    public int unit() {
        return base == null ? 1 : base.size();
    }

    /** Basic elements per item. */
    public long elements() {
        return elements;
    }

    /** Bytes of data per item (OBJECT elements count one each). */
    public long size() {
        return size;
    }

    public long lb() {
        return lb;
    }

    public long ub() {
        return ub;
    }

    public long extent() {
        return ub - lb;
    }

    public long trueLb() {
        return trueLb;
    }

    public long trueExtent() {
        return trueUb - trueLb;
    }

    /** True for the bounds of the data: first data byte {@code trueLb}, end {@code trueLb + trueExtent}. */
    long trueUb() {
        return trueUb;
    }

    /**
     * True when {@code n} items are {@code n * elements()} elements of {@link #base()} one after the
     * other from the origin: the data moves with one bulk copy.
     */
    public boolean isContiguous() {
        return contiguous;
    }

    /**
     * True when every displacement and bound is a whole number of elements of {@link #base()}, so
     * that the type can address an array or a typed NIO buffer (always true for mixed maps, which
     * only live in byte buffers).
     */
    public boolean isAligned() {
        return aligned;
    }

    /** True when the data are bytes to be reinterpreted (MPI.PACKED). */
    public boolean isPacked() {
        return base == BasicType.PACKED;
    }

    /** True when the elements are serialized objects. */
    public boolean isObjects() {
        return base == BasicType.OBJECT;
    }

    /** Number of runs of one item. */
    public int runs() {
        return disps.length;
    }

    public long disp(int run) {
        return disps[run];
    }

    public BasicType type(int run) {
        return types[run];
    }

    public int length(int run) {
        return lengths[run];
    }

    /** {@code MPI.INT}, or {@code INT x 3, DOUBLE x 1} for a derived map's signature. */
    public String describeSignature() {
        if (signatureTypes.length == 1 && signatureCounts[0] == 1) {
            return signatureTypes[0].mpiName();
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < signatureTypes.length; i++) {
            s.append(i == 0 ? "" : ", ").append(signatureTypes[i].mpiName()).append(" x ").append(signatureCounts[i]);
        }
        return signatureTypes.length == 0 ? "(empty)" : s.toString();
    }

    // ---- walking and matching ----------------------------------------------------------------

    /** Receives the runs of a walk: {@code n} elements of {@code type} at byte {@code pos} of the buffer. */
    @FunctionalInterface
    public interface RunVisitor {
        void run(BasicType type, long pos, int n);
    }

    /**
     * Visits the runs of {@code items} items from byte {@code origin}, in type-map order, stopping
     * after {@code maxElements} elements (a run may be cut short).
     */
    public void walk(long origin, int items, long maxElements, RunVisitor v) {
        long left = maxElements;
        long ext = extent();
        for (int i = 0; i < items && left > 0; i++) {
            long at = origin + i * ext;
            for (int r = 0; r < disps.length && left > 0; r++) {
                int n = (int) Math.min(lengths[r], left);
                v.run(types[r], at + disps[r], n);
                left -= n;
            }
        }
    }

    /**
     * Matches a message's signature against a receive's: the number of elements to move when the
     * sent signature is a prefix of the received one (fewer than sent when the receive is too short:
     * truncation), or {@code -1 - k} when element {@code k} differs in type.
     */
    public static long match(TypeMap sent, int sentItems, TypeMap recv, int recvItems) {
        long sentElements = sent.elements * sentItems;
        long recvElements = recv.elements * recvItems;
        if (sent.base != null && recv.base != null) {
            if (sentElements > 0 && recvElements > 0 && !recv.base.receives(sent.base)) {
                return -1;
            }
            return Math.min(sentElements, recvElements);
        }
        Cursor s = new Cursor(sent, sentItems);
        Cursor r = new Cursor(recv, recvItems);
        long matched = 0;
        while (!s.done() && !r.done()) {
            if (!r.type().receives(s.type())) {
                return -1 - matched;
            }
            long n = Math.min(s.left, r.left);
            s.advance(n);
            r.advance(n);
            matched += n;
        }
        return matched;
    }

    /**
     * How many whole elements of this map's signature, over {@code items} items, fit in
     * {@code bytes} bytes: the elements a receive takes out of packed data.
     */
    public long elementsIn(long bytes, int items) {
        if (base != null) {
            return Math.min(bytes / base.size(), elements * items);
        }
        Cursor c = new Cursor(this, items);
        long n = 0;
        long left = bytes;
        while (!c.done()) {
            long fit = Math.min(c.left, left / c.type().size());
            n += fit;
            left -= fit * c.type().size();
            if (fit < c.left) {
                break;
            }
            c.advance(fit);
        }
        return n;
    }

    /** Bytes of the first {@code n} elements of this map's signature (items after items). */
    public long bytesOf(long n) {
        if (base != null) {
            return n * base.size();
        }
        long whole = elements == 0 ? 0 : n / elements;
        long bytes = whole * size;
        long left = n - whole * elements;
        for (int i = 0; i < signatureTypes.length && left > 0; i++) {
            long k = Math.min(left, signatureCounts[i]);
            bytes += k * signatureTypes[i].size();
            left -= k;
        }
        return bytes;
    }

    /** A position in the signature of a count of items. */
    private static final class Cursor {
        final TypeMap map;
        int itemsLeft;
        int run;
        long left;

        Cursor(TypeMap map, int items) {
            this.map = map;
            this.itemsLeft = map.signatureTypes.length == 0 ? 0 : items;
            this.left = itemsLeft > 0 ? map.signatureCounts[0] : 0;
        }

        boolean done() {
            return itemsLeft == 0;
        }

        BasicType type() {
            return map.signatureTypes[run];
        }

        void advance(long n) {
            left -= n;
            while (left == 0 && itemsLeft > 0) {
                if (++run == map.signatureTypes.length) {
                    run = 0;
                    itemsLeft--;
                }
                left = itemsLeft > 0 ? map.signatureCounts[run] : 0;
            }
        }
    }

    @Override
    public String toString() {
        return "TypeMap[" + describeSignature() + ", lb=" + lb + ", extent=" + extent() + ", " + disps.length + " runs]";
    }
}
