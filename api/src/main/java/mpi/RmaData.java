package mpi;

import java.nio.ByteBuffer;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.Copier;
import org.mpjlite.smpdev.data.Packing;
import org.mpjlite.smpdev.data.TypeMap;
import org.mpjlite.smpdev.collective.Collectives;
import org.mpjlite.smpdev.collective.Reduction;

/**
 * The data movement of one-sided operations, between an origin's buffer and a target's window
 * memory, both described by datatypes: checks of the arguments (MPI error classes), then the copy.
 * Every operation runs at the call, inside the caller's access epoch, so it is complete when the
 * call returns (which MPI allows: completion may come at any time up to the closing
 * synchronization).
 *
 * <p>Contiguous data of one basic type move with one {@link Copier} copy; other data go through a
 * packed temporary (the elements one after the other, {@link Packing}), so any pair of datatypes
 * with the same type signature works, on arrays and on NIO buffers of any byte order. Accumulates read the target's elements, combine them with the predefined reduction
 * ({@link Collectives#reduceLocal}) and write them back, all under the target memory's accumulate
 * monitor ({@link WinState#accumulateLock}), so concurrent accumulates to the same target are
 * atomic per element.
 *
 * <p>Stateless; thread-safe.
 */
final class RmaData {
    private RmaData() {
    }

    /** Where an operation's target data lie: the member's buffer and the byte of its first item's origin. */
    record Target(Object memory, long at) {
    }

    // ---- argument checks --------------------------------------------------------------------

    /**
     * The target memory of {@code count} items of {@code type} at displacement {@code disp} of member
     * {@code target}; null when the operation moves no data.
     */
    static Target target(String call, WinState w, int target, long disp, int count, Datatype type) {
        noObjects(call, "target datatype", type);
        if (count < 0) {
            throw new MPIException(MPI.ERR_COUNT, call + ": target count must be >= 0, was " + count);
        }
        if (disp < 0) {
            throw new MPIException(MPI.ERR_DISP, call + ": target displacement must be >= 0, was " + disp);
        }
        TypeMap m = type.map;
        if (count == 0 || m.size() == 0) {
            return null;
        }
        long pos = disp * w.dispUnit(target);
        long last = (count - 1) * m.extent();
        long lo = pos + m.trueLb() + Math.min(0, last);
        long hi = pos + m.trueLb() + m.trueExtent() + Math.max(0, last);
        WinState.Region region = null;
        for (WinState.Region r : w.regions(target)) {
            if (lo >= r.address() && hi <= r.address() + r.size()) {
                region = r;
                break;
            }
        }
        if (region == null) {
            throw new MPIException(MPI.ERR_RMA_RANGE, call + ": " + count + " items of " + type + " at displacement "
                + disp + " span bytes " + lo + " to " + (hi - 1) + ", outside " + memoryOf(w, target));
        }
        Object memory = region.buffer();
        long at = pos - region.address();
        if (type.basic.capacityOf(memory) < 0) {
            throw new MPIException(MPI.ERR_TYPE, call + ": target datatype " + type + " does not match the window"
                + " memory of rank " + target + ", a " + BasicType.describe(memory) + " (window memory of another type"
                + " than a ByteBuffer holds its own type only)");
        }
        if (!(memory instanceof ByteBuffer) && (at % type.unit() != 0 || !m.isAligned())) {
            throw new MPIException(MPI.ERR_DISP, call + ": the target data at byte " + at + " of rank " + target
                + "'s window memory, a " + BasicType.describe(memory) + ", are not whole " + type.basic.mpiName()
                + " elements");
        }
        return new Target(memory, at);
    }

    private static String memoryOf(WinState w, int target) {
        WinState.Region[] regions = w.regions(target);
        if (w.flavor == Win.FLAVOR_DYNAMIC) {
            StringBuilder s = new StringBuilder("the memory rank " + target + " has attached (");
            for (int i = 0; i < regions.length; i++) {
                s.append(i == 0 ? "" : ", ").append("bytes ").append(regions[i].address()).append(" to ")
                    .append(regions[i].address() + regions[i].size() - 1);
            }
            return s.append(regions.length == 0 ? "none)" : ")").toString();
        }
        long size = regions.length == 0 ? 0 : regions[0].size();
        return "the window of rank " + target + " (" + size + " bytes, displacement unit " + w.dispUnit(target) + ")";
    }

    /** An origin-side buffer (origin, result, compare) holds {@code count} items of {@code type}. */
    static void buffer(String call, String which, Object buf, int count, Datatype type, boolean written) {
        noObjects(call, which + " datatype", type);
        Check.buffer(call, which, buf, 0, count, type.units(), type);
        if (written) {
            Check.writable(call, buf);
        }
    }

