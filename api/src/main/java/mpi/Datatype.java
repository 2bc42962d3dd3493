package mpi;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.collective.Layout;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.TypeMap;

/**
 * An MPI datatype: a predefined one ({@code MPI.INT}...), shared by all ranks, or a derived one built
 * with the constructors of either dialect. Every datatype has a flattened {@link TypeMap} (runs of
 * basic elements at byte displacements, the bounds and the type signature), computed once.
 *
 * <p>Units. mpiJava: {@code Vector} strides and {@code Indexed} displacements count extents of the
 * old type; {@code Hvector} strides and {@code Hindexed} and {@code Struct} displacements count
 * elements of the base type, i.e. buffer indexes (MPJ Express's and mpiJava 1.2's "H" semantics:
 * not bytes); {@code Extent}, {@code Size}, {@code Lb}, {@code Ub} answer in elements of the base
 * type. Open MPI: {@code createHVector}, {@code createHIndexed}, {@code createStruct},
 * {@code createResized} take bytes, and {@code getExtent}, {@code getSize}... answer in bytes. No
 * implicit alignment padding is added to structs (Java data has no C alignment); use
 * {@code createResized} to set an extent.
 *
 * <p>Buffers. All runs of a type share one base type, and the type lives in an array or NIO buffer of
 * that type (mpiJava's rule), or in a {@code ByteBuffer}; a type whose runs mix base types (Open MPI's
 * {@code createStruct}, {@code MPI.SHORT_INT}...) lives only in a {@code byte[]} (native byte order)
 * or a {@code ByteBuffer} (its own byte order).
 *
 * <p>The value-index pair types of MAXLOC and MINLOC: mpiJava's {@code SHORT2}, {@code INT2},
 * {@code LONG2}, {@code FLOAT2}, {@code DOUBLE2} (and Open MPI's {@code INT2}) are two elements of
 * one type per item, value then index, in an array or buffer of that type; Open MPI's
 * {@code SHORT_INT}, {@code LONG_INT}, {@code FLOAT_INT}, {@code DOUBLE_INT} are C structs (value,
 * then an int index at its natural alignment) in a {@code ByteBuffer} or {@code byte[]}, in native
 * byte order. Counts of pair types count pairs, in point-to-point and collectives; mpiJava offsets
 * count array elements.
 *
 * <p>Open MPI's complex numbers {@code FLOAT_COMPLEX}, {@code DOUBLE_COMPLEX} are two elements of
 * one type per item, real then imaginary part, in an array or buffer of that type (see
 * {@link FloatComplex}, {@link DoubleComplex}); SUM adds them and PROD multiplies them as complex
 * numbers, the other operations are not defined for them (MPI_ERR_OP).
 *
 * <p>A derived type must be committed before it is used to communicate; after {@code Free} it can no
 * longer be used at all. Thread-safe: the type map is immutable; the committed and freed states are
 * volatile; the name and each rank's attributes (Open MPI's {@code setAttr}) are the other mutable
 * properties.
 */
public class Datatype implements Cloneable {
    // Public because the per-rank copy of MPI (another runtime package) reads them.
    public static final Datatype BYTE = new Datatype(BasicType.BYTE);
    public static final Datatype CHAR = new Datatype(BasicType.CHAR);
    public static final Datatype SHORT = new Datatype(BasicType.SHORT);
    public static final Datatype BOOLEAN = new Datatype(BasicType.BOOLEAN);
    public static final Datatype INT = new Datatype(BasicType.INT);
    public static final Datatype LONG = new Datatype(BasicType.LONG);
    public static final Datatype FLOAT = new Datatype(BasicType.FLOAT);
    public static final Datatype DOUBLE = new Datatype(BasicType.DOUBLE);
    public static final Datatype PACKED = new Datatype(BasicType.PACKED);
    /** Serializable objects in an {@code Object[]} (mpiJava). */
    public static final Datatype OBJECT = new Datatype(BasicType.OBJECT);

