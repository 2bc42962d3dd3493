package mpi;

import java.lang.invoke.VarHandle;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.ShortBuffer;
import java.nio.IntBuffer;
import java.nio.FloatBuffer;
import org.mpjlite.smpdev.error.ErrorClass;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.collective.Reduction;

/**
 * A window of memory for one-sided communication (MPI-3 RMA), in Open MPI's Java form: each member
 * of a communicator exposes memory that the others read ({@link #get}), write ({@link #put}) and
 * update ({@link #accumulate}, {@link #getAccumulate}, {@link #fetchAndOp},
 * {@link #compareAndSwap}) without the owner taking part, inside access epochs opened by
 * {@link #fence}, {@link #lock}/{@link #lockAll} or {@link #start} (with the targets' {@link #post}).
 *
 * <p>Four ways to make one, each collective over the communicator's members (an intracommunicator):
 * <ul>
 *   <li>{@link #Win(Buffer, int, int, Info, Comm)}, MPI_Win_create: over the first {@code size}
 *       bytes of a buffer the caller owns, direct or heap, of any element type (a typed buffer, such
 *       as an {@code IntBuffer}, is then accessed with its own type only; a {@code ByteBuffer} with
 *       any type, in its byte order);</li>
 *   <li>{@link #Win(int, int, Info, Comm, Buffer, int)} with {@link #FLAVOR_PRIVATE} or
 *       {@link #FLAVOR_SHARED}, MPI_Win_allocate and MPI_Win_allocate_shared: {@code base} becomes the
 *       window memory as in MPI_Win_create; a null {@code base} makes MPJ Lite allocate a direct
 *       native-order {@code ByteBuffer} of {@code size} bytes, which {@code getAttr(MPI.WIN_BASE)}
 *       returns. Every rank is a thread of one JVM, so all memory is shared; Open MPI's Java binding
 *       has no MPI_Win_shared_query and neither has MPJ Lite;</li>
 *   <li>{@link #Win(Info, Comm)}, MPI_Win_create_dynamic: no memory until a member
 *       {@link #attach}es some. Java has no addresses, so attached memory gets window addresses
 *       (displacements, in bytes): each member lays its attached buffers out in attach order from
 *       address 0, each at the next multiple of 8 bytes after the previous one; addresses are never
 *       reused after {@link #detach}. {@link #attach} returns nothing (Open MPI's signature), so a
 *       program computes the addresses or exchanges them.</li>
 * </ul>
 * Buffers are addressed from index 0 whatever their position, as everywhere in the Open MPI dialect;
 * a target displacement {@code d} means byte {@code d * dispUnit} of the target's memory.
 *
 * <p>Semantics (MPI-3.1 chapter 11). Operations run when called, so they are complete (at origin and
 * target) when the call returns; the synchronization calls order them with everything else:
 * <ul>
 *   <li>an operation outside an access epoch to its target is {@code MPI.ERR_RMA_SYNC}; a target
 *       region outside the target's window (or its attached memory) is {@code MPI.ERR_RMA_RANGE}, a
 *       negative displacement {@code MPI.ERR_DISP}; the request-based {@code rPut}... need a passive
 *       target epoch ({@link #lock} or {@link #lockAll}), as in MPI;</li>
 *   <li>accumulates ({@code accumulate}, {@code getAccumulate}, {@code fetchAndOp},
 *       {@code compareAndSwap}) to the same target are atomic per element with respect to each
 *       other; they take predefined operations only, {@code MPI.REPLACE} and {@code MPI.NO_OP}
 *       included;</li>
 *   <li>{@link #fence} is a collective over the window's members (mismatched with another window
 *       collective, such as {@link #free} on another rank, it fails on every rank with
 *       {@code MPI.ERR_NOT_SAME}); {@code MODE_NOPRECEDE} and {@code MODE_NOSUCCEED} must be given
 *       by all members or none, and {@code MODE_NOPRECEDE} after operations since the last fence is
 *       {@code MPI.ERR_ASSERT} on every member;</li>
 *   <li>{@link #lock} with {@code LOCK_EXCLUSIVE} excludes every other lock of the target's memory;
 *       shared locks coexist; {@link #lockAll} takes a shared lock on every member, in rank order.
 *       {@link #lock} returns once the lock is held; {@link #start} once every target of its group
 *       has posted (MPI allows both to block);</li>
 *   <li>waits (lock, start, waitFor) go through the device's wait path: they park when the ranks
 *       outnumber the cores, end with an error when the job fails or the thread is interrupted,
 *       and a wait that can never end (a lock never released, a post that never comes) ends the job
 *       with the deadlock report naming the call;</li>
 *   <li>{@code flush}, {@code flushLocal} and their {@code All} forms need a passive target epoch and
 *       have nothing left to complete; {@link #sync} is a full memory fence, valid at any time.</li>
 * </ul>
 * Errors go through the window's error handler, {@code MPI.ERRORS_RETURN} unless
 * {@link #setErrhandler} sets another, as for communicators ({@link Errhandler}). Of the info hints
 * only {@code no_locks} is used: with {@code "true"} the program promises no passive target
 * synchronization, and {@code lock}/{@code lockAll} are {@code MPI.ERR_RMA_SYNC}, as in Open MPI;
 * {@link #getInfo} returns an empty info object.
 *
 * <p>Thread safety: a window object is one rank's handle; its threads may call it concurrently at
 * {@code THREAD_MULTIPLE} (its epoch bookkeeping is guarded by the handle's monitor, never held
 * while waiting). Memory ordering: an operation's effect on the target's memory happens-before
 * whatever follows the synchronization that ends its epoch at the target (the fence's collective,
 * the release of the lock, the complete that the target's wait sees).
 */