    private static void noObjects(String call, String which, Datatype type) {
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + which + " is null");
        }
        type.usable(call);
        if (type.map.isObjects()) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + which + " " + type + " holds objects; window memory"
                + " holds primitive data only");
        }
    }

    /** Origin-side and target data have the same type signature. */
    static void sameSignature(String call, String which, int count, Datatype type, int tcount, Datatype ttype) {
        long n = (long) count * type.map.elements();
        long tn = (long) tcount * ttype.map.elements();
        long matched = TypeMap.match(type.map, count, ttype.map, tcount);
        if (matched < 0) {
            throw new MPIException(MPI.ERR_TYPE, call + ": the " + which + " datatype " + type + " and the target datatype "
                + ttype + " differ in type at element " + (-1 - matched));
        }
        if (n != tn) {
            throw new MPIException(MPI.ERR_COUNT, call + ": the " + which + " data (" + count + " x " + type + ", " + n
                + " elements) and the target data (" + tcount + " x " + ttype + ", " + tn + " elements) differ in length");
        }
    }

    /** The predefined reduction an accumulate applies to items of {@code type} at the target. */
    static Reduction reduction(String call, Op op, Datatype type) {
        if (type.map.base() == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": accumulate needs items of one predefined element type; "
                + type + " mixes " + type.map.describeSignature());
        }
        Reduction r = Check.op(call, op, type.direct() ? type : type.packed());
        if (r.builtin() == null) {
            throw new MPIException(MPI.ERR_OP, call + ": " + op + " is user-defined; one-sided accumulates take the"
                + " predefined operations only (MPI.SUM, MPI.MAX, ..., MPI.REPLACE, MPI.NO_OP)");
        }
        return r;
    }

    // ---- data movement ----------------------------------------------------------------------

    /** Copies {@code count} items of {@code type} from byte {@code at} of {@code buf} into a new packed temporary. */
    static Object pack(Object buf, long at, int count, Datatype type) {
        TypeMap m = type.map;
        BasicType base = m.base();
        Object packed = base != null ? base.newArray(Math.toIntExact(m.elements() * count))
            : new byte[Math.toIntExact(m.size() * count)];
        Packing.pack(buf, at, count, m, packed, 0);
        return packed;
    }

    /** Copies a packed temporary into {@code count} items of {@code type} from byte {@code at} of {@code buf}. */
    static void unpack(Object packed, Object buf, long at, int count, Datatype type) {
        Packing.unpack(packed, 0, buf, at, count, type.map, null);
    }

    static void put(Object origin, int count, Datatype type, Target t, int tcount, Datatype ttype) {
        if (oneCopy(type, ttype, t)) {
            BasicType base = type.map.base();
            Copier.copy(origin, 0, t.memory(), (int) (t.at() / base.size()), elements(count, type), base);
        } else {
            unpack(pack(origin, 0, count, type), t.memory(), t.at(), tcount, ttype);
        }
    }

    static void get(Object origin, int count, Datatype type, Target t, int tcount, Datatype ttype) {
        if (oneCopy(type, ttype, t)) {
            BasicType base = type.map.base();
            Copier.copy(t.memory(), (int) (t.at() / base.size()), origin, 0, elements(count, type), base);
        } else {
            unpack(pack(t.memory(), t.at(), tcount, ttype), origin, 0, count, type);
        }
    }

    /**
     * True when both sides are contiguous runs of one basic type and the target data start at a
     * whole element: the data move with one {@link Copier} copy (which converts between the byte
     * orders of ByteBuffers) instead of through a packed temporary.
     */
    private static boolean oneCopy(Datatype type, Datatype ttype, Target t) {
        BasicType base = type.map.base();
        return base != null && base == ttype.map.base() && type.direct() && ttype.direct()
            && t.at() % base.size() == 0;
    }

    private static int elements(int count, Datatype type) {
        return Math.toIntExact(type.map.elements() * count);
    }

    /**
     * Atomically (w.r.t. other accumulates to {@code target}): copies the target data into
     * {@code result} if it is not null, then combines the origin data ({@code packedOrigin}, null for
     * {@code MPI.NO_OP}) into them with {@code r}.
     */
    static void accumulate(WinState w, int target, Object packedOrigin, Reduction r, Target t, int tcount,
                           Datatype ttype, Object result, int rcount, Datatype rtype) {
        synchronized (w.accumulateLock(target)) {
            Object current = pack(t.memory(), t.at(), tcount, ttype);
            if (result != null) {
                unpack(current, result, 0, rcount, rtype);
            }
            if (packedOrigin != null) {
                Collectives.reduceLocal(packedOrigin, 0, current, 0, java.lang.reflect.Array.getLength(current),
                    ttype.map.base(), r);
                unpack(current, t.memory(), t.at(), tcount, ttype);
            }
        }
    }

    /**
     * Atomically (w.r.t. accumulates to {@code target}): copies the target element into
     * {@code result}, and replaces it with the origin's if it equals the compare element (bit for
     * bit: MPI compares the representations).
     */
    static void compareAndSwap(WinState w, int target, Object origin, Object compare, Object result, Datatype type,
                               Target t) {
        Object replacement = pack(origin, 0, 1, type);
        Object expected = pack(compare, 0, 1, type);
        synchronized (w.accumulateLock(target)) {
            Object current = pack(t.memory(), t.at(), 1, type);
            unpack(current, result, 0, 1, type);
            if (java.lang.reflect.Array.get(current, 0).equals(java.lang.reflect.Array.get(expected, 0))) {
                unpack(replacement, t.memory(), t.at(), 1, type);
            }
        }
    }
}
