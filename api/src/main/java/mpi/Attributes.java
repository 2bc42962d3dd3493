package mpi;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.mpjlite.smpdev.Rank;

/**
 * One rank's name, attributes, error handler and info hints of one communicator ({@code setName},
 * {@code setAttr}, {@code setErrhandler}, {@code setInfo}), and the
 * keys of attributes: the predefined ones ({@code MPI.TAG_UB}, {@code MPI.HOST}, {@code MPI.IO},
 * {@code MPI.WTIME_IS_GLOBAL}, {@code MPI.APPNUM}, {@code MPI.LASTUSEDCODE},
 * {@code MPI.UNIVERSE_SIZE}), which every communicator has and nobody sets, and the program's, from
 * {@link #createKeyval}.
 *
 * <p>Keys are numbered across the JVM, so a key made by one rank is never another rank's; a freed
 * key is never handed out again. As in MPI, a key freed ({@link #freeKeyval}) while attributes are
 * still set under it lives on until the last of them is deleted (by {@code deleteAttr} or by freeing
 * the communicator): those attributes can still be read and deleted under the key's number (Open
 * MPI's Java binding cannot reset the caller's {@code int} to {@code MPI_KEYVAL_INVALID}, so programs
 * go on using it), but nothing can be set under it any more.
 *
 * <p>Thread-safe: values live in a concurrent map, the name in a volatile field, the keys in a
 * concurrent map; a key's state (freed, how many attributes use it) changes under the key's lock,
 * together with the value it counts.
 */
final class Attributes {
    /** Keys below this are predefined (MPI.TAG_UB is 0 ... MPI.WIN_DISP_UNIT 9, Open MPI's order). */
    private static final int FIRST_USER_KEYVAL = 16;
    private static final AtomicInteger NEXT_KEYVAL = new AtomicInteger(FIRST_USER_KEYVAL);
    private static final Map<Integer, Keyval> KEYVALS = new ConcurrentHashMap<>();

    /** A key from {@link #createKeyval} that is not gone yet: not freed, or still in use. */
    private static final class Keyval {
        /** Guarded by this. */
        private boolean freed;
        /** How many attributes are set under the key, over every communicator. Guarded by this. */
        private int uses;

        /** Called holding this: forgets the key once it is freed and nothing uses it. */
        private void forgetIfUnused(int keyval) {
            if (freed && uses == 0) {
                KEYVALS.remove(keyval, this);
            }
        }
    }

    /** Where a rank keeps its attributes of a predefined communicator shared by the ranks of a job. */
    record Key(int rank, int context) {
    }

    /** The name the program gave the communicator, or null. */
    volatile String name;
    /** The handler the program set, or null: {@link Errhandler#ERRORS_RETURN}. */
    volatile Errhandler errhandler;
    /** The hints the program set ({@code setInfo}), in order; replaced, never changed in place. */
    volatile Map<String, String> hints = Map.of();
    private final Map<Integer, Object> values = new ConcurrentHashMap<>();
    /**
     * How many calls of each kind made without a collective ({@code iDup}, {@code createGroup} with
     * its arguments) the rank made on the communicator: numbers them alike on every member.
     */
    private final Map<Object, AtomicInteger> sequences = new ConcurrentHashMap<>();

    // ---- keys ---------------------------------------------------------------------------------

    static int createKeyval() {
        int k = NEXT_KEYVAL.getAndIncrement();
        if (k < FIRST_USER_KEYVAL) {
            throw new MPIException(MPI.ERR_INTERN, "createKeyval: the JVM has used up its 2^31 attribute keys");
        }
        KEYVALS.put(k, new Keyval());
        return k;
    }

    /**
     * Marks the key freed: nothing can be set under it any more, and it is forgotten (then
     * {@code MPI.ERR_KEYVAL} everywhere) once no attribute is set under it.
     */
    static void freeKeyval(String call, int keyval) {
        if (isPredefined(keyval)) {
            throw new MPIException(MPI.ERR_KEYVAL, call + ": keyval " + keyval + " is predefined and cannot be freed");
        }
        Keyval k = keyval(call, keyval);
        synchronized (k) {
            if (k.freed) {
                throw new MPIException(MPI.ERR_KEYVAL, call + ": keyval " + keyval + " was freed already");
            }
            k.freed = true;
            k.forgetIfUnused(keyval);
        }
    }