public final class Win implements Freeable {
    /** Open MPI's handle value of a null window. */
    public static final int WIN_NULL = 0;
    /** MPI_Win_allocate. */
    public static final int FLAVOR_PRIVATE = 0;
    /** MPI_Win_allocate_shared. */
    public static final int FLAVOR_SHARED = 1;
    /** MPI_Win_create (internal flavor code). */
    static final int FLAVOR_CREATE = 2;
    /** MPI_Win_create_dynamic (internal flavor code). */
    static final int FLAVOR_DYNAMIC = 3;

    private static final int FENCE_ASSERTS =
        MPI.MODE_NOSTORE | MPI.MODE_NOPUT | MPI.MODE_NOPRECEDE | MPI.MODE_NOSUCCEED;
    private static final int POST_ASSERTS = MPI.MODE_NOCHECK | MPI.MODE_NOSTORE | MPI.MODE_NOPUT;

    private final Rank me;
    /** This rank's number in the window (its rank in the communicator the window was made on). */
    private final int index;
    /** The window's own communicator (a duplicate): window collectives never meet the program's. */
    private final Intracomm comm;
    private final WinState state;
    /** This rank's memory (WIN_BASE); null for a dynamic window. */
    private final Buffer base;
    private final long size;
    private final int dispUnit;
    /** Info {@code no_locks} was "true" at creation: lock and lockAll are erroneous. */
    private final boolean noLocks;
    /** This rank's name, attributes and error handler of the window. */
    private final Attributes attributes = new Attributes();
    private volatile boolean freed;

    // This rank's epochs, guarded by this.
    /** True after a fence without MODE_NOSUCCEED: operations to every member are allowed. */
    private boolean fenceEpoch;
    /** Operations issued since the last fence (MODE_NOPRECEDE's check). */
    private int opsSinceFence;
    /** The lock type held on each member (0: none), and how many are held. */
    private final int[] locks;
    private int lockCount;
    private boolean lockAll;
    /** The targets of the open start epoch, or null. */
    private int[] startGroup;
    /** The origins of the open post epoch, or null. */
    private int[] postGroup;