    public static final Datatype SHORT2 = pair(BasicType.SHORT, "MPI.SHORT2");
    public static final Datatype INT2 = pair(BasicType.INT, "MPI.INT2");
    public static final Datatype LONG2 = pair(BasicType.LONG, "MPI.LONG2");
    public static final Datatype FLOAT2 = pair(BasicType.FLOAT, "MPI.FLOAT2");
    public static final Datatype DOUBLE2 = pair(BasicType.DOUBLE, "MPI.DOUBLE2");
    /** Open MPI's complex numbers: two floats (doubles), real then imaginary part; SUM and PROD reduce them. */
    public static final Datatype FLOAT_COMPLEX = complex(BasicType.FLOAT, "MPI.FLOAT_COMPLEX");
    public static final Datatype DOUBLE_COMPLEX = complex(BasicType.DOUBLE, "MPI.DOUBLE_COMPLEX");
    public static final Datatype SHORT_INT = valueInt(BasicType.SHORT, 4, 8, "MPI.SHORT_INT");
    public static final Datatype LONG_INT = valueInt(BasicType.LONG, 8, 16, "MPI.LONG_INT");
    public static final Datatype FLOAT_INT = valueInt(BasicType.FLOAT, 4, 8, "MPI.FLOAT_INT");
    public static final Datatype DOUBLE_INT = valueInt(BasicType.DOUBLE, 8, 16, "MPI.DOUBLE_INT");

    /** The lower-bound marker of mpiJava's {@code Struct}. */
    public static final Datatype LB = new Datatype(Kind.LB_MARKER, "MPI.LB");
    /** The upper-bound marker of mpiJava's {@code Struct}. */
    public static final Datatype UB = new Datatype(Kind.UB_MARKER, "MPI.UB");
    /** The null datatype (mpiJava's {@code MPI.NULL}, Open MPI's {@code MPI.DATATYPE_NULL}). */
    public static final Datatype NULL = new Datatype(Kind.NULL, "MPI.DATATYPE_NULL");

    private enum Kind { PREDEFINED, DERIVED, LB_MARKER, UB_MARKER, NULL }

    /** What the bound markers answer queries with: no data, extent 0 (they occupy no space). */
    private static final TypeMap NO_DATA = TypeMap.hvector(0, 1, 0, TypeMap.of(BasicType.BYTE));

    /** The storage type: what the buffer holds and what is copied (BYTE when the runs mix types). */
    final BasicType basic;
    /** How an item is stored for collectives: {@link #basic} elements per item, and the parts of pairs. */
    final Layout layout;
    /** The flattened type map; null for markers and the null type. */
    final TypeMap map;
    /**
     * Every element of the type map is a part of a complex number (FLOAT_COMPLEX, DOUBLE_COMPLEX,
     * or a derived type made of them only): MPI counts such a pair as one basic element.
     */
    final boolean complexParts;
    private final Kind kind;
    /**
     * The contiguous type of the same signature, that a packed item of this type is (collectives
     * stage non-contiguous data through it); this type itself when it is direct.
     */
    private final Datatype packed;
    private volatile String name;
    private volatile boolean committed;
    private volatile boolean freed;

    Datatype(BasicType basic) {
        this(Layout.basic(basic), TypeMap.of(basic), basic.mpiName());
    }

    private Datatype(Layout layout, TypeMap map, String name) {
        this.basic = layout.storage();
        this.layout = layout;
        this.map = map;
        this.complexParts = layout.isComplex();
        this.kind = Kind.PREDEFINED;
        this.packed = this;
        this.name = name;
        this.committed = true;
    }

    private Datatype(Kind kind, String name) {
        this.basic = BasicType.BYTE;
        this.layout = Layout.basic(BasicType.BYTE);
        this.map = null;
        this.complexParts = false;
        this.kind = kind;
        this.packed = this;
        this.name = name;
    }