    static boolean isPredefined(int keyval) {
        return keyval == MPI.TAG_UB || keyval == MPI.HOST || keyval == MPI.IO || keyval == MPI.WTIME_IS_GLOBAL
            || keyval == MPI.APPNUM || keyval == MPI.LASTUSEDCODE || keyval == MPI.UNIVERSE_SIZE;
    }

    /**
     * The value of a predefined attribute: the largest tag; no host rank ({@code MPI.PROC_NULL});
     * {@code MPI.ANY_SOURCE} for I/O, which MPI prescribes when every rank can do I/O; 1 for a global
     * clock (the ranks share the JVM's); {@code me}'s application number and the universe's size
     * (see {@link DynamicProcesses#appnum}); {@code MPI.ERR_LASTCODE} as the last error code.
     */
    static int predefined(int keyval, Rank me) {
        switch (keyval) {
            case MPI.TAG_UB:
                return MPI.TAG_UB_VALUE;
            case MPI.HOST:
                return MPI.PROC_NULL;
            case MPI.IO:
                return MPI.ANY_SOURCE;
            case MPI.WTIME_IS_GLOBAL:
                return 1;
            case MPI.APPNUM:
                return DynamicProcesses.appnum(me);
            case MPI.LASTUSEDCODE:
                return MPI.ERR_LASTCODE;
            case MPI.UNIVERSE_SIZE:
                return DynamicProcesses.universeSize(me);
            default:
                throw new IllegalArgumentException("not a predefined keyval: " + keyval);
        }
    }

    private static Keyval keyval(String call, int keyval) {
        Keyval k = KEYVALS.get(keyval);
        if (k == null) {
            throw new MPIException(MPI.ERR_KEYVAL, call + ": keyval " + keyval + " is not a key from createKeyval"
                + " (or was freed and no attribute uses it)");
        }
        return k;
    }

    // ---- one communicator's values ------------------------------------------------------------

    /** The number of this rank's call of {@code kind} on the communicator: 0, then 1... */
    int next(Object kind) {
        return sequences.computeIfAbsent(kind, k -> new AtomicInteger()).getAndIncrement();
    }

    /** The program's value under {@code keyval}, or null. */
    Object get(String call, int keyval) {
        keyval(call, keyval);
        return values.get(keyval);
    }

    void set(String call, int keyval, Object value) {
        if (isPredefined(keyval)) {
            throw new MPIException(MPI.ERR_KEYVAL, call + ": keyval " + keyval + " is predefined and read-only");
        }
        Keyval k = keyval(call, keyval);
        if (value == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": value is null (deleteAttr removes an attribute)");
        }
        synchronized (k) {
            if (k.freed) {
                throw new MPIException(MPI.ERR_KEYVAL, call + ": keyval " + keyval + " was freed");
            }
            put(k, keyval, value);
        }
    }

    /** Called holding {@code k}: sets the value and counts a new attribute as a use of the key. */
    private void put(Keyval k, int keyval, Object value) {
        if (values.put(keyval, value) == null) {
            k.uses++;
        }
    }

    /** Deletes the program's value under {@code keyval}, if any. */
    void delete(String call, int keyval) {
        if (isPredefined(keyval)) {
            throw new MPIException(MPI.ERR_KEYVAL, call + ": keyval " + keyval + " is predefined and cannot be deleted");
        }
        remove(keyval(call, keyval), keyval);
    }

    private void remove(Keyval k, int keyval) {
        if (k == null) { // another thread of the rank deleted it meanwhile
            return;
        }
        synchronized (k) {
            if (values.remove(keyval) != null) {
                k.uses--;
                k.forgetIfUnused(keyval);
            }
        }
    }

    /** Deletes every value, as freeing the communicator does: a freed key none uses any more is forgotten. */
    void deleteAll() {
        for (Integer keyval : values.keySet()) {
            remove(KEYVALS.get(keyval), keyval);
        }
    }

    /**
     * Takes the values of {@code original}, whose communicator this one's duplicates: as Open MPI's
     * keys do, every value is copied (the same object: values are usually immutable). The name is not
     * (MPI). The info hints are (MPI_Comm_dup duplicates them).
     */
    void copyValuesOf(Attributes original) {
        original.values.forEach((keyval, value) -> {
            Keyval k = KEYVALS.get(keyval);
            if (k != null) { // null only if another thread of the rank deleted it meanwhile
                synchronized (k) {
                    put(k, keyval, value);
                }
            }
        });
        hints = original.hints;
    }
}