    /**
     * MPI_Win_create: a window over the first {@code size} elements of {@code base} on each member of
     * {@code comm}, whose displacements count {@code dispUnit} elements of {@code base}. As in Open
     * MPI, whose binding multiplies both by the buffer's element size before calling C, the units are
     * the buffer's elements: an {@code IntBuffer} window of size 4 and displacement unit 1 holds 16
     * bytes addressed in steps of 4 ({@code WIN_SIZE} and {@code WIN_DISP_UNIT} give the bytes).
     * Collective.
     */
    public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) {
        this("Win.create", comm, FLAVOR_CREATE, memory("Win.create", base, bytes(base, size), bytes(base, dispUnit)),
            bytes(base, size), (int) bytes(base, dispUnit), info);
    }

    /**
     * MPI_Win_allocate ({@link #FLAVOR_PRIVATE}) or MPI_Win_allocate_shared ({@link #FLAVOR_SHARED}):
     * a window of {@code size} elements of {@code base} on each member (displacement unit
     * {@code dispUnit} elements, as for {@link #Win(Buffer, int, int, Info, Comm)}): {@code base}
     * itself if it holds them (the program then sees the window's memory), else a new direct
     * native-order {@code ByteBuffer} of that many bytes ({@code WIN_BASE} gives it), as Open MPI
     * allocates the memory whatever {@code base} is; {@code size} bytes when {@code base} is null.
     * Collective.
     */
    public Win(int size, int dispUnit, Info info, Comm comm, Buffer base, int flavor) {
        this(flavorCall(flavor), comm, flavor,
            allocated(flavorCall(flavor), base, bytes(base, size), bytes(base, dispUnit)), bytes(base, size),
            (int) bytes(base, dispUnit), info);
    }

    /** MPI_Win_create_dynamic: a window with no memory until members {@link #attach} some. Collective. */
    public Win(Info info, Comm comm) {
        this("Win.createDynamic", comm, FLAVOR_DYNAMIC, null, 0, 1, info);
    }

    private Win(String call, Comm parent, int flavor, Buffer base, long size, int dispUnit, Info info) {
        if (parent == null) {
            throw new MPIException(MPI.ERR_COMM, call + ": communicator is null");
        }
        Rank rank = parent.rank(call);
        if (parent.remoteMembers() != null) {
            throw parent.raise(new MPIException(MPI.ERR_COMM, call + ": " + parent
                + " is an intercommunicator; windows are made on intracommunicators"));
        }
        CommCreation.Result r;
        try {
            r = CommCreation.split(parent, call, 0, parent.rankIn(rank), "." + call + "()");
        } catch (MPIException e) {
            throw parent.raise(e);
        }
        this.me = rank;
        this.index = r.index();
        this.comm = new Intracomm(r);
        this.base = base;
        this.size = size;
        this.dispUnit = dispUnit;
        this.noLocks = info != null && !info.isNull() && "true".equals(info.get("no_locks"));
        this.locks = new int[r.members().size()];
        this.state = rank.job().shared(new WinState.Key(r.context()), k -> new WinState(r.members().ranks(), flavor));
        state.setMemory(index, base, size, dispUnit);
        // Every member has published its memory before any leaves: the collective orders them.
        int[] all = new int[r.members().size()];
        CollectiveCalls.allgather(comm, call, false, new int[] {flavor}, 0, 1, MPI.INT, all, 0, 1, MPI.INT, false);
        for (int j = 0; j < all.length; j++) {
            if (all[j] != flavor) {
                throw parent.raise(new MPIException(MPI.ERR_NOT_SAME, call + ": rank " + j + " made its window with "
                    + flavorCall(all[j]) + ", this rank with " + call));
            }
        }
    }

    private static String flavorCall(int flavor) {
        switch (flavor) {
            case FLAVOR_PRIVATE:
                return "Win.allocate";
            case FLAVOR_SHARED:
                return "Win.allocateShared";
            case FLAVOR_CREATE:
                return "Win.create";
            case FLAVOR_DYNAMIC:
                return "Win.createDynamic";
            default:
                throw new MPIException(MPI.ERR_ARG, "Win: flavor " + flavor
                    + " is neither Win.FLAVOR_PRIVATE nor Win.FLAVOR_SHARED");
        }
    }

    /** The window memory given to MPI_Win_create, checked. */
    private static Buffer memory(String call, Buffer base, long size, long dispUnit) {
        if (size < 0) {
            throw new MPIException(MPI.ERR_SIZE, call + ": size must be >= 0 bytes, was " + size);
        }
        if (dispUnit <= 0 || dispUnit > Integer.MAX_VALUE) {
            throw new MPIException(MPI.ERR_DISP, call + ": displacement unit must be 1.." + Integer.MAX_VALUE
                + " bytes, was " + dispUnit);
        }
        if (base == null) {
            if (size > 0) {
                throw new MPIException(MPI.ERR_BASE, call + ": base is null but size is " + size + " bytes");
            }
            return null;
        }
        if (base.isReadOnly()) {
            throw new MPIException(MPI.ERR_BASE, call + ": base is a read-only buffer");
        }
        long bytes = (long) base.capacity() * elementBytes(base);
        if (size > bytes) {
            throw new MPIException(MPI.ERR_SIZE, call + ": size " + size + " bytes is larger than the base buffer ("
                + bytes + " bytes)");
        }
        return base;
    }

    private static Buffer allocated(String call, Buffer base, long size, long dispUnit) {
        if (base != null && (long) base.capacity() * elementBytes(base) < size) {
            // Open MPI's binding takes base for its element size only and lets MPI allocate the
            // memory (Open MPI's own tests pass an empty buffer): a base too small is not the memory.
            base = null;
        }
        if (base == null && size >= 0 && size <= Integer.MAX_VALUE && dispUnit > 0 && dispUnit <= Integer.MAX_VALUE) {
            return ByteBuffer.allocateDirect((int) size).order(ByteOrder.nativeOrder());
        }
        return memory(call, base, size, dispUnit);
    }

    /** {@code n} elements of {@code base} in bytes; bytes already when there is no buffer. */
    private static long bytes(Buffer base, long n) {
        return base == null ? n : n * elementBytes(base);
    }

    private static int elementBytes(Buffer b) {
        if (b instanceof ByteBuffer) {
            return 1;
        }
        if (b instanceof CharBuffer || b instanceof ShortBuffer) {
            return 2;
        }
        return b instanceof IntBuffer || b instanceof FloatBuffer ? 4 : 8;
    }

    // ---- checks and errors -------------------------------------------------------------------

    private void checkLocksAllowed(String call) {
        if (noLocks) {
            throw new MPIException(MPI.ERR_RMA_SYNC, call + ": the window was made with info no_locks=true, a promise"
                + " of no passive target synchronization");
        }
    }

    /** The calling rank may use this window in {@code call}. */
    private void live(String call) {
        if (freed) {
            throw new MPIException(MPI.ERR_WIN, call + ": the window was freed");
        }
        me.checkLifecycle(call);
        me.checkAlive(call);
    }

    /**
     * Hands an error of a call on this window to its error handler: under
     * {@link Errhandler#ERRORS_ARE_FATAL} the job fails with it; either way it is returned to be thrown.
     */
    private MPIException raise(MPIException e) {
        Errhandler h = attributes.errhandler;
        if (h != null && h.endsJob()) {
            me.job().fail(me.id(), e);
        }
        return e;
    }

    /** A target rank: {@code PROC_NULL} or a member. */
    private void checkRank(String call, int rank) {
        if (rank != MPI.PROC_NULL && (rank < 0 || rank >= locks.length)) {
            throw new MPIException(MPI.ERR_RANK, call + ": target rank " + rank + " is not in the window (size "
                + locks.length + ")");
        }
    }

    private static void checkAssert(String call, int assertion, int allowed, String names) {
        if ((assertion & ~allowed) != 0) {
            throw new MPIException(MPI.ERR_ASSERT, call + ": assert " + assertion + " is not a combination of "
                + names);
        }
    }

    /** An operation to {@code target} may be issued now: an access epoch to it is open. */
    private synchronized void checkAccess(String call, int target, boolean passiveOnly) {
        boolean open;
        if (target == MPI.PROC_NULL) {
            open = fenceEpoch && !passiveOnly || lockAll || lockCount > 0 || startGroup != null && !passiveOnly;
        } else {
            open = lockAll || locks[target] != 0 || !passiveOnly && (fenceEpoch || contains(startGroup, target));
        }
        if (!open) {
            throw new MPIException(MPI.ERR_RMA_SYNC, call + ": no " + (passiveOnly ? "passive target " : "access ")
                + "epoch to rank " + target + " is open on this window (" + (passiveOnly
                ? "request-based operations need lock or lockAll)" : "open one with fence, lock, lockAll or start)"));
        }
    }

    /**
     * An operation has passed every check and is issued now: counted in the fence epoch, so that a
     * fence asserting {@code MODE_NOPRECEDE} after it, a lock or a free can tell. An operation that
     * failed its checks was never issued and is not counted.
     */
    private synchronized void issued() {
        if (fenceEpoch) {
            opsSinceFence++;
        }
    }

    private static boolean contains(int[] group, int rank) {
        if (group != null) {
            for (int g : group) {
                if (g == rank) {
                    return true;
                }
            }
        }
        return false;
    }

    /** No passive target or PSCW epoch is open: what fence, free and new epochs require. */
    private void noEpochOpen(String call) {
        String open = lockAll ? "lockAll" : lockCount > 0 ? "lock" : startGroup != null ? "start"
            : postGroup != null ? "post" : null;
        if (open != null) {
            throw new MPIException(MPI.ERR_RMA_SYNC, call + ": the epoch opened by " + open + " on this window is still"
                + " open (end it with " + (open.equals("lockAll") ? "unlockAll" : open.equals("lock") ? "unlock"
                : open.equals("start") ? "complete" : "waitFor or test") + " first)");
        }
    }

    /** Opening a lock or start epoch ends a fence epoch, which must be empty: MPI does not mix them. */
    private void endEmptyFenceEpoch(String call) {
        if (fenceEpoch && opsSinceFence > 0) {
            throw new MPIException(MPI.ERR_RMA_SYNC, call + ": the fence epoch holds " + opsSinceFence
                + " operations; end it with fence (MODE_NOSUCCEED) before opening another kind of epoch");
        }
        fenceEpoch = false;
    }

    /** The window ranks of {@code group}'s members. */
    private int[] ranksOf(String call, Group group) {
        if (group == null) {
            throw new MPIException(MPI.ERR_GROUP, call + ": group is null");
        }
        int[] ranks = new int[group.members.length];
        for (int i = 0; i < ranks.length; i++) {
            ranks[i] = -1;
            for (int j = 0; j < state.members.length; j++) {
                if (state.members[j] == group.members[i]) {
                    ranks[i] = j;
                }
            }
            if (ranks[i] < 0) {
                throw new MPIException(MPI.ERR_GROUP, call + ": member " + i + " of the group (world rank "
                    + group.members[i].id() + ") is not a member of the window");
            }
        }
        return ranks;
    }

    // ---- memory of dynamic windows ------------------------------------------------------------

    /**
     * Attaches the first {@code size} bytes of {@code base} to this rank's memory of a dynamic window,
     * at the next window address (see the class comment).
     */
    public void attach(Buffer base, int size) {
        try {
            live("attach");
            if (state.flavor != FLAVOR_DYNAMIC) {
                throw new MPIException(MPI.ERR_RMA_ATTACH, "attach: the window is not dynamic (made by "
                    + flavorCall(state.flavor) + ")");
            }
            if (base == null) {
                throw new MPIException(MPI.ERR_BASE, "attach: base is null");
            }
            memory("attach", base, bytes(base, size), 1);
            state.attach(index, base, bytes(base, size), "attach");
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** Detaches a buffer attached with {@link #attach}; its window addresses are not reused. */
    public void detach(Buffer base) {
        try {
            live("detach");
            if (state.flavor != FLAVOR_DYNAMIC) {
                throw new MPIException(MPI.ERR_RMA_ATTACH, "detach: the window is not dynamic (made by "
                    + flavorCall(state.flavor) + ")");
            }
            state.detach(index, base, "detach");
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** The group of the window's members, in window rank order. */
    public Group getGroup() {
        try {
            live("getGroup");
            return new Group(state.members.clone(), me);
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    // ---- communication -----------------------------------------------------------------------

    /** MPI_Put: writes {@code count} items of {@code type} from {@code origin} into the target's window. */
    public void put(Buffer origin, int count, Datatype type, int target, int disp, int tcount, Datatype ttype) {
        transfer("put", false, false, origin, count, type, target, disp, tcount, ttype);
    }

    /** MPI_Get: reads the target's window into {@code origin}. */
    public void get(Buffer origin, int count, Datatype type, int target, int disp, int tcount, Datatype ttype) {
        transfer("get", true, false, origin, count, type, target, disp, tcount, ttype);
    }

    /** MPI_Rput: {@link #put} in a passive target epoch; the request is complete at once. */
    public final Request rPut(Buffer origin, int count, Datatype type, int target, int disp, int tcount,
                              Datatype ttype) {
        transfer("rPut", false, true, origin, count, type, target, disp, tcount, ttype);
        return done();
    }

    /** MPI_Rget: {@link #get} in a passive target epoch; the request is complete at once. */
    public final Request rGet(Buffer origin, int count, Datatype type, int target, int disp, int tcount,
                              Datatype ttype) {
        transfer("rGet", true, true, origin, count, type, target, disp, tcount, ttype);
        return done();
    }

    private void transfer(String call, boolean get, boolean passiveOnly, Buffer origin, int count, Datatype type,
                          int target, int disp, int tcount, Datatype ttype) {
        try {
            live(call);
            checkRank(call, target);
            checkAccess(call, target, passiveOnly);
            RmaData.buffer(call, "origin buffer", origin, count, type, get);
            if (target == MPI.PROC_NULL) {
                issued();
                return;
            }
            RmaData.Target t = RmaData.target(call, state, target, disp, tcount, ttype);
            RmaData.sameSignature(call, "origin", count, type, tcount, ttype);
            issued();
            if (t == null) {
                return;
            }
            if (get) {
                RmaData.get(origin, count, type, t, tcount, ttype);
            } else {
                RmaData.put(origin, count, type, t, tcount, ttype);
            }
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** A request-based operation's request: complete, as the operation ran at the call. */
    private Request done() {
        return new Request(me, null, new Status());
    }

    /** MPI_Accumulate: combines the origin data into the target's with {@code op} (atomic per element). */
    public void accumulate(Buffer origin, int count, Datatype type, int target, int disp, int tcount, Datatype ttype,
                           Op op) {
        accumulate("accumulate", false, origin, count, type, null, 0, null, target, disp, tcount, ttype, op);
    }

    /** MPI_Raccumulate: {@link #accumulate} in a passive target epoch; the request is complete at once. */
    public Request rAccumulate(Buffer origin, int count, Datatype type, int target, int disp, int tcount,
                               Datatype ttype, Op op) {
        accumulate("rAccumulate", true, origin, count, type, null, 0, null, target, disp, tcount, ttype, op);
        return done();
    }

    /**
     * MPI_Get_accumulate: reads the target data into {@code result}, then combines the origin data
     * into them with {@code op}, in one atomic step per element ({@code MPI.NO_OP}: only reads).
     */
    public void getAccumulate(Buffer origin, int count, Datatype type, Buffer result, int rcount, Datatype rtype,
                              int target, int disp, int tcount, Datatype ttype, Op op) {
        accumulate("getAccumulate", false, origin, count, type, result, rcount, rtype, target, disp, tcount, ttype,
            op);
    }

    /** MPI_Rget_accumulate: {@link #getAccumulate} in a passive target epoch; the request is complete at once. */
    public Request rGetAccumulate(Buffer origin, int count, Datatype type, Buffer result, int rcount,
                                  Datatype rtype, int target, int disp, int tcount, Datatype ttype, Op op) {
        accumulate("rGetAccumulate", true, origin, count, type, result, rcount, rtype, target, disp, tcount, ttype,
            op);
        return done();
    }

    /** MPI_Fetch_and_op: {@link #getAccumulate} of one element of the predefined {@code type}. */
    public void fetchAndOp(Buffer origin, Buffer result, Datatype type, int target, int disp, Op op) {
        try {
            predefinedElement("fetchAndOp", type);
        } catch (MPIException e) {
            throw raise(e);
        }
        accumulate("fetchAndOp", false, origin, 1, type, result, 1, type, target, disp, 1, type, op);
    }

    private void accumulate(String call, boolean passiveOnly, Buffer origin, int count, Datatype type, Buffer result,
                            int rcount, Datatype rtype, int target, int disp, int tcount, Datatype ttype, Op op) {
        try {
            live(call);
            checkRank(call, target);
            checkAccess(call, target, passiveOnly);
            boolean noOp = op == MPI.NO_OP;
            if (!noOp || result == null) {
                RmaData.buffer(call, "origin buffer", origin, count, type, false);
            }
            if (rtype != null || result != null) {
                RmaData.buffer(call, "result buffer", result, rcount, rtype, true);
            }
            if (target == MPI.PROC_NULL) {
                issued();
                return;
            }
            RmaData.Target t = RmaData.target(call, state, target, disp, tcount, ttype);
            if (!noOp || result == null) {
                RmaData.sameSignature(call, "origin", count, type, tcount, ttype);
            }
            if (result != null) {
                RmaData.sameSignature(call, "result", rcount, rtype, tcount, ttype);
            }
            Reduction r = RmaData.reduction(call, op, ttype);
            issued();
            if (t == null) {
                return;
            }
            Object packed = noOp ? null : RmaData.pack(origin, 0, count, type);
            RmaData.accumulate(state, target, packed, r, t, tcount, ttype, result, rcount, rtype);
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /**
     * MPI_Compare_and_swap: reads the target element into {@code result} and, if it equals
     * {@code compare} (bit for bit), replaces it with {@code origin}'s, atomically with respect to
     * accumulates. One element of a predefined type.
     */
    public void compareAndSwap(Buffer origin, Buffer compare, Buffer result, Datatype type, int target, int disp) {
        String call = "compareAndSwap";
        try {
            live(call);
            checkRank(call, target);
            checkAccess(call, target, false);
            predefinedElement(call, type);
            RmaData.buffer(call, "origin buffer", origin, 1, type, false);
            RmaData.buffer(call, "compare buffer", compare, 1, type, false);
            RmaData.buffer(call, "result buffer", result, 1, type, true);
            if (target == MPI.PROC_NULL) {
                issued();
                return;
            }
            RmaData.Target t = RmaData.target(call, state, target, disp, 1, type);
            issued();
            RmaData.compareAndSwap(state, target, origin, compare, result, type, t);
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    private static void predefinedElement(String call, Datatype type) {
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype is null");
        }
        if (!type.predefined() || type.map == null || type.map.elements() != 1) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype " + type + " is not a predefined type of one"
                + " element (MPI.INT, MPI.LONG, ...)");
        }
    }

    // ---- active target: fence ----------------------------------------------------------------

    /**
     * MPI_Win_fence: ends the members' fence epoch and, unless {@code MODE_NOSUCCEED}, opens the
     * next, in which any member may access any other. Collective over the window's members.
     */
    public void fence(int assertion) {
        String call = "fence";
        try {
            live(call);
            checkAssert(call, assertion, FENCE_ASSERTS,
                "MPI.MODE_NOSTORE, MPI.MODE_NOPUT, MPI.MODE_NOPRECEDE and MPI.MODE_NOSUCCEED");
            int ops;
            synchronized (this) {
                noEpochOpen(call);
                ops = opsSinceFence;
            }
            int n = locks.length;
            int[] all = new int[2 * n];
            CollectiveCalls.allgather(comm, call, false, new int[] {assertion, ops}, 0, 2, MPI.INT, all, 0, 2, MPI.INT,
                false);
            for (int j = 0; j < n; j++) {
                int differs = (all[2 * j] ^ assertion) & (MPI.MODE_NOPRECEDE | MPI.MODE_NOSUCCEED);
                if (differs != 0) {
                    throw new MPIException(MPI.ERR_ASSERT, call + ": rank " + j + " gives assert " + all[2 * j]
                        + " and rank " + index + " gives " + assertion + ": they differ in " + modeNames(differs)
                        + ", which every member must give alike");
                }
                if ((all[2 * j] & MPI.MODE_NOPRECEDE) != 0 && all[2 * j + 1] > 0) {
                    throw new MPIException(MPI.ERR_ASSERT, call + ": MPI.MODE_NOPRECEDE asserts that no operation"
                        + " precedes the fence, but rank " + j + " issued " + all[2 * j + 1] + " since the last one");
                }
            }
            synchronized (this) {
                fenceEpoch = (assertion & MPI.MODE_NOSUCCEED) == 0;
                opsSinceFence = 0;
            }
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    private static String modeNames(int modes) {
        return (modes & MPI.MODE_NOPRECEDE) != 0 && (modes & MPI.MODE_NOSUCCEED) != 0
            ? "MPI.MODE_NOPRECEDE and MPI.MODE_NOSUCCEED"
            : (modes & MPI.MODE_NOPRECEDE) != 0 ? "MPI.MODE_NOPRECEDE" : "MPI.MODE_NOSUCCEED";
    }

    // ---- active target: post, start, complete, wait -------------------------------------------

    /** MPI_Win_start: opens an access epoch to the members of {@code group}; returns once each has posted. */
    public void start(Group group, int assertion) {
        String call = "start";
        try {
            live(call);
            checkAssert(call, assertion, MPI.MODE_NOCHECK, "MPI.MODE_NOCHECK");
            int[] targets = ranksOf(call, group);
            synchronized (this) {
                if (startGroup != null || lockAll || lockCount > 0) {
                    noEpochOpen(call);
                }
                endEmptyFenceEpoch(call);
            }
            boolean[] started = {false};
            RmaWait.await(me, () -> started[0] || (started[0] = state.tryStart(index, targets)),
                "Win.start", "targets=" + java.util.Arrays.toString(targets));
            synchronized (this) {
                startGroup = targets;
            }
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** MPI_Win_complete: ends the access epoch of {@link #start}; its targets' waits may return. */
    public void complete() {
        String call = "complete";
        try {
            live(call);
            int[] targets;
            synchronized (this) {
                if (startGroup == null) {
                    throw new MPIException(MPI.ERR_RMA_SYNC, call + ": no epoch opened by start is open on this window");
                }
                targets = startGroup;
                startGroup = null;
            }
            state.complete(targets);
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** MPI_Win_post: opens an exposure epoch for the members of {@code group}. Does not wait. */
    public void post(Group group, int assertion) {
        String call = "post";
        try {
            live(call);
            checkAssert(call, assertion, POST_ASSERTS, "MPI.MODE_NOCHECK, MPI.MODE_NOSTORE and MPI.MODE_NOPUT");
            int[] origins = ranksOf(call, group);
            synchronized (this) {
                if (postGroup != null) {
                    throw new MPIException(MPI.ERR_RMA_SYNC, call + ": the exposure epoch of the last post is still open"
                        + " (end it with waitFor or test)");
                }
                endEmptyFenceEpoch(call);
                postGroup = origins;
            }
            state.post(index, origins);
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** MPI_Win_wait: ends the exposure epoch of {@link #post} once every origin of its group has completed. */
    public void waitFor() {
        String call = "waitFor";
        try {
            live(call);
            int[] origins = openPost(call);
            boolean[] ended = {false};
            RmaWait.await(me, () -> ended[0] || (ended[0] = state.tryWait(index, origins.length)),
                "Win.waitFor", "origins=" + java.util.Arrays.toString(origins));
            synchronized (this) {
                postGroup = null;
            }
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** MPI_Win_test: {@link #waitFor} if every origin has completed (then true), else false at once. */
    public boolean test() {
        String call = "test";
        try {
            live(call);
            int[] origins = openPost(call);
            if (!state.tryWait(index, origins.length)) {
                me.pollMissed();
                return false;
            }
            synchronized (this) {
                postGroup = null;
            }
            return true;
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    private synchronized int[] openPost(String call) {
        if (postGroup == null) {
            throw new MPIException(MPI.ERR_RMA_SYNC, call + ": no exposure epoch opened by post is open on this window");
        }
        return postGroup;
    }

    // ---- passive target ------------------------------------------------------------------------

    /**
     * MPI_Win_lock: opens a passive target epoch to {@code rank}, holding its memory's lock of
     * {@code lockType} ({@code MPI.LOCK_EXCLUSIVE} or {@code MPI.LOCK_SHARED}); returns once held.
     * {@code MPI.MODE_NOCHECK} is accepted (the lock is taken anyway: it never waits when the
     * assertion holds).
     */
    public void lock(int lockType, int rank, int assertion) {
        String call = "lock";
        try {
            live(call);
            checkLocksAllowed(call);
            if (lockType != MPI.LOCK_EXCLUSIVE && lockType != MPI.LOCK_SHARED) {
                throw new MPIException(MPI.ERR_LOCKTYPE, call + ": lock type " + lockType
                    + " is neither MPI.LOCK_EXCLUSIVE nor MPI.LOCK_SHARED");
            }
            checkRank(call, rank);
            checkAssert(call, assertion, MPI.MODE_NOCHECK, "MPI.MODE_NOCHECK");
            if (rank == MPI.PROC_NULL) {
                return;
            }
            synchronized (this) {
                if (lockAll || locks[rank] != 0) {
                    throw new MPIException(MPI.ERR_RMA_SYNC, call + ": this rank holds a lock on rank " + rank
                        + " of the window already" + (lockAll ? " (lockAll)" : ""));
                }
                endEmptyFenceEpoch(call);
            }
            boolean[] held = {false};
            RmaWait.await(me, () -> held[0] || (held[0] = state.tryLock(rank, lockType)),
                "Win.lock", lockName(lockType) + ", rank=" + rank);
            synchronized (this) {
                locks[rank] = lockType;
                lockCount++;
            }
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    private static String lockName(int lockType) {
        return lockType == MPI.LOCK_EXCLUSIVE ? "MPI.LOCK_EXCLUSIVE" : "MPI.LOCK_SHARED";
    }

    /** MPI_Win_unlock: ends the passive target epoch to {@code rank} and releases its lock. */
    public void unlock(int rank) {
        String call = "unlock";
        try {
            live(call);
            checkRank(call, rank);
            if (rank == MPI.PROC_NULL) {
                return;
            }
            int type;
            synchronized (this) {
                type = locks[rank];
                if (type == 0) {
                    throw new MPIException(MPI.ERR_RMA_SYNC, call + ": this rank holds no lock on rank " + rank
                        + " of the window (lock it first" + (lockAll ? "; lockAll is ended by unlockAll)" : ")"));
                }
                locks[rank] = 0;
                lockCount--;
            }
            state.unlock(rank, type);
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** MPI_Win_lock_all: a shared lock on every member's memory, taken in rank order. */
    public void lockAll(int assertion) {
        String call = "lockAll";
        try {
            live(call);
            checkLocksAllowed(call);
            checkAssert(call, assertion, MPI.MODE_NOCHECK, "MPI.MODE_NOCHECK");
            synchronized (this) {
                if (lockAll || lockCount > 0) {
                    throw new MPIException(MPI.ERR_RMA_SYNC, call + ": this rank holds " + (lockAll
                        ? "lockAll" : "a lock") + " on the window already");
                }
                endEmptyFenceEpoch(call);
            }
            int taken = 0;
            try {
                for (; taken < locks.length; taken++) {
                    int target = taken;
                    boolean[] held = {false};
                    RmaWait.await(me, () -> held[0] || (held[0] = state.tryLock(target, MPI.LOCK_SHARED)),
                        "Win.lockAll", "waiting for the lock of rank " + target);
                }
            } catch (RuntimeException e) {
                // Interrupted or the job failed: give back the locks taken so far.
                for (int t = 0; t < taken; t++) {
                    state.unlock(t, MPI.LOCK_SHARED);
                }
                throw e;
            }
            synchronized (this) {
                lockAll = true;
            }
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** MPI_Win_unlock_all: ends the epoch of {@link #lockAll}. */
    public void unlockAll() {
        String call = "unlockAll";
        try {
            live(call);
            synchronized (this) {
                if (!lockAll) {
                    throw new MPIException(MPI.ERR_RMA_SYNC, call + ": this rank holds no lockAll on the window");
                }
                lockAll = false;
            }
            for (int t = 0; t < locks.length; t++) {
                state.unlock(t, MPI.LOCK_SHARED);
            }
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** MPI_Win_flush: operations to {@code rank} are complete (they are, at their call). */
    public void flush(int rank) {
        flush("flush", rank);
    }

    /** MPI_Win_flush_local: as {@link #flush}. */
    public void flushLocal(int rank) {
        flush("flushLocal", rank);
    }

    /** MPI_Win_flush_all. */
    public void flushAll() {
        flush("flushAll", -1);
    }

    /** MPI_Win_flush_local_all. */
    public void flushLocalAll() {
        flush("flushLocalAll", -1);
    }

    /** A flush to {@code rank} (-1: to all) needs a passive target epoch to it. */
    private void flush(String call, int rank) {
        try {
            live(call);
            if (rank != -1) {
                checkRank(call, rank);
            }
            synchronized (this) {
                boolean open = lockAll || (rank == -1 ? lockCount > 0 : rank == MPI.PROC_NULL || locks[rank] != 0);
                if (!open) {
                    throw new MPIException(MPI.ERR_RMA_SYNC, call + ": no passive target epoch (lock or lockAll) "
                        + (rank == -1 ? "is open" : "to rank " + rank + " is open") + " on this window");
                }
            }
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** MPI_Win_sync: a full memory fence between this rank's loads and stores and the window's. */
    public void sync() {
        try {
            live("sync");
            VarHandle.fullFence();
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    // ---- attributes, names, error handlers, info ---------------------------------------------

    /** A new key for {@link #setAttr}. */
    public static int createKeyval() {
        return Attributes.createKeyval();
    }

    public static void freeKeyval(int keyval) {
        Attributes.freeKeyval("freeKeyval", keyval);
    }

    private static boolean isWindowKeyval(int keyval) {
        return keyval == MPI.WIN_BASE || keyval == MPI.WIN_SIZE || keyval == MPI.WIN_DISP_UNIT;
    }

    public void setAttr(int keyval, Object value) {
        try {
            live("setAttr");
            if (isWindowKeyval(keyval)) {
                throw new MPIException(MPI.ERR_KEYVAL, "setAttr: keyval " + keyval + " is predefined and read-only");
            }
            attributes.set("setAttr", keyval, value);
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /**
     * The value of attribute {@code keyval}, or null if not set. {@code MPI.WIN_BASE} is this rank's
     * window memory (the {@code Buffer}; null for a dynamic window), {@code MPI.WIN_SIZE} its size in
     * bytes (an {@code Integer}, as Open MPI's binding returns it; a {@code Long} only for a window of
     * 2 GiB or more, which an {@code Integer} cannot hold; 0 for a dynamic window),
     * {@code MPI.WIN_DISP_UNIT} an {@code Integer}.
     */
    public Object getAttr(int keyval) {
        try {
            live("getAttr");
            if (keyval == MPI.WIN_BASE) {
                return base;
            }
            if (keyval == MPI.WIN_SIZE) {
                return size <= Integer.MAX_VALUE ? (Object) (int) size : (Object) size;
            }
            if (keyval == MPI.WIN_DISP_UNIT) {
                return dispUnit;
            }
            return attributes.get("getAttr", keyval);
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    public void deleteAttr(int keyval) {
        try {
            live("deleteAttr");
            if (isWindowKeyval(keyval)) {
                throw new MPIException(MPI.ERR_KEYVAL, "deleteAttr: keyval " + keyval + " is predefined and cannot be"
                    + " deleted");
            }
            attributes.delete("deleteAttr", keyval);
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** Names this window for {@link #getName} (local: other ranks keep theirs). */
    public void setName(String name) {
        try {
            live("setName");
            if (name == null) {
                throw new MPIException(MPI.ERR_ARG, "setName: name is null");
            }
            attributes.name = name;
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** The name given with {@link #setName}, else the empty string (MPI_Win_get_name). */
    public String getName() {
        try {
            live("getName");
            String n = attributes.name;
            return n != null ? n : "";
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** Sets what happens when a call on this window fails (see {@link Errhandler}). */
    public void setErrhandler(Errhandler handler) {
        try {
            live("setErrhandler");
            if (handler == null) {
                throw new MPIException(MPI.ERR_ARG, "setErrhandler: the error handler is null (use MPI.ERRORS_RETURN"
                    + " or MPI.ERRORS_ARE_FATAL)");
            }
            attributes.errhandler = handler;
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** The error handler of this window: {@link Errhandler#ERRORS_RETURN} unless one was set. */
    public Errhandler getErrhandler() {
        try {
            live("getErrhandler");
            Errhandler h = attributes.errhandler;
            return h != null ? h : Errhandler.ERRORS_RETURN;
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /**
     * Calls this window's error handler on {@code errorCode} (MPI_Win_call_errhandler): under
     * {@code ERRORS_ARE_FATAL} (or {@code ERRORS_ABORT}) the job ends with that error and this throws it;
     * under {@code ERRORS_RETURN} the handler returns and so does this call, as MPI says (the C call
     * returns MPI_SUCCESS; Open MPI's Java binding throws nothing).
     */
    public void callErrhandler(int errorCode) {
        live("callErrhandler");
        if (!ErrorClass.isValid(errorCode)) {
            throw new MPIException(MPI.ERR_ARG, "callErrhandler: " + errorCode + " is not an error code (0.."
                + MPI.ERR_LASTCODE + ")");
        }
        Errhandler h = attributes.errhandler;
        if (h != null && h.endsJob()) {
            throw raise(new MPIException(errorCode, "callErrhandler: error raised by the program on " + this));
        }
        // ERRORS_RETURN: the handler returns, and so does the call (MPI_SUCCESS in C, no exception in Java).
    }

    /** The hints in use: none (MPJ Lite uses no window hints), as a new empty info object. */
    public Info getInfo() {
        try {
            live("getInfo");
            return new Info();
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** Accepts hints; MPJ Lite uses none. */
    public void setInfo(Info info) {
        try {
            live("setInfo");
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    // ---- free ----------------------------------------------------------------------------------

    /**
     * MPI_Win_free: collective; every epoch of this rank must be closed. Returns when every member
     * has called it (no operation can reach this rank's memory afterwards); the window then no longer
     * refers to the memory.
     */
    @Override
    public void free() {
        String call = "free";
        try {
            live(call);
            synchronized (this) {
                noEpochOpen(call);
                if (fenceEpoch && opsSinceFence > 0) {
                    throw new MPIException(MPI.ERR_RMA_SYNC, call + ": " + opsSinceFence + " operations since the"
                        + " last fence were never completed by another fence");
                }
            }
            CollectiveCalls.barrier(comm, call, false);
            freed = true;
            state.release(index);
            me.job().release(new WinState.Key(comm.context), locks.length);
            comm.free();
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    @Override
    public String toString() {
        String n = attributes.name;
        return n != null ? n : "Win(" + flavorCall(state.flavor) + " on " + state.size() + " ranks)";
    }
}