    /** A derived type of {@code map}, not committed; {@code complexParts}: made of complex numbers only. */
    private Datatype(TypeMap map, String name, boolean complexParts) {
        BasicType base = map.base();
        this.basic = base != null ? base : BasicType.BYTE;
        int units = (int) (base != null ? map.elements() : map.size());
        this.layout = new Layout(basic, units, basic, -1);
        this.map = map;
        this.complexParts = complexParts;
        this.kind = Kind.DERIVED;
        this.name = name;
        if (map.isContiguous()) {
            this.packed = this;
        } else {
            BasicType unitType = base != null ? base : BasicType.BYTE;
            this.packed = new Datatype(TypeMap.hvector(1, units, 0, TypeMap.of(unitType)), name + " packed",
                complexParts);
            this.packed.committed = true;
        }
    }

    private static Datatype pair(BasicType type, String name) {
        return new Datatype(Layout.pair(type), TypeMap.hvector(1, 2, 0, TypeMap.of(type)), name);
    }

    private static Datatype complex(BasicType type, String name) {
        return new Datatype(Layout.complex(type), TypeMap.hvector(1, 2, 0, TypeMap.of(type)), name);
    }

    private static Datatype valueInt(BasicType value, int indexOffset, int extent, String name) {
        TypeMap struct = TypeMap.struct(new int[] {1, 1}, new long[] {0, indexOffset},
            new TypeMap[] {TypeMap.of(value), TypeMap.of(BasicType.INT)}, new boolean[2]);
        return new Datatype(Layout.struct(value, indexOffset, extent), TypeMap.resized(struct, 0, extent), name);
    }

    /** Elements of the storage type per item: 1, or 2 for pairs, or the bytes of a struct. */
    final int units() {
        return layout.units();
    }

    /**
     * True when an item is {@link #units()} consecutive elements of {@link #basic} (every predefined
     * type, contiguous derived types): collectives and checks then work on storage units directly.
     */
    final boolean direct() {
        return kind == Kind.PREDEFINED || map.isContiguous();
    }

    /**
     * For a predefined datatype of primitive elements (always committed, never freed), how many
     * elements of its storage type {@code buf} holds when the type addresses it as it is: an array of
     * exactly that element type, a ByteBuffer, or a buffer of that type. -1 for any other buffer
     * (null included) and for any other datatype.
     */
    final int plainCapacity(Object buf) {
        return kind != Kind.PREDEFINED || buf == null || map.isObjects() ? -1 : basic.capacityOf(buf);
    }

    /** The contiguous type a packed item of this type is: this type when {@link #direct()}. */
    final Datatype packed() {
        return packed;
    }

    /** True for the predefined types ({@code MPI.INT}, the pairs...). */
    final boolean predefined() {
        return kind == Kind.PREDEFINED;
    }

    /** True when the runs mix base types (the type lives in byte buffers only). */
    final boolean mixed() {
        return map != null && map.base() == null;
    }

    /** Bytes per buffer unit: the base type's size (1 for mixed types). */
    final int unit() {
        return map.unit();
    }

