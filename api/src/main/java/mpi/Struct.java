package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.TypeMap;

/**
 * A C-like struct stored in a {@code ByteBuffer} or {@code byte[]}, with its MPI datatype (Open MPI
 * Java). A subclass declares its fields in its constructor (field initializers) with the
 * {@code addXxx} methods, each returning the field's byte offset, and says how to make its view
 * object in {@link #newData()}: an inner subclass of {@link Data} whose getters and setters read and
 * write the fields through the protected accessors of {@code Data}.
 *
 * <pre>{@code
 * class Particle extends Struct {
 *     private final int id = addInt(), pos = addDouble(3), tag = addChar();
 *     protected Data newData() { return new Data(); }
 *     class Data extends Struct.Data {
 *         int getId() { return getInt(id); }
 *         double getPos(int i) { return getDouble(pos, i); }
 *         void putPos(int i, double v) { putDouble(pos, i, v); }
 *         ...
 *     }
 * }
 * Particle particle = new Particle();
 * ByteBuffer buf = MPI.newByteBuffer(n * particle.getExtent());
 * Particle.Data p = particle.getData(buf, 7);   // the 8th struct of the buffer
 * MPI.COMM_WORLD.send(buf, n, particle.getType(), 1, 0);
 * }</pre>
 *
 * <p>Layout: C's rules on a machine with natural alignment. A field of {@code byte}, {@code char},
 * {@code short}, {@code int}, {@code long}, {@code float}, {@code double} is aligned to its size; a
 * {@link #addStruct struct field} to its struct's alignment; a {@link #addData datatype field} to
 * its largest basic element. An array field ({@code addInt(3)}) is that many consecutive elements.
 * The struct's alignment is its largest field alignment, and its extent is the end of its last
 * field rounded up to that alignment, so that consecutive structs in a buffer stay aligned
 * ({@code int, double, char} has offsets 0, 8, 16 and extent 24). {@link #setOffset} places the
 * next field at an exact offset instead, aligned or not, and that field does not count toward the
 * struct's alignment: a struct laid out by hand (Open MPI's way) gets the extent it asks for, padded
 * by a final {@code setOffset(extent)} if need be. Fields are read and written in the buffer's byte order; {@code getData(byte[])} views the
 * array in native order, the order of {@code MPI.newByteBuffer} and of the predefined pair structs
 * ({@code MPI.doubleInt}...) that MAXLOC and MINLOC read.
 *
 * <p>The datatype is built, committed, once: by the first {@link #getType}, {@link #getExtent},
 * {@code getData} or {@link #addStruct} of an enclosing struct. Declaring a field after that is an
 * error. Thread-safety: declare the fields in the constructor (one thread); after that a struct is
 * safe to share between ranks, its type being built under its lock and published safely. A
 * {@link Data} view is a cursor confined to one thread.
 */
public abstract class Struct {
    /** The predefined type a pair struct ({@code MPI.int2}...) stands for; null for user structs. */
    private final Datatype predefined;
    /** Fields declared so far; guarded by this, frozen once {@link #built} is set. */
    private final List<Field> declared = new ArrayList<>();
    /** Where the next field may start: the end of the last field, or a {@link #setOffset} offset. */
    private int next;
    /** True when {@link #setOffset} placed {@link #next}: the next field goes there, unaligned. */
    private boolean pinned;
    private int alignment = 1;
    private volatile Built built;

    public Struct() {
        this(null);
    }

    /** A struct that stands for the predefined {@code type}: the fields it declares must match it. */
    Struct(Datatype predefined) {
        this.predefined = predefined;
    }

    /**
     * One field: {@code length} items of {@code itemBytes} bytes from {@code offset}; {@code element}
     * is the basic type of a primitive field (the accessors of that type read it), {@code struct}
     * the struct of a struct field, {@code type} the datatype of the field's items.
     */
    private record Field(int offset, int length, int itemBytes, BasicType element, Struct struct, Datatype type) {
        String describe() {
            String what = struct != null ? struct.getClass().getSimpleName()
                : element != null ? element.name().toLowerCase(java.util.Locale.ROOT) : type.toString();
            return what + (length == 1 ? "" : "[" + length + "]") + " at offset " + offset;
        }
    }

    /** The built struct: immutable. {@code offsets} are the fields' offsets, ascending, for lookups. */
    private record Built(Datatype type, int extent, int alignment, Field[] fields, int[] offsets) {
    }

    // ---- the view -------------------------------------------------------------------------