    /**
     * This type, usable to communicate in {@code call}: not null, committed, not freed, not a marker.
     */
    final Datatype usable(String call) {
        if (kind == Kind.NULL) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype is MPI.DATATYPE_NULL");
        }
        if (kind == Kind.LB_MARKER || kind == Kind.UB_MARKER) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + name + " is a bound marker, usable only in Struct");
        }
        if (freed) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype " + this + " has been freed");
        }
        if (!committed) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype " + this + " is not committed (call Commit first)");
        }
        return this;
    }

    /** This type as a building block of a new one in {@code call}: anything but null, freed or a marker. */
    TypeMap part(String call, String arg) {
        if (kind == Kind.NULL) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + arg + " is MPI.DATATYPE_NULL");
        }
        if (freed) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + arg + " " + this + " has been freed");
        }
        if (map == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + arg + " " + name + " is a bound marker, usable only in"
                + " Struct");
        }
        return map;
    }

    /** A live type (not freed, not null) for a query. */
    private TypeMap queried(String call) {
        if (kind == Kind.NULL) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype is MPI.DATATYPE_NULL");
        }
        if (freed) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype " + this + " has been freed");
        }
        return map != null ? map : NO_DATA;
    }

    // ---- constructors: mpiJava 1.2 (MPJ Express) -------------------------------------------

    /** {@code count} copies of {@code oldtype}, one after the other. */
    public static Datatype Contiguous(int count, Datatype oldtype) {
        return contiguous("Contiguous", count, oldtype);
    }

    /** {@code count} blocks of {@code blocklength} items, the blocks {@code stride} extents of oldtype apart. */
    public static Datatype Vector(int count, int blocklength, int stride, Datatype oldtype) {
        return vector("Vector", count, blocklength, stride, oldtype);
    }

    /** As {@link #Vector}, the stride in elements of the base type (a buffer index difference, not bytes). */
    public static Datatype Hvector(int count, int blocklength, int stride, Datatype oldtype) {
        return hvector("Hvector", count, blocklength, stride, oldtype, true);
    }

    /** Block {@code i}: {@code blocklengths[i]} items at {@code displacements[i]} extents of oldtype. */
    public static Datatype Indexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        return indexed("Indexed", blocklengths, displacements, oldtype);
    }

    /** As {@link #Indexed}, the displacements in elements of the base type (buffer indexes, not bytes). */
    public static Datatype Hindexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        return hindexed("Hindexed", blocklengths, displacements, oldtype, true);
    }

    /**
     * Block {@code i}: {@code blocklengths[i]} items of {@code types[i]} at {@code displacements[i]}
     * elements of the common base type (buffer indexes); {@code MPI.LB} and {@code MPI.UB} set the
     * bounds. All types must share one base type.
     */
    public static Datatype Struct(int[] blocklengths, int[] displacements, Datatype[] types) {
        String call = "Struct";
        blocks(call, blocklengths, displacements);
        TypeMap[] maps = parts(call, types, blocklengths.length);
        BasicType base = null;
        for (int i = 0; i < maps.length; i++) {
            if (maps[i] == null) {
                continue;
            }
            BasicType b = maps[i].base();
            if (b == null || (base != null && b != base)) {
                throw new MPIException(MPI.ERR_TYPE, call + ": types[" + i + "] " + types[i] + " has base type "
                    + (b == null ? "of mixed types" : b.mpiName()) + (base == null ? "" : ", others " + base.mpiName())
                    + "; mpiJava's Struct needs one base type (use createStruct with byte displacements to mix types"
                    + " in a byte buffer)");
            }
            base = b;
        }
        int unit = base == null ? 1 : base.size();
        return derived(TypeMap.struct(blocklengths, scale(displacements, unit), maps, lbMarkers(types)), call,
            complexParts(types));
    }

    // ---- constructors: Open MPI Java -------------------------------------------------------

    public static Datatype createContiguous(int count, Datatype oldType) {
        return contiguous("createContiguous", count, oldType);
    }

    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) {
        return vector("createVector", count, blockLength, stride, oldType);
    }

    /** As {@link #createVector}, the stride in bytes. */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType) {
        return hvector("createHVector", count, blockLength, stride, oldType, false);
    }

    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType) {
        return indexed("createIndexed", blockLengths, displacements, oldType);
    }

    /** As {@link #createIndexed}, the displacements in bytes. */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType) {
        return hindexed("createHIndexed", blockLengths, displacements, oldType, false);
    }

    /** Blocks of {@code blockLength} items at {@code displacements[i]} extents of oldType. */
    public static Datatype createIndexedBlock(int blockLength, int[] displacements, Datatype oldType) {
        String call = "createIndexedBlock";
        TypeMap old = old(call, oldType);
        if (displacements == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": displacements is null");
        }
        if (blockLength < 0) {
            throw new MPIException(MPI.ERR_ARG, call + ": blockLength " + blockLength + " is negative");
        }
        int[] lengths = new int[displacements.length];
        java.util.Arrays.fill(lengths, blockLength);
        return derived(TypeMap.hindexed(lengths, scale(displacements, old.extent()), old), call, oldType);
    }

    /** Block {@code i}: {@code blockLengths[i]} items of {@code types[i]} at byte {@code displacements[i]}. */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types) {
        String call = "createStruct";
        blocks(call, blockLengths, displacements);
        TypeMap[] maps = parts(call, types, blockLengths.length);
        boolean objects = false;
        boolean others = false;
        for (TypeMap m : maps) {
            objects |= m != null && m.isObjects();
            others |= m != null && !m.isObjects();
        }
        if (objects && others) {
            throw new MPIException(MPI.ERR_TYPE, call + ": MPI.OBJECT cannot be mixed with other types in a struct");
        }
        return derived(TypeMap.struct(blockLengths, scale(displacements, 1), maps, lbMarkers(types)), call,
            complexParts(types));
    }

    /** The same data with lower bound {@code lb} and extent {@code extent}, in bytes. */
    public static Datatype createResized(Datatype oldType, int lb, int extent) {
        TypeMap old = old("createResized", oldType);
        return derived(TypeMap.resized(old, lb, extent), "createResized", oldType);
    }

    // ---- construction helpers --------------------------------------------------------------

    private static Datatype contiguous(String call, int count, Datatype oldtype) {
        TypeMap old = old(call, oldtype);
        counts(call, count, 1);
        return derived(TypeMap.hvector(count, 1, old.extent(), old), call, oldtype);
    }

    private static Datatype vector(String call, int count, int blocklength, int stride, Datatype oldtype) {
        TypeMap old = old(call, oldtype);
        counts(call, count, blocklength);
        return derived(TypeMap.hvector(count, blocklength, stride * old.extent(), old), call, oldtype);
    }

    /** @param inElements the stride counts base elements (mpiJava), else bytes (Open MPI) */
    private static Datatype hvector(String call, int count, int blocklength, int stride, Datatype oldtype,
                                    boolean inElements) {
        TypeMap old = old(call, oldtype);
        counts(call, count, blocklength);
        long strideBytes = inElements ? (long) stride * old.unit() : stride;
        return derived(TypeMap.hvector(count, blocklength, strideBytes, old), call, oldtype);
    }

    /** @param inElements the displacements count base elements (mpiJava), else bytes (Open MPI) */
    private static Datatype hindexed(String call, int[] blocklengths, int[] displacements, Datatype oldtype,
                                     boolean inElements) {
        TypeMap old = old(call, oldtype);
        blocks(call, blocklengths, displacements);
        return derived(TypeMap.hindexed(blocklengths, scale(displacements, inElements ? old.unit() : 1), old), call,
            oldtype);
    }

    private static Datatype indexed(String call, int[] blocklengths, int[] displacements, Datatype oldtype) {
        TypeMap old = old(call, oldtype);
        blocks(call, blocklengths, displacements);
        return derived(TypeMap.hindexed(blocklengths, scale(displacements, old.extent()), old), call, oldtype);
    }

    private static TypeMap old(String call, Datatype oldtype) {
        if (oldtype == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": oldtype is null");
        }
        return oldtype.part(call, "oldtype");
    }

    private static void counts(String call, int count, int blocklength) {
        if (count < 0) {
            throw new MPIException(MPI.ERR_COUNT, call + ": count " + count + " is negative");
        }
        if (blocklength < 0) {
            throw new MPIException(MPI.ERR_ARG, call + ": blocklength " + blocklength + " is negative");
        }
    }

    private static void blocks(String call, int[] blocklengths, int[] displacements) {
        if (blocklengths == null || displacements == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + (blocklengths == null ? "blocklengths" : "displacements")
                + " is null");
        }
        if (blocklengths.length != displacements.length) {
            throw new MPIException(MPI.ERR_ARG, call + ": blocklengths has " + blocklengths.length
                + " entries but displacements " + displacements.length);
        }
        for (int i = 0; i < blocklengths.length; i++) {
            if (blocklengths[i] < 0) {
                throw new MPIException(MPI.ERR_ARG, call + ": blocklengths[" + i + "] " + blocklengths[i]
                    + " is negative");
            }
        }
    }

    /** The maps of struct components; null for LB and UB markers. */
    private static TypeMap[] parts(String call, Datatype[] types, int n) {
        if (types == null || types.length != n) {
            throw new MPIException(MPI.ERR_ARG, call + ": types " + (types == null ? "is null"
                : "has " + types.length + " entries but blocklengths " + n));
        }
        TypeMap[] maps = new TypeMap[n];
        for (int i = 0; i < n; i++) {
            if (types[i] == null) {
                throw new MPIException(MPI.ERR_TYPE, call + ": types[" + i + "] is null");
            }
            Kind k = types[i].kind;
            maps[i] = k == Kind.LB_MARKER || k == Kind.UB_MARKER ? null : types[i].part(call, "types[" + i + "]");
        }
        return maps;
    }

    private static boolean[] lbMarkers(Datatype[] types) {
        boolean[] lb = new boolean[types.length];
        for (int i = 0; i < types.length; i++) {
            lb[i] = types[i].kind == Kind.LB_MARKER;
        }
        return lb;
    }

    private static long[] scale(int[] values, long factor) {
        long[] out = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i] * factor;
        }
        return out;
    }

    private static Datatype derived(TypeMap map, String call, Datatype oldtype) {
        return derived(map, call, call + "(" + oldtype + ")", oldtype.complexParts);
    }

    private static Datatype derived(TypeMap map, String call, boolean complexParts) {
        return derived(map, call, call, complexParts);
    }

    private static Datatype derived(TypeMap map, String call, String name, boolean complexParts) {
        if (map.elements() * Math.max(1, map.unit()) > Integer.MAX_VALUE
            || map.extent() > Integer.MAX_VALUE || map.extent() < Integer.MIN_VALUE) {
            throw new MPIException(MPI.ERR_COUNT, call + ": the datatype would be larger than 2^31 bytes");
        }
        return new Datatype(map, name, complexParts);
    }

    /** Whether a struct of {@code types} is made of complex numbers only (bound markers aside; at least one). */
    private static boolean complexParts(Datatype[] types) {
        boolean any = false;
        for (Datatype t : types) {
            if (t.kind == Kind.LB_MARKER || t.kind == Kind.UB_MARKER) {
                continue;
            }
            if (!t.complexParts) {
                return false;
            }
            any = true;
        }
        return any;
    }

    // ---- commit, free, queries -------------------------------------------------------------

    /** Makes a derived type usable to communicate; predefined types are always committed. */
    public void Commit() {
        commit("Commit");
    }

    public void commit() {
        commit("commit");
    }

    private void commit(String call) {
        queried(call);
        committed = true;
    }

    /** Frees a derived type: it can no longer be used. Freeing a predefined type is a no-op. */
    public void Free() {
        free("Free");
    }

    public void free() {
        free("free");
    }

    private void free(String call) {
        queried(call);
        if (kind == Kind.DERIVED) {
            freed = true;
        }
    }

    /**
     * True for {@code MPI.DATATYPE_NULL} and for a type freed with {@code free}, which Open MPI sets
     * to {@code MPI_DATATYPE_NULL} as MPI_Type_free does.
     */
    public boolean isNull() {
        return kind == Kind.NULL || freed;
    }

    /** Extent in elements of the base type (mpiJava). */
    public int Extent() {
        return (int) (queried("Extent").extent() / unitOf(map));
    }

    /** Size of the data of one item in elements of the base type (mpiJava; 2 for pairs). */
    public int Size() {
        return (int) (queried("Size").size() / unitOf(map));
    }

    /** Lower bound in elements of the base type (mpiJava). */
    public int Lb() {
        return (int) (queried("Lb").lb() / unitOf(map));
    }

    /** Upper bound in elements of the base type (mpiJava). */
    public int Ub() {
        return (int) (queried("Ub").ub() / unitOf(map));
    }

    /** Extent in bytes (Open MPI). */
    public int getExtent() {
        return (int) queried("getExtent").extent();
    }

    /** Size of the data of one item in bytes (Open MPI). */
    public int getSize() {
        return (int) queried("getSize").size();
    }

    /** Lower bound in bytes (Open MPI). */
    public int getLb() {
        return (int) queried("getLb").lb();
    }

    /** Lower bound of the data itself, ignoring markers and resizing, in bytes. */
    public int getTrueLb() {
        return (int) queried("getTrueLb").trueLb();
    }

    /** Extent of the data itself, ignoring markers and resizing, in bytes. */
    public int getTrueExtent() {
        return (int) queried("getTrueExtent").trueExtent();
    }

    /** Bytes per element, as MPJ Express's {@code getByteSize}. */
    public int getByteSize() {
        return getSize();
    }

    private static int unitOf(TypeMap map) {
        return map == null ? 1 : map.unit();
    }

    /** A new type with the same type map and committed state (MPI_Type_dup). */
    public Datatype dup() {
        TypeMap m = queried("dup");
        if (kind != Kind.DERIVED && kind != Kind.PREDEFINED) {
            throw new MPIException(MPI.ERR_TYPE, "dup: " + name + " cannot be duplicated");
        }
        Datatype d = kind == Kind.PREDEFINED ? new Datatype(layout, m, name) : new Datatype(m, name, complexParts);
        d.committed = committed;
        Rank me = Rank.current();
        Attributes mine = me == null ? null : attributes(me, false);
        if (mine != null) {
            d.attributes(me, true).copyValuesOf(mine);
        }
        return d;
    }

    @Override
    public Datatype clone() {
        return dup();
    }

    public void setName(String name) {
        queried("setName");
        if (name == null) {
            throw new MPIException(MPI.ERR_ARG, "setName: name is null");
        }
        this.name = name;
    }

    public String getName() {
        queried("getName");
        return name;
    }

    @Override
    public String toString() {
        return name;
    }

    // ---- attributes (Open MPI) ----------------------------------------------------------------

    /**
     * Each rank's attributes of this type, made on first use: a predefined type is shared by every
     * rank of the JVM, and MPI gives each process its own attributes. Weak keys: a finished job's
     * ranks leave. Guarded by its own lock.
     */
    private volatile Map<Rank, Attributes> attributes;

    /** {@code me}'s attributes of this type; null if it has none and {@code create} is false. */
    private Attributes attributes(Rank me, boolean create) {
        Map<Rank, Attributes> all = attributes;
        if (all == null) {
            if (!create) {
                return null;
            }
            synchronized (this) {
                all = attributes;
                if (all == null) {
                    all = Collections.synchronizedMap(new WeakHashMap<>());
                    attributes = all;
                }
            }
        }
        return create ? all.computeIfAbsent(me, r -> new Attributes()) : all.get(me);
    }

    /** A new key for {@link #setAttr} (keys are numbered across the JVM, as communicators' keys). */
    public static int createKeyval() {
        return Attributes.createKeyval();
    }

    public static void freeKeyval(int keyval) {
        Attributes.freeKeyval("freeKeyval", keyval);
    }

    /** Sets the calling rank's attribute {@code keyval} of this type; {@link #dup} copies it. */
    public void setAttr(int keyval, Object value) {
        queried("setAttr");
        attributes(MPI.initializedRank("setAttr"), true).set("setAttr", keyval, value);
    }

    /** The calling rank's attribute {@code keyval} of this type, or null if not set. */
    public Object getAttr(int keyval) {
        queried("getAttr");
        Rank me = MPI.initializedRank("getAttr");
        Attributes mine = attributes(me, false);
        return (mine != null ? mine : new Attributes()).get("getAttr", keyval);
    }

    public void deleteAttr(int keyval) {
        queried("deleteAttr");
        Rank me = MPI.initializedRank("deleteAttr");
        Attributes mine = attributes(me, false);
        (mine != null ? mine : new Attributes()).delete("deleteAttr", keyval);
    }
}