    /**
     * Creates the view object of this struct: {@code return new Data();} in a subclass whose inner
     * {@code Data} class extends {@link Struct.Data}.
     */
    protected abstract Data newData();

    /** The extent of the struct in bytes: the distance between consecutive structs in a buffer. */
    public final int getExtent() {
        return built("getExtent").extent;
    }

    /** The committed datatype of the struct, to communicate it (the same object on every call). */
    public final Datatype getType() {
        return built("getType").type;
    }

    /** A view of the struct at the start of {@code buffer}. */
    public final <T extends Data> T getData(ByteBuffer buffer) {
        return view("getData", buffer, 0);
    }

    /** A view of the struct at {@code index} of {@code buffer}: bytes from {@code index * getExtent()}. */
    public final <T extends Data> T getData(ByteBuffer buffer, int index) {
        return view("getData", buffer, index);
    }

    /** A view of the struct at the start of {@code array}, in native byte order. */
    public final <T extends Data> T getData(byte[] array) {
        return getData(array, 0);
    }

    /** A view of the struct at {@code index} of {@code array}, in native byte order. */
    public final <T extends Data> T getData(byte[] array, int index) {
        if (array == null) {
            throw new MPIException(MPI.ERR_BUFFER, "getData: array is null");
        }
        return view("getData", ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), index);
    }

    private <T extends Data> T view(String call, ByteBuffer buffer, int index) {
        Built l = built(call);
        if (buffer == null) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": buffer is null");
        }
        if (index < 0 || (long) (index + 1) * l.extent > buffer.capacity()) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": index " + index + " is outside the buffer ("
                + BasicType.describe(buffer) + " of " + buffer.capacity() + " bytes, room for "
                + (l.extent == 0 ? "any number of" : String.valueOf(buffer.capacity() / l.extent)) + " structs of "
                + l.extent + " bytes)");
        }
        return at(call, buffer, index * l.extent);
    }

    /** A view of this struct at byte {@code base} of {@code buffer}. */
    @SuppressWarnings("unchecked")
    private <T extends Data> T at(String call, ByteBuffer buffer, int base) {
        Data d = newData();
        if (d == null || d.struct() != this) {
            throw new MPIException(MPI.ERR_OTHER, call + ": " + getClass().getName() + ".newData() returned "
                + (d == null ? "null" : "a view of another struct") + "; it must return new Data()");
        }
        d.buffer = buffer;
        d.base = base;
        return (T) d;
    }

    // ---- declaring fields -----------------------------------------------------------------

    /**
     * Places the next field at byte {@code offset} exactly, which must not be below the end of the
     * fields declared so far; at the end, it extends the struct.
     *
     * @return this struct, to chain declarations
     */
    public final Struct setOffset(int offset) {
        synchronized (this) {
            open("setOffset");
            if (offset < next) {
                throw new MPIException(MPI.ERR_ARG, "setOffset: offset " + offset + " is below the end of the fields"
                    + " declared so far (" + next + ")");
            }
            next = offset;
            pinned = true;
        }
        return this;
    }

    public final int addByte() {
        return addByte(1);
    }

    /** Declares a {@code byte[length]} field and returns its offset. */
    public final int addByte(int length) {
        return primitive("addByte", BasicType.BYTE, length);
    }

    public final int addChar() {
        return addChar(1);
    }

    /** Declares a {@code char[length]} field (2-byte Java chars) and returns its offset. */
    public final int addChar(int length) {
        return primitive("addChar", BasicType.CHAR, length);
    }

    public final int addShort() {
        return addShort(1);
    }

    public final int addShort(int length) {
        return primitive("addShort", BasicType.SHORT, length);
    }

    public final int addInt() {
        return addInt(1);
    }

    public final int addInt(int length) {
        return primitive("addInt", BasicType.INT, length);
    }

    public final int addLong() {
        return addLong(1);
    }

    public final int addLong(int length) {
        return primitive("addLong", BasicType.LONG, length);
    }

    public final int addFloat() {
        return addFloat(1);
    }

    public final int addFloat(int length) {
        return primitive("addFloat", BasicType.FLOAT, length);
    }

    public final int addDouble() {
        return addDouble(1);
    }

    public final int addDouble(int length) {
        return primitive("addDouble", BasicType.DOUBLE, length);
    }

    /** Declares a field holding one {@code struct}; read it with {@link Data#getData(Struct, int)}. */
    public final int addStruct(Struct struct) {
        return addStruct(struct, 1);
    }

    /** Declares an array field of {@code length} structs; building {@code struct}'s type if not yet built. */
    public final int addStruct(Struct struct, int length) {
        String call = "addStruct";
        if (struct == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": struct is null");
        }
        if (struct == this) {
            throw new MPIException(MPI.ERR_ARG, call + ": a struct cannot contain itself");
        }
        Built inner = struct.built(call);
        return add(call, new Field(0, length, inner.extent, null, struct, inner.type), inner.alignment);
    }

    /** Declares a field of one item of {@code type}. */
    public final int addData(Datatype type) {
        return addData(type, 1);
    }

    /**
     * Declares a field of {@code length} items of {@code type}, whose data must lie within its extent
     * from its lower bound 0 (as a C member); the field is aligned to the largest basic element of
     * {@code type}. A predefined basic type ({@code MPI.INT}) makes the same field as {@code addInt}.
     */
    public final int addData(Datatype type, int length) {
        String call = "addData";
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": type is null");
        }
        TypeMap map = type.part(call, "type");
        if (map.isObjects()) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + type + " holds Java objects, which cannot live in a"
                + " byte buffer");
        }
        if (map.lb() != 0 || map.trueLb() < 0 || map.trueLb() + map.trueExtent() > map.extent()) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + type + " has data outside [0, extent) (lb " + map.lb()
                + ", extent " + map.extent() + ", data from " + map.trueLb() + " to "
                + (map.trueLb() + map.trueExtent()) + "); resize it with createResized");
        }
        BasicType element = type.predefined() && type.layout.isBasic() ? accessible(type.basic) : null;
        int align = 1;
        for (int r = 0; r < map.runs(); r++) {
            align = Math.max(align, map.type(r).size());
        }
        return add(call, new Field(0, length, (int) map.extent(), element, null, type), align);
    }

    /** {@code type} when the {@link Data} accessors read it, else null (a field read as raw bytes). */
    private static BasicType accessible(BasicType type) {
        return switch (type) {
            case BYTE, CHAR, SHORT, INT, LONG, FLOAT, DOUBLE -> type;
            default -> null;
        };
    }

    private int primitive(String call, BasicType element, int length) {
        return add(call, new Field(0, length, element.size(), element, null, primitiveType(element)), element.size());
    }

    private static Datatype primitiveType(BasicType element) {
        return switch (element) {
            case BYTE -> Datatype.BYTE;
            case CHAR -> Datatype.CHAR;
            case SHORT -> Datatype.SHORT;
            case INT -> Datatype.INT;
            case LONG -> Datatype.LONG;
            case FLOAT -> Datatype.FLOAT;
            case DOUBLE -> Datatype.DOUBLE;
            default -> throw new IllegalArgumentException(element.name());
        };
    }

    /** Appends {@code f} (its offset still 0) at the next offset aligned to {@code align}. */
    private synchronized int add(String call, Field f, int align) {
        open(call);
        if (f.length < 1) {
            throw new MPIException(MPI.ERR_ARG, call + ": length " + f.length + " must be at least 1");
        }
        int offset = pinned ? next : alignUp(next, align);
        long end = offset + (long) f.length * f.itemBytes;
        if (end > Integer.MAX_VALUE) {
            throw new MPIException(MPI.ERR_ARG, call + ": the struct would be larger than 2^31 bytes");
        }
        declared.add(new Field(offset, f.length, f.itemBytes, f.element, f.struct, f.type));
        if (!pinned) {
            alignment = Math.max(alignment, align);
        }
        next = (int) end;
        pinned = false;
        return offset;
    }

    private void open(String call) {
        if (built != null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": the datatype of " + getClass().getName() + " is already"
                + " built (by getType, getExtent, getData or an enclosing addStruct); declare every field before");
        }
    }

    private static int alignUp(int offset, int align) {
        return (offset + align - 1) / align * align;
    }

    // ---- building the type ----------------------------------------------------------------

    private Built built(String call) {
        Built b = built;
        return b != null ? b : build(call);
    }

    private synchronized Built build(String call) {
        if (built != null) {
            return built;
        }
        if (declared.isEmpty()) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + getClass().getName() + " declares no fields");
        }
        long end = (long) alignUp(next, alignment);
        if (end > Integer.MAX_VALUE) {
            throw new MPIException(MPI.ERR_ARG, call + ": the struct would be larger than 2^31 bytes");
        }
        int extent = (int) end;
        Field[] fields = declared.toArray(new Field[0]);
        int[] offsets = new int[fields.length];
        int[] lengths = new int[fields.length];
        Datatype[] types = new Datatype[fields.length];
        for (int i = 0; i < fields.length; i++) {
            offsets[i] = fields[i].offset;
            lengths[i] = fields[i].length;
            types[i] = fields[i].type;
        }
        Datatype type;
        if (predefined != null) {
            if (predefined.getExtent() != extent) {
                throw new AssertionError(predefined + ": extent " + predefined.getExtent() + ", fields " + extent);
            }
            type = predefined;
        } else {
            type = Datatype.createResized(Datatype.createStruct(lengths, offsets, types), 0, extent);
            type.setName(getClass().getName());
            type.commit();
        }
        built = new Built(type, extent, alignment, fields, offsets);
        return built;
    }

    /** The field at {@code offset}; {@code call} names the accessor for the error. */
    private Field field(String call, int offset) {
        Built l = built;
        int i = java.util.Arrays.binarySearch(l.offsets, offset);
        if (i < 0) {
            StringBuilder known = new StringBuilder();
            for (Field f : l.fields) {
                known.append(known.length() == 0 ? "" : ", ").append(f.describe());
            }
            throw new MPIException(MPI.ERR_ARG, call + ": no field of " + getClass().getName() + " starts at offset "
                + offset + " (fields: " + known + ")");
        }
        return l.fields[i];
    }

    /**
     * The view of one struct in a buffer, created by {@link Struct#newData()} and bound to a buffer
     * position by {@code getData}. Subclasses (inner classes of the struct) read and write the fields
     * with the protected accessors, which take a field's offset as {@code addXxx} returned it and, for
     * array fields, an element index. Each access is checked: the field exists, has the accessor's
     * type (or is a {@link Struct#addData datatype field} read as raw elements) and holds the index.
     *
     * <p>Not thread-safe: a view is a cursor for one thread (views are cheap; make one per thread).
     */
    public abstract class Data {
        private ByteBuffer buffer;
        private int base;

        private Struct struct() {
            return Struct.this;
        }

        /**
         * The buffer of this struct, starting at it: the buffer given to {@code getData} when the
         * struct is the first one, else a slice from the struct (same byte order). It can be used in
         * {@code send}/{@code recv}.
         */
        public final ByteBuffer getBuffer() {
            ByteBuffer b = bound("getBuffer");
            return base == 0 ? b : b.slice(base, b.capacity() - base).order(b.order());
        }

        /**
         * Open MPI: a buffer over the first item of the field at offset {@code field} (a field of
         * any type, as {@code addData(type)} added it), as long as one item of {@code type} (its
         * extent in bytes, within the buffer) and in the same byte order: to read or send that item
         * on its own.
         */
        protected final ByteBuffer getBuffer(Datatype type, int field) {
            return getBuffer(type, field, 0);
        }

        /** As {@link #getBuffer(Datatype, int)}, over item {@code index} of the field. */
        protected final ByteBuffer getBuffer(Datatype type, int field, int index) {
            String call = "getBuffer";
            ByteBuffer b = bound(call);
            if (type == null || type.map == null) {
                throw new MPIException(MPI.ERR_TYPE, call + ": datatype is " + (type == null ? "null" : type));
            }
            Field f = field(call, field);
            if (index < 0 || index >= f.length) {
                throw new MPIException(MPI.ERR_ARG, call + ": index " + index + " is outside the field (" + f.describe()
                    + ", " + f.length + " items)");
            }
            int start = base + field + index * f.itemBytes;
            int length = (int) Math.max(0, Math.min(type.map.extent(), b.capacity() - start));
            return b.slice(start, length).order(b.order());
        }

        private ByteBuffer bound(String call) {
            if (buffer == null) {
                throw new MPIException(MPI.ERR_BUFFER, call + ": this Data is not bound to a buffer; obtain it from "
                    + "Struct.getData");
            }
            return buffer;
        }

        /** The absolute byte position of element {@code index} of the {@code element} field at {@code offset}. */
        private int position(String call, BasicType element, int offset, int index) {
            bound(call);
            Field f = field(call, offset);
            int size = element.size();
            boolean raw = f.element == null && f.struct == null;
            if (f.element != element && !raw) {
                throw new MPIException(MPI.ERR_TYPE, call + ": the field is " + f.describe() + ", not "
                    + element.name().toLowerCase(java.util.Locale.ROOT));
            }
            long elements = raw ? (long) f.length * f.itemBytes / size : f.length;
            if (index < 0 || index >= elements) {
                throw new MPIException(MPI.ERR_ARG, call + ": index " + index + " is outside the field (" + f.describe()
                    + ", " + elements + " elements)");
            }
            return base + offset + index * size;
        }

        private ByteBuffer writable(String call) {
            ByteBuffer b = bound(call);
            if (b.isReadOnly()) {
                throw new MPIException(MPI.ERR_BUFFER, call + ": the buffer is read-only");
            }
            return b;
        }

        protected final byte getByte(int field) {
            return getByte(field, 0);
        }

        protected final byte getByte(int field, int index) {
            return buffer.get(position("getByte", BasicType.BYTE, field, index));
        }

        protected final void putByte(int field, byte value) {
            putByte(field, 0, value);
        }

        protected final void putByte(int field, int index, byte value) {
            writable("putByte").put(position("putByte", BasicType.BYTE, field, index), value);
        }

        protected final char getChar(int field) {
            return getChar(field, 0);
        }

        protected final char getChar(int field, int index) {
            return buffer.getChar(position("getChar", BasicType.CHAR, field, index));
        }

        protected final void putChar(int field, char value) {
            putChar(field, 0, value);
        }

        protected final void putChar(int field, int index, char value) {
            writable("putChar").putChar(position("putChar", BasicType.CHAR, field, index), value);
        }

        protected final short getShort(int field) {
            return getShort(field, 0);
        }

        protected final short getShort(int field, int index) {
            return buffer.getShort(position("getShort", BasicType.SHORT, field, index));
        }

        protected final void putShort(int field, short value) {
            putShort(field, 0, value);
        }

        protected final void putShort(int field, int index, short value) {
            writable("putShort").putShort(position("putShort", BasicType.SHORT, field, index), value);
        }

        protected final int getInt(int field) {
            return getInt(field, 0);
        }

        protected final int getInt(int field, int index) {
            return buffer.getInt(position("getInt", BasicType.INT, field, index));
        }

        protected final void putInt(int field, int value) {
            putInt(field, 0, value);
        }

        protected final void putInt(int field, int index, int value) {
            writable("putInt").putInt(position("putInt", BasicType.INT, field, index), value);
        }

        protected final long getLong(int field) {
            return getLong(field, 0);
        }

        protected final long getLong(int field, int index) {
            return buffer.getLong(position("getLong", BasicType.LONG, field, index));
        }

        protected final void putLong(int field, long value) {
            putLong(field, 0, value);
        }

        protected final void putLong(int field, int index, long value) {
            writable("putLong").putLong(position("putLong", BasicType.LONG, field, index), value);
        }

        protected final float getFloat(int field) {
            return getFloat(field, 0);
        }

        protected final float getFloat(int field, int index) {
            return buffer.getFloat(position("getFloat", BasicType.FLOAT, field, index));
        }

        protected final void putFloat(int field, float value) {
            putFloat(field, 0, value);
        }

        protected final void putFloat(int field, int index, float value) {
            writable("putFloat").putFloat(position("putFloat", BasicType.FLOAT, field, index), value);
        }

        protected final double getDouble(int field) {
            return getDouble(field, 0);
        }

        protected final double getDouble(int field, int index) {
            return buffer.getDouble(position("getDouble", BasicType.DOUBLE, field, index));
        }

        protected final void putDouble(int field, double value) {
            putDouble(field, 0, value);
        }

        protected final void putDouble(int field, int index, double value) {
            writable("putDouble").putDouble(position("putDouble", BasicType.DOUBLE, field, index), value);
        }

        /** The view of the struct in the struct field at {@code field} (declared with {@code addStruct(struct)}). */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field) {
            return getData(struct, field, 0);
        }

        /** The view of struct {@code index} of the struct array field at {@code field}. */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field, int index) {
            String call = "getData";
            ByteBuffer b = bound(call);
            if (struct == null) {
                throw new MPIException(MPI.ERR_ARG, call + ": struct is null");
            }
            Field f = field(call, field);
            if (f.struct == null || (f.struct != struct
                && (f.struct.getClass() != struct.getClass() || f.itemBytes != struct.getExtent()))) {
                throw new MPIException(MPI.ERR_TYPE, call + ": the field is " + f.describe() + ", not a "
                    + struct.getClass().getSimpleName());
            }
            if (index < 0 || index >= f.length) {
                throw new MPIException(MPI.ERR_ARG, call + ": index " + index + " is outside the field ("
                    + f.describe() + ")");
            }
            return ((Struct) struct).at(call, b, base + field + index * f.itemBytes);
        }
    }
}
