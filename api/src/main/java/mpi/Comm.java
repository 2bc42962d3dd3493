package mpi;

import org.mpjlite.smpdev.Membership;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.collective.Team;
import org.mpjlite.smpdev.p2p.SendMode;

/**
 * A communicator: a group of ranks and a matching context, so that traffic on one communicator
 * never matches receives on another. Point-to-point in both dialects: mpiJava 1.2 ({@code Send},
 * {@code Recv}... with element offsets) and Open MPI Java ({@code send}, {@code recv}... without;
 * use {@link MPI#slice} for an offset). Buffers are arrays of any primitive type or {@code java.nio}
 * buffers, direct or heap, addressed from index 0 (the position is ignored, as in Open MPI).
 *
 * <p>{@code COMM_WORLD} and {@code COMM_SELF} of programs run from a shared class loader (embedded
 * lambdas) resolve their rank from the calling thread; every other communicator is bound to its
 * rank. Thread-safe as MPI requires at {@code THREAD_MULTIPLE}.
 *
 * <p>Errors of calls on a communicator go through its error handler ({@link Errhandler}): the
 * internal entry points catch the {@link MPIException} on its way out and hand it to
 * {@link #raise}, which costs nothing until something is thrown.
 *
 * <p>This class holds the communicator's identity (members, contexts, name, attributes, error
 * handler) and the two dialects' methods; the calls are implemented by {@link PointToPointCalls},
 * {@link PackCalls} and {@link CollectiveCalls}, to which the methods delegate.
 */
public abstract class Comm implements Freeable, Cloneable {
    static {
        MPIException.install();
    }

    /** The rank this communicator belongs to; null: the calling thread's (predefined ones only). */
    private final Rank bound;
    /** Matching context of point-to-point traffic; collectives use {@code context + 1}. */
    final int context;
    /**
     * The members in rank order; null for the predefined communicators, whose members follow from
     * the calling rank (every rank of its job, or itself). Empty for a null communicator.
     */
    private final Membership members;
    /** The bound rank's index in {@link #members}. */
    private final int index;
    /** The remote group of an intercommunicator, in rank order; null for an intracommunicator. */
    private final Membership remote;
    /**
     * The context point-to-point sends go to: the receivers' {@link #context}, which for an
     * intercommunicator is the remote group's.
     */
    final int sendContext;
    /** True for COMM_SELF. */
    private final boolean self;
    /** How this communicator was made ({@code MPI.COMM_WORLD.Split(color=1)}), for reports. */
    volatile String name;
    /** The bound rank's name, attributes and error handler of this communicator; null when not bound (see {@link #local}). */
    private final Attributes attributes;
    private volatile boolean freed;

    /** A predefined communicator: COMM_WORLD or COMM_SELF of {@code bound} (null: of the calling thread). */
    Comm(Rank bound, int context, boolean self, String name) {
        this.bound = bound;
        this.context = context;
        this.members = null;
        this.index = 0;
        this.remote = null;
        this.sendContext = context;
        this.self = self;
        this.name = name;
        this.attributes = bound == null ? null : new Attributes();
    }

    /** A communicator of {@code members}, as seen by its member {@code index}. */
    Comm(Membership members, int index, int context, String name) {
        this(members, index, null, context, context, name);
    }

    /**
     * An intercommunicator between {@code local} and {@code remote}, as seen by {@code local[index]}:
     * it receives on {@code context} and sends on {@code sendContext}, the remote group's.
     */
    Comm(Membership local, int index, Membership remote, int context, int sendContext, String name) {
        this.bound = local.size() == 0 ? null : local.rank(index);
        this.context = context;
        this.members = local;
        this.index = index;
        this.remote = remote;
        this.sendContext = sendContext;
        this.self = false;
        this.name = name;
        this.attributes = bound == null ? null : new Attributes();
    }

    /** The calling rank, for a communication call: initialized, not finalized, job alive. */
    final Rank rank(String call) {
        Rank r = localRank(call);
        r.checkAlive(call);
        return r;
    }

    /** The calling rank, for a local query: initialized and not finalized. */
    final Rank localRank(String call) {
        Rank r = bound;
        if (freed) {
            throw new MPIException(MPI.ERR_COMM, call + ": the communicator " + this + " was freed");
        }
        if (r == null) {
            if (members != null) {
                throw new MPIException(MPI.ERR_COMM, call + ": the communicator is a null communicator "
                    + "(MPI_COMM_NULL: the calling rank is not a member of it)");
            }
            r = Rank.current();
            if (r == null) {
                throw new MPIException(MPI.ERR_OTHER, call + ": MPI is not initialized (call MPI.Init first)");
            }
        }
        r.checkLifecycle(call);
        return r;
    }

    final int size(Rank me) {
        return members != null ? members.size() : self ? 1 : me.job().world().size();
    }

    final int rankIn(Rank me) {
        return members != null ? index : self ? 0 : me.id();
    }

    final Rank peer(Rank me, int commRank) {
        return members != null ? members.rank(commRank) : self ? me : me.job().rank(commRank);
    }

    /** The number of ranks a point-to-point call can name: the remote group's size for an intercommunicator. */
    final int peerCount(Rank me) {
        return remote != null ? remote.size() : size(me);
    }

    /** The rank a point-to-point call names as {@code commRank} (of the remote group, for an intercommunicator). */
    final Rank target(Rank me, int commRank) {
        return remote != null ? remote.rank(commRank) : peer(me, commRank);
    }

    /** The remote group of an intercommunicator, in rank order; null for an intracommunicator. */
    final Membership remoteMembers() {
        return remote;
    }

    /** The members in rank order, as seen by {@code me}. */
    final Membership members(Rank me) {
        if (members != null) {
            return members;
        }
        return self ? Membership.self(me) : me.job().world();
    }

    /** A new communicator with the same members in the same order and a context of its own. Collective. */
    public abstract Comm dup();

    /** mpiJava's and Open MPI's {@code clone}: a duplicate ({@link #dup}). Collective. */
    @Override
    public abstract Comm clone();

    /** The group of this communicator's members. */
    public Group Group() {
        Rank me = localRank("Group");
        return new Group(members(me).ranks(), me);
    }

    /** Open MPI's {@link #Group}. */
    public final Group getGroup() {
        Rank me = localRank("getGroup");
        return new Group(members(me).ranks(), me);
    }

    /** {@code MPI.CART} or {@code MPI.GRAPH} for the communicators with a topology; overridden there. */
    int topology() {
        return MPI.UNDEFINED;
    }

    /** The topology of this communicator: {@code MPI.CART}, {@code MPI.GRAPH}, or {@code MPI.UNDEFINED} for none. */
    public int Topo_test() {
        localRank("Topo_test");
        return topology();
    }

    /** Open MPI's {@link #Topo_test}. */
    public final int getTopology() {
        localRank("getTopology");
        return topology();
    }

    /** True when this is a null communicator (Open MPI's {@code isNull}): no rank is a member, or it was freed. */
    public final boolean isNull() {
        return freed || members != null && members.size() == 0;
    }

    // ---- comparing, freeing, naming ------------------------------------------------------------

    /**
     * {@code MPI.IDENT} for the same communicator; {@code MPI.CONGRUENT} for another one with the same
     * members in the same order (for intercommunicators: local and remote groups); {@code MPI.SIMILAR}
     * with the same members in another order; {@code MPI.UNEQUAL} otherwise, and for an
     * intercommunicator against an intracommunicator.
     */
    public static int Compare(Comm comm1, Comm comm2) {
        return compare("Compare", comm1, comm2);
    }

    public static int compare(Comm comm1, Comm comm2) {
        return compare("compare", comm1, comm2);
    }

    private static int compare(String call, Comm comm1, Comm comm2) {
        if (comm1 == null || comm2 == null) {
            throw new MPIException(MPI.ERR_COMM, call + ": comm" + (comm1 == null ? 1 : 2) + " is null");
        }
        Rank me = comm1.localRank(call);
        comm2.localRank(call);
        if ((comm1.remote == null) != (comm2.remote == null)) {
            return MPI.UNEQUAL;
        }
        // Contexts are never reused in a job: the same context is the same communicator.
        if (comm1.context == comm2.context) {
            return MPI.IDENT;
        }
        int local = Group.compare(comm1.members(me).ranks(), comm2.members(me).ranks());
        // IDENT < SIMILAR < UNEQUAL: of the two groups of intercommunicators, the weaker result counts.
        int result = comm1.remote == null ? local : Math.max(local,
            Group.compare(comm1.remote.ranks(), comm2.remote.ranks()));
        return result == MPI.IDENT ? MPI.CONGRUENT : result;
    }

    /**
     * Frees this communicator: every later call on it is an {@code MPI.ERR_COMM} error, and
     * {@code isNull()} is true. Operations already started complete normally. The predefined
     * communicators cannot be freed. Collective in MPI; here each rank's call is local.
     */
    public void Free() {
        release("Free");
    }

    @Override
    public final void free() {
        release("free");
    }

    private void release(String call) {
        Rank me = localRank(call);
        if (isPredefined()) {
            throw raise(new MPIException(MPI.ERR_COMM, call + ": " + this + " is predefined and cannot be freed"));
        }
        Team t = team;
        if (t != null && t.hasMember(rankIn(me), me)) {
            t.free(rankIn(me), call); // settles a Bcast or Reduce this rank left before every rank called it
        }
        freed = true;
        local(me).deleteAll();
        releaseShared(me);
        if (index == 0) {
            me.job().forgetContext(context);
            me.job().forgetContext(context + 1);
        }
    }

    /**
     * Releases {@code me}'s hold on what the ranks of this freed communicator share (its members,
     * its collective team), so that the last member's free drops them from the job.
     */
    void releaseShared(Rank me) {
        Team.release(me.job(), context + 1, members);
        Membership.release(me.job(), context, members.size());
    }

    /** True for COMM_WORLD and COMM_SELF, which cannot be freed. */
    boolean isPredefined() {
        return members == null;
    }

    /** True for an intercommunicator. */
    public boolean Test_inter() {
        localRank("Test_inter");
        return remote != null;
    }

    public final boolean isInter() {
        localRank("isInter");
        return remote != null;
    }

    /**
     * Names this communicator for {@link #getName} and for reports (deadlock, timeout), where it reads
     * {@code name (how it was made)}. Local: other ranks keep their names.
     */
    public final void setName(String name) {
        Rank me = localRank("setName");
        if (name == null) {
            throw raise(new MPIException(MPI.ERR_ARG, "setName: name is null"));
        }
        local(me).name = name;
        if (rankIn(me) == 0) {
            me.job().describeContext(context, name + " (" + this.name + ")", remote != null ? remote : members,
                members);
        }
    }

    /**
     * The name given with {@link #setName}; else {@code MPI_COMM_WORLD} or {@code MPI_COMM_SELF} for
     * the predefined communicators (as MPI_Comm_get_name), the empty string for the others.
     */
    public final String getName() {
        String n = local(localRank("getName")).name;
        if (n != null) {
            return n;
        }
        return members != null ? "" : self ? "MPI_COMM_SELF" : "MPI_COMM_WORLD";
    }

    /**
     * Sets hints of this communicator (MPI_Comm_set_info): the keys of {@code info} take its values,
     * the other hints keep theirs. MPJ Lite acts on no hint; {@link #getInfo} returns them. Collective
     * in MPI; here each rank's call is local.
     */
    public final void setInfo(Info info) {
        Attributes a = local(localRank("setInfo"));
        java.util.Map<String, String> hints = new java.util.LinkedHashMap<>(a.hints);
        hints.putAll(raising(() -> Info.hints("setInfo", info)));
        a.hints = hints;
    }

    /** A new info holding the hints of this communicator (MPI_Comm_get_info). */
    public final Info getInfo() {
        return Info.of(local(localRank("getInfo")).hints);
    }

    /**
     * A duplicate ({@link #dup}) whose hints are those of {@code info} instead of this communicator's
     * (MPI_Comm_dup_with_info). Collective.
     */
    public Comm dupWithInfo(Info info) {
        java.util.Map<String, String> hints = raising(() -> Info.hints("dupWithInfo", info));
        Comm copy = dup();
        copy.local(copy.localRank("dupWithInfo")).hints = hints;
        return copy;
    }

    /**
     * What names this communicator in the names of those made from it by {@code me}: the program's
     * name, or how it was made.
     */
    final String label(Rank me) {
        String n = local(me).name;
        return n != null ? n : name;
    }

    /**
     * {@code me}'s name, attributes and error handler of this communicator (a predefined one is shared
     * by the ranks of a job).
     */
    private Attributes local(Rank me) {
        Attributes a = attributes;
        return a != null ? a : me.job().shared(new Attributes.Key(me.id(), context), k -> new Attributes());
    }

    // ---- intercommunicators -----------------------------------------------------------------------

    /**
     * A new intercommunicator between {@code localComm} and another group (MPI_Intercomm_create). As
     * in mpiJava and Open MPI, this is called on the peer communicator, through which the two local
     * leaders talk: {@code remoteLeader} is the other group's leader's rank in it, and {@code tag} the
     * tag of their messages on it. The peer communicator matters at the local leader only. Collective
     * over {@code localComm}; the two groups must be disjoint.
     */
    public Intercomm Create_intercomm(Comm localComm, int localLeader, int remoteLeader, int tag) {
        return raising(() -> IntercommCreation.create("Create_intercomm", this, localComm, localLeader, remoteLeader,
            tag));
    }

    public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader, int tag) {
        return raising(() -> IntercommCreation.create("createIntercomm", this, localComm, localLeader, remoteLeader,
            tag));
    }

    // ---- attributes -------------------------------------------------------------------------------

    /**
     * mpiJava: the value of attribute {@code keyval}. The predefined ones ({@code MPI.TAG_UB},
     * {@code MPI.HOST}, {@code MPI.IO}, {@code MPI.WTIME_IS_GLOBAL}) come as an {@code int[]} of one
     * element, as mpiJava returns them; a key from {@link #createKeyval} gives the object set, or null.
     */
    public Object Attr_get(int keyval) {
        Rank me = localRank("Attr_get");
        if (Attributes.isPredefined(keyval)) {
            return new int[] {Attributes.predefined(keyval, me)};
        }
        return raising(() -> local(me).get("Attr_get", keyval));
    }

    /** mpiJava: deletes the program's attribute {@code keyval} (the predefined ones cannot be). */
    public void Attr_delete(int keyval) {
        Attributes a = local(localRank("Attr_delete"));
        raising(() -> a.delete("Attr_delete", keyval));
    }

    /** A new key for {@link #setAttr}. Attributes under it are copied by {@code dup}, as in Open MPI. */
    public static int createKeyval() {
        return Attributes.createKeyval();
    }

    /**
     * Frees a key from {@link #createKeyval}: nothing can be set under it any more. Attributes set
     * under it stay, and can be read and deleted under the key, until the last is deleted (by
     * {@link #deleteAttr} or by freeing its communicator); then the key is gone, as in MPI (C's
     * MPI_Comm_free_keyval sets the caller's variable to MPI_KEYVAL_INVALID; Java cannot).
     */
    public static void freeKeyval(int keyval) {
        Attributes.freeKeyval("freeKeyval", keyval);
    }

    /** Sets the program's attribute {@code keyval} (a key from {@link #createKeyval}) of this communicator. */
    public final void setAttr(int keyval, Object value) {
        Attributes a = local(localRank("setAttr"));
        raising(() -> a.set("setAttr", keyval, value));
    }

    /**
     * Open MPI: the value of attribute {@code keyval}, or null if not set. {@code MPI.TAG_UB},
     * {@code MPI.HOST}, {@code MPI.IO}, {@code MPI.APPNUM}, {@code MPI.LASTUSEDCODE} and
     * {@code MPI.UNIVERSE_SIZE} give an {@code Integer}, {@code MPI.WTIME_IS_GLOBAL} a
     * {@code Boolean}, as in Open MPI. {@code MPI.APPNUM} is the index of the rank's command in the
     * spawn that started it (0 for the job's first ranks); {@code MPI.UNIVERSE_SIZE} the ranks that
     * can usefully run: the JVM's processors, or the job's first ranks if more.
     */
    public final Object getAttr(int keyval) {
        Rank me = localRank("getAttr");
        if (keyval == MPI.WTIME_IS_GLOBAL) {
            return Attributes.predefined(keyval, me) != 0;
        }
        if (Attributes.isPredefined(keyval)) {
            return Attributes.predefined(keyval, me);
        }
        return raising(() -> local(me).get("getAttr", keyval));
    }

    public final void deleteAttr(int keyval) {
        Attributes a = local(localRank("deleteAttr"));
        raising(() -> a.delete("deleteAttr", keyval));
    }

    /** Gives {@code copy}, a duplicate of this communicator made by {@code me}, this one's attributes. */
    final <C extends Comm> C withAttributesOf(Rank me, C copy) {
        ((Comm) copy).attributes.copyValuesOf(local(me));
        return inheriting(copy);
    }

    // ---- error handlers ---------------------------------------------------------------------

    /**
     * Hands an error of a call on this communicator to its error handler: under
     * {@link Errhandler#ERRORS_ARE_FATAL} the job fails with it (even if the program catches it);
     * either way it is returned for the caller to throw.
     */
    final MPIException raise(MPIException e) {
        Rank me = bound != null ? bound : Rank.current();
        if (me != null && errhandlerOf(me).endsJob()) {
            me.job().fail(me.id(), e);
        }
        return e;
    }

    /**
     * Runs {@code call} and returns its result; an MPIException it throws goes to this
     * communicator's error handler ({@link #raise}) before it is rethrown. For calls whose checks
     * are made by helpers that do not raise; a lambda per call, so not for hot paths.
     */
    final <T> T raising(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** As {@link #raising(java.util.function.Supplier)}, for a call that returns nothing. */
    final void raising(Runnable call) {
        try {
            call.run();
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    final Errhandler errhandlerOf(Rank me) {
        Errhandler h = local(me).errhandler;
        return h != null ? h : Errhandler.ERRORS_RETURN;
    }

    /**
     * Gives {@code child}, made from this communicator by the rank it is bound to, this one's error
     * handler: MPI's new communicators inherit their parent's.
     */
    final <C extends Comm> C inheriting(C child) {
        Comm c = child;
        if (c.bound != null) {
            c.attributes.errhandler = local(c.bound).errhandler;
        }
        return child;
    }

    /** Sets what happens when a call on this communicator fails (see {@link Errhandler}). */
    public final void setErrhandler(Errhandler handler) {
        Rank me = localRank("setErrhandler");
        if (handler == null) {
            throw raise(new MPIException(MPI.ERR_ARG, "setErrhandler: the error handler is null (use MPI.ERRORS_RETURN"
                + " or MPI.ERRORS_ARE_FATAL)"));
        }
        local(me).errhandler = handler;
    }

    /** The error handler of this communicator; {@link Errhandler#ERRORS_RETURN} unless one was set. */
    public final Errhandler getErrhandler() {
        return errhandlerOf(localRank("getErrhandler"));
    }

    /**
     * Calls this communicator's error handler on {@code errorCode} (MPI_Comm_call_errhandler): under
     * {@code ERRORS_ARE_FATAL} (or {@code ERRORS_ABORT}) the job ends with that error and this throws it;
     * under {@code ERRORS_RETURN} the handler returns and so does this call, as MPI says (the C call
     * returns MPI_SUCCESS; Open MPI's Java binding throws nothing).
     */
    public void callErrhandler(int errorCode) {
        localRank("callErrhandler");
        if (!org.mpjlite.smpdev.error.ErrorClass.isValid(errorCode)) {
            throw new MPIException(MPI.ERR_ARG, "callErrhandler: " + errorCode + " is not an error code (0.."
                + MPI.ERR_LASTCODE + ")");
        }
        MPIException e = new MPIException(errorCode, "callErrhandler: error raised by the program on " + this);
        if (errhandlerOf(localRank("callErrhandler")).endsJob()) {
            throw raise(e);
        }
        // ERRORS_RETURN: the handler returns, and so does the call (MPI_SUCCESS in C, no exception in Java).
    }

    /** mpiJava 1.2: {@link #setErrhandler}. */
    public void Errhandler_set(Errhandler handler) {
        setErrhandler(handler);
    }

    /** mpiJava 1.2: {@link #getErrhandler}. */
    public Errhandler Errorhandler_get() {
        return getErrhandler();
    }

    // ---- mpiJava 1.2 ------------------------------------------------------------------------

    public int Size() {
        return size(localRank("Size"));
    }

    public int Rank() {
        return rankIn(localRank("Rank"));
    }

    /** Ends the whole job with {@code errorcode} as its exit code. Does not return. */
    public void Abort(int errorcode) {
        Rank me = bound != null ? bound : Rank.current();
        if (me == null) {
            throw new MPIException(MPI.ERR_OTHER, "Abort: MPI is not initialized (call MPI.Init first)");
        }
        throw me.job().abort(me, errorcode);
    }

    public void Send(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        PointToPointCalls.send(this, "Send", buf, offset, count, type, dest, tag, SendMode.STANDARD);
    }

    public void Ssend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        PointToPointCalls.send(this, "Ssend", buf, offset, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    /**
     * mpiJava's buffered send, as MPJ Express: the message is copied into the buffer attached with
     * {@code MPI.Buffer_attach}, whatever its size; {@code MPI.ERR_BUFFER} without one or when it does
     * not fit. {@link #Ibsend} and {@link #Bsend_init} alike. (Open MPI's {@link #bSend} sends small
     * messages without the buffer.)
     */
    public void Bsend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        PointToPointCalls.send(this, "Bsend", buf, offset, count, type, dest, tag, SendMode.BUFFERED);
    }

    public void Rsend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        PointToPointCalls.send(this, "Rsend", buf, offset, count, type, dest, tag, SendMode.READY);
    }

    public Request Isend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.isend(this, "Isend", buf, offset, count, type, dest, tag, SendMode.STANDARD);
    }

    public Request Ibsend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.isend(this, "Ibsend", buf, offset, count, type, dest, tag, SendMode.BUFFERED);
    }

    public Request Issend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.isend(this, "Issend", buf, offset, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    public Request Irsend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.isend(this, "Irsend", buf, offset, count, type, dest, tag, SendMode.READY);
    }

    public Status Recv(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return Status.taking(PointToPointCalls.recv(this, "Recv", buf, offset, count, type, source, tag));
    }

    public Request Irecv(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return PointToPointCalls.irecv(this, "Irecv", buf, offset, count, type, source, tag);
    }

    public Prequest Send_init(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.sendInit(this, "Send_init", buf, offset, count, type, dest, tag, SendMode.STANDARD);
    }

    public Prequest Bsend_init(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.sendInit(this, "Bsend_init", buf, offset, count, type, dest, tag, SendMode.BUFFERED);
    }

    public Prequest Ssend_init(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.sendInit(this, "Ssend_init", buf, offset, count, type, dest, tag,
            SendMode.SYNCHRONOUS);
    }

    public Prequest Rsend_init(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.sendInit(this, "Rsend_init", buf, offset, count, type, dest, tag, SendMode.READY);
    }

    public Prequest Recv_init(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return PointToPointCalls.recvInit(this, "Recv_init", buf, offset, count, type, source, tag);
    }

    public Status Sendrecv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, int dest, int sendtag,
                           Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int source, int recvtag) {
        return Status.taking(PointToPointCalls.sendRecv(this, "Sendrecv", sendbuf, sendoffset, sendcount, sendtype, dest,
            sendtag, recvbuf, recvoffset, recvcount, recvtype, source, recvtag));
    }

    public Status Sendrecv_replace(Object buf, int offset, int count, Datatype type, int dest, int sendtag,
                                   int source, int recvtag) {
        return PointToPointCalls.sendRecvReplace(this, "Sendrecv_replace", buf, offset, count, type, dest, sendtag,
            source, recvtag);
    }

    /** Packs into {@code outbuf} from byte {@code position}; returns the position after the data. */
    public int Pack(Object inbuf, int offset, int incount, Datatype datatype, byte[] outbuf, int position) {
        return PackCalls.pack(this, "Pack", inbuf, offset, incount, datatype, outbuf, position);
    }

    /** Packs into an mpjbuf buffer (MPJ Express), as typed sections; returns its new write position. */
    public int Pack(Object inbuf, int offset, int incount, Datatype datatype, mpjbuf.Buffer outbuf, int position) {
        return PackCalls.pack(this, "Pack", inbuf, offset, incount, datatype, outbuf, position);
    }

    /** Unpacks from byte {@code position} of {@code inbuf}; returns the position after the data. */
    public int Unpack(byte[] inbuf, int position, Object outbuf, int offset, int outcount, Datatype datatype) {
        return PackCalls.unpack(this, "Unpack", inbuf, position, outbuf, offset, outcount, datatype);
    }

    /** Unpacks out of an mpjbuf buffer (MPJ Express); returns its new read position. */
    public int Unpack(mpjbuf.Buffer inbuf, int position, Object outbuf, int offset, int outcount, Datatype datatype) {
        return PackCalls.unpack(this, "Unpack", inbuf, position, outbuf, offset, outcount, datatype);
    }

    /** An upper bound of the bytes {@code Pack} takes for {@code incount} items. */
    public int Pack_size(int incount, Datatype datatype) {
        return PackCalls.packSize(this, "Pack_size", incount, datatype);
    }

    /** The status of a waiting message the pattern accepts, or null if there is none. */
    public Status Iprobe(int source, int tag) {
        return PointToPointCalls.probe(this, "Iprobe", source, tag, false);
    }

    public Status Probe(int source, int tag) {
        return PointToPointCalls.probe(this, "Probe", source, tag, true);
    }

    // ---- Open MPI Java ----------------------------------------------------------------------

    public final int getSize() {
        return size(localRank("getSize"));
    }

    public final int getRank() {
        return rankIn(localRank("getRank"));
    }

    public final void abort(int errorcode) {
        Abort(errorcode);
    }

    public final void send(Object buf, int count, Datatype type, int dest, int tag) {
        PointToPointCalls.send(this, "send", buf, 0, count, type, dest, tag, SendMode.STANDARD);
    }

    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) {
        PointToPointCalls.send(this, "sSend", buf, 0, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    /**
     * Open MPI's buffered send. As Open MPI does (its ob1 layer copies a buffered message that fits
     * the eager limit straight into an eager fragment), a message of at most the eager threshold
     * ({@code mpjrun --eager-threshold}, 16 KiB by default) is sent eagerly and completes at once without the
     * attached buffer: it needs none, and does not use the room of one. A larger message goes
     * through the attached buffer, and is {@code MPI.ERR_BUFFER} without one or when it does not fit.
     * The same holds for {@link #ibSend} and {@link #bSendInit}. mpiJava's {@link #Bsend} follows MPJ
     * Express instead: every message goes through the attached buffer.
     */
    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) {
        PointToPointCalls.send(this, "bSend", buf, 0, count, type, dest, tag, SendMode.BUFFERED);
    }

    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) {
        PointToPointCalls.send(this, "rSend", buf, 0, count, type, dest, tag, SendMode.READY);
    }

    public final Status recv(Object buf, int count, Datatype type, int source, int tag) {
        return Status.taking(PointToPointCalls.recv(this, "recv", buf, 0, count, type, source, tag));
    }

    /** Accepts NIO buffers (as Open MPI) and arrays (as MVAPICH2-J and mpiJava). */
    public final Request iSend(Object buf, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.isend(this, "iSend", buf, 0, count, type, dest, tag, SendMode.STANDARD);
    }

    /** Open MPI's non-blocking buffered send: eager up to the eager threshold, as {@link #bSend}. */
    public final Request ibSend(Object buf, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.isend(this, "ibSend", buf, 0, count, type, dest, tag, SendMode.BUFFERED);
    }

    public final Request isSend(Object buf, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.isend(this, "isSend", buf, 0, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    public final Request irSend(Object buf, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.isend(this, "irSend", buf, 0, count, type, dest, tag, SendMode.READY);
    }

    public final Request iRecv(Object buf, int count, Datatype type, int source, int tag) {
        return PointToPointCalls.irecv(this, "iRecv", buf, 0, count, type, source, tag);
    }

    public final Prequest sendInit(Object buf, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.sendInit(this, "sendInit", buf, 0, count, type, dest, tag, SendMode.STANDARD);
    }

    /** Open MPI's persistent buffered send: eager up to the eager threshold, as {@link #bSend}. */
    public final Prequest bSendInit(Object buf, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.sendInit(this, "bSendInit", buf, 0, count, type, dest, tag, SendMode.BUFFERED);
    }

    public final Prequest sSendInit(Object buf, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.sendInit(this, "sSendInit", buf, 0, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    public final Prequest rSendInit(Object buf, int count, Datatype type, int dest, int tag) {
        return PointToPointCalls.sendInit(this, "rSendInit", buf, 0, count, type, dest, tag, SendMode.READY);
    }

    public final Prequest recvInit(Object buf, int count, Datatype type, int source, int tag) {
        return PointToPointCalls.recvInit(this, "recvInit", buf, 0, count, type, source, tag);
    }

    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag) {
        return Status.taking(PointToPointCalls.sendRecv(this, "sendRecv", sendbuf, 0, sendcount, sendtype, dest, sendtag,
            recvbuf, 0, recvcount, recvtype, source, recvtag));
    }

    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source,
                                        int recvtag) {
        return PointToPointCalls.sendRecvReplace(this, "sendRecvReplace", buf, 0, count, type, dest, sendtag,
            source, recvtag);
    }

    public final int pack(Object inBuf, int inCount, Datatype type, byte[] outBuf, int position) {
        return PackCalls.pack(this, "pack", inBuf, 0, inCount, type, outBuf, position);
    }

    public final int unpack(byte[] inBuf, int position, Object outBuf, int outCount, Datatype type) {
        return PackCalls.unpack(this, "unpack", inBuf, position, outBuf, 0, outCount, type);
    }

    public final int packSize(int inCount, Datatype type) {
        return PackCalls.packSize(this, "packSize", inCount, type);
    }

    public final Status iProbe(int source, int tag) {
        return PointToPointCalls.probe(this, "iProbe", source, tag, false);
    }

    public final Status probe(int source, int tag) {
        return PointToPointCalls.probe(this, "probe", source, tag, true);
    }

    // ---- collectives: mpiJava 1.2 (Scan is on Intracomm; both dialects go through CollectiveCalls) ----

    public void Barrier() {
        CollectiveCalls.barrier(this, "Barrier", false);
    }

    public void Bcast(Object buf, int offset, int count, Datatype type, int root) {
        CollectiveCalls.bcast(this, "Bcast", false, buf, offset, count, type, root);
    }

    public void Gather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                       int recvoffset, int recvcount, Datatype recvtype, int root) {
        CollectiveCalls.gather(this, "Gather", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
            recvcount, recvtype, root, false);
    }

    public void Gatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                        int recvoffset, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        CollectiveCalls.gatherv(this, "Gatherv", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
            recvcount, displs, recvtype, root, false);
    }

    public void Scatter(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                        int recvoffset, int recvcount, Datatype recvtype, int root) {
        CollectiveCalls.scatter(this, "Scatter", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
            recvcount, recvtype, root, false);
    }

    public void Scatterv(Object sendbuf, int sendoffset, int[] sendcount, int[] displs, Datatype sendtype,
                         Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        CollectiveCalls.scatterv(this, "Scatterv", false, sendbuf, sendoffset, sendcount, displs, sendtype, recvbuf,
            recvoffset, recvcount, recvtype, root, false);
    }

    public void Allgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                          int recvoffset, int recvcount, Datatype recvtype) {
        CollectiveCalls.allgather(this, "Allgather", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf,
            recvoffset, recvcount, recvtype, false);
    }

    public void Allgatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                           int recvoffset, int[] recvcount, int[] displs, Datatype recvtype) {
        CollectiveCalls.allgatherv(this, "Allgatherv", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf,
            recvoffset, recvcount, displs, recvtype, false);
    }

    public void Alltoall(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                         int recvoffset, int recvcount, Datatype recvtype) {
        CollectiveCalls.alltoall(this, "Alltoall", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
            recvcount, recvtype);
    }

    public void Alltoallv(Object sendbuf, int sendoffset, int[] sendcount, int[] sdispls, Datatype sendtype,
                          Object recvbuf, int recvoffset, int[] recvcount, int[] rdispls, Datatype recvtype) {
        CollectiveCalls.alltoallv(this, "Alltoallv", false, sendbuf, sendoffset, sendcount, sdispls, sendtype, recvbuf,
            recvoffset, recvcount, rdispls, recvtype);
    }

    public void Reduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                       Op op, int root) {
        CollectiveCalls.reduce(this, "Reduce", false, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op,
            root, false);
    }

    public void Allreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                          Datatype datatype, Op op) {
        CollectiveCalls.allreduce(this, "Allreduce", false, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype,
            op, false);
    }

    public void Reduce_scatter(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts,
                               Datatype datatype, Op op) {
        CollectiveCalls.reduceScatter(this, "Reduce_scatter", false, sendbuf, sendoffset, recvbuf, recvoffset,
            recvcounts, 0, datatype, op, false);
    }

    // ---- collectives: Open MPI Java (scan and exScan are on Intracomm) ----

    /**
     * The team last used through this communicator. A communicator object may serve several ranks
     * and jobs (COMM_WORLD loaded by a shared class loader), so it is checked before use; racing
     * updates only cost a lookup.
     */
    private volatile Team team;
    /**
     * The invocation record of the last blocking collective here ({@code CollectiveCalls.Invocation.of});
     * plain. Kept only by a communicator bound to its rank: a predefined one that serves the threads
     * of every rank (in a test run by the JUnit extension) would have them take turns writing it.
     */
    CollectiveCalls.Invocation blockingInvocation;

    /** True when this communicator belongs to one rank, not to whichever rank calls it. */
    final boolean isBound() {
        return bound != null;
    }

    /**
     * The collective engine's team of this communicator, as seen by {@code me}. Collectives use the
     * context after the point-to-point one, so they never match point-to-point traffic.
     */
    final Team team(Rank me) {
        Team t = team;
        if (t == null || !t.hasMember(rankIn(me), me)) {
            t = members != null ? Team.of(me.job(), context + 1, members)
                : self ? Team.self(me, context + 1) : Team.world(me, context + 1);
            team = t;
        }
        return t;
    }

    public final void barrier() {
        CollectiveCalls.barrier(this, "barrier", false);
    }

    public final Request iBarrier() {
        return CollectiveCalls.barrier(this, "iBarrier", true);
    }

    public final void bcast(Object buf, int count, Datatype type, int root) {
        CollectiveCalls.bcast(this, "bcast", false, buf, 0, count, type, root);
    }

    public final Request iBcast(Object buf, int count, Datatype type, int root) {
        return CollectiveCalls.bcast(this, "iBcast", true, buf, 0, count, type, root);
    }

    public final void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                             Datatype recvtype, int root) {
        CollectiveCalls.gather(this, "gather", false, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype,
            root, false);
    }

    /**
     * In place: at the root {@code buf} is the receive buffer, its own block already there; elsewhere
     * the send buffer.
     */
    public final void gather(Object buf, int count, Datatype type, int root) {
        CollectiveCalls.gather(this, "gather", false, buf, 0, count, type, buf, 0, count, type, root, true);
    }

    public final Request iGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                 Datatype recvtype, int root) {
        return CollectiveCalls.gather(this, "iGather", true, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount,
            recvtype, root, false);
    }

    public final Request iGather(Object buf, int count, Datatype type, int root) {
        return CollectiveCalls.gather(this, "iGather", true, buf, 0, count, type, buf, 0, count, type, root, true);
    }

    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                              int[] displs, Datatype recvtype, int root) {
        CollectiveCalls.gatherv(this, "gatherv", false, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, displs,
            recvtype, root, false);
    }

    /** In place, at the root: its own block is already in {@code recvbuf}. */
    public final void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        CollectiveCalls.gatherv(this, "gatherv", false, null, 0, 0, recvtype, recvbuf, 0, recvcount, displs, recvtype,
            root, true);
    }

    /** In place, at a non-root: sends {@code sendcount} items. */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) {
        CollectiveCalls.gatherv(this, "gatherv", false, sendbuf, 0, sendcount, sendtype, null, 0, null, null, sendtype,
            root, true);
    }

    public final Request iGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                                  int[] displs, Datatype recvtype, int root) {
        return CollectiveCalls.gatherv(this, "iGatherv", true, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount,
            displs, recvtype, root, false);
    }

    public final Request iGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        return CollectiveCalls.gatherv(this, "iGatherv", true, null, 0, 0, recvtype, recvbuf, 0, recvcount, displs,
            recvtype, root, true);
    }

    public final Request iGatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) {
        return CollectiveCalls.gatherv(this, "iGatherv", true, sendbuf, 0, sendcount, sendtype, null, 0, null, null,
            sendtype, root, true);
    }

    public final void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                              Datatype recvtype, int root) {
        CollectiveCalls.scatter(this, "scatter", false, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount,
            recvtype, root, false);
    }

    /** In place: at the root {@code buf} is the send buffer and its own block stays; elsewhere the receive buffer. */
    public final void scatter(Object buf, int count, Datatype type, int root) {
        CollectiveCalls.scatter(this, "scatter", false, buf, 0, count, type, buf, 0, count, type, root, true);
    }

    public final Request iScatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                  Datatype recvtype, int root) {
        return CollectiveCalls.scatter(this, "iScatter", true, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount,
            recvtype, root, false);
    }

    public final Request iScatter(Object buf, int count, Datatype type, int root) {
        return CollectiveCalls.scatter(this, "iScatter", true, buf, 0, count, type, buf, 0, count, type, root, true);
    }

    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
                               int recvcount, Datatype recvtype, int root) {
        CollectiveCalls.scatterv(this, "scatterv", false, sendbuf, 0, sendcount, displs, sendtype, recvbuf, 0,
            recvcount, recvtype, root, false);
    }

    /** In place, at the root: its own block stays in {@code sendbuf}. */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root) {
        CollectiveCalls.scatterv(this, "scatterv", false, sendbuf, 0, sendcount, displs, sendtype, null, 0, 0, sendtype,
            root, true);
    }

    /** In place, at a non-root: receives {@code recvcount} items. */
    public final void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) {
        CollectiveCalls.scatterv(this, "scatterv", false, null, 0, null, null, recvtype, recvbuf, 0, recvcount,
            recvtype, root, true);
    }

    public final Request iScatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
                                   int recvcount, Datatype recvtype, int root) {
        return CollectiveCalls.scatterv(this, "iScatterv", true, sendbuf, 0, sendcount, displs, sendtype, recvbuf, 0,
            recvcount, recvtype, root, false);
    }

    public final Request iScatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root) {
        return CollectiveCalls.scatterv(this, "iScatterv", true, sendbuf, 0, sendcount, displs, sendtype, null, 0, 0,
            sendtype, root, true);
    }

    public final Request iScatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) {
        return CollectiveCalls.scatterv(this, "iScatterv", true, null, 0, null, null, recvtype, recvbuf, 0, recvcount,
            recvtype, root, true);
    }

    public final void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                Datatype recvtype) {
        CollectiveCalls.allgather(this, "allGather", false, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount,
            recvtype, false);
    }

    /** In place: each rank's block is already at its place in {@code buf}. */
    public final void allGather(Object buf, int count, Datatype type) {
        CollectiveCalls.allgather(this, "allGather", false, null, 0, count, type, buf, 0, count, type, true);
    }

    public final Request iAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                    Datatype recvtype) {
        return CollectiveCalls.allgather(this, "iAllGather", true, sendbuf, 0, sendcount, sendtype, recvbuf, 0,
            recvcount, recvtype, false);
    }

    public final Request iAllGather(Object buf, int count, Datatype type) {
        return CollectiveCalls.allgather(this, "iAllGather", true, null, 0, count, type, buf, 0, count, type, true);
    }

    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                                 int[] displs, Datatype recvtype) {
        CollectiveCalls.allgatherv(this, "allGatherv", false, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount,
            displs, recvtype, false);
    }

    /** In place: each rank's block is already at its place in {@code recvbuf}. */
    public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) {
        CollectiveCalls.allgatherv(this, "allGatherv", false, null, 0, 0, recvtype, recvbuf, 0, recvcount, displs,
            recvtype, true);
    }

    public final Request iAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                     int[] recvcount, int[] displs, Datatype recvtype) {
        return CollectiveCalls.allgatherv(this, "iAllGatherv", true, sendbuf, 0, sendcount, sendtype, recvbuf, 0,
            recvcount, displs, recvtype, false);
    }

    public final Request iAllGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) {
        return CollectiveCalls.allgatherv(this, "iAllGatherv", true, null, 0, 0, recvtype, recvbuf, 0, recvcount,
            displs, recvtype, true);
    }

    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                               Datatype recvtype) {
        CollectiveCalls.alltoall(this, "allToAll", false, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount,
            recvtype);
    }

    public final Request iAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                   Datatype recvtype) {
        return CollectiveCalls.alltoall(this, "iAllToAll", true, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount,
            recvtype);
    }

    public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
                                int[] recvcount, int[] rdispls, Datatype recvtype) {
        CollectiveCalls.alltoallv(this, "allToAllv", false, sendbuf, 0, sendcount, sdispls, sendtype, recvbuf, 0,
            recvcount, rdispls, recvtype);
    }

    public final Request iAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                    Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) {
        return CollectiveCalls.alltoallv(this, "iAllToAllv", true, sendbuf, 0, sendcount, sdispls, sendtype, recvbuf, 0,
            recvcount, rdispls, recvtype);
    }

    /** A datatype per peer; displacements in bytes (as MPI_Alltoallw). */
    public final void allToAllw(Object sendbuf, int[] sendcount, int[] sdispls, Datatype[] sendtypes, Object recvbuf,
                                int[] recvcount, int[] rdispls, Datatype[] recvtypes) {
        CollectiveCalls.alltoallw(this, "allToAllw", false, sendbuf, sendcount, sdispls, sendtypes, recvbuf, recvcount,
            rdispls, recvtypes);
    }

    public final Request iAllToAllw(Object sendbuf, int[] sendcount, int[] sdispls, Datatype[] sendtypes,
                                    Object recvbuf, int[] recvcount, int[] rdispls, Datatype[] recvtypes) {
        return CollectiveCalls.alltoallw(this, "iAllToAllw", true, sendbuf, sendcount, sdispls, sendtypes, recvbuf,
            recvcount, rdispls, recvtypes);
    }

    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root) {
        CollectiveCalls.reduce(this, "reduce", false, sendbuf, 0, recvbuf, 0, count, type, op, root, false);
    }

    /** In place: at the root {@code buf} holds its contribution and receives the result; elsewhere the send buffer. */
    public final void reduce(Object buf, int count, Datatype type, Op op, int root) {
        CollectiveCalls.reduce(this, "reduce", false, buf, 0, buf, 0, count, type, op, root, true);
    }

    public final Request iReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root) {
        return CollectiveCalls.reduce(this, "iReduce", true, sendbuf, 0, recvbuf, 0, count, type, op, root, false);
    }

    public final Request iReduce(Object buf, int count, Datatype type, Op op, int root) {
        return CollectiveCalls.reduce(this, "iReduce", true, buf, 0, buf, 0, count, type, op, root, true);
    }

    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        CollectiveCalls.allreduce(this, "allReduce", false, sendbuf, 0, recvbuf, 0, count, type, op, false);
    }

    /** In place: {@code buf} holds the contribution and receives the result. */
    public final void allReduce(Object buf, int count, Datatype type, Op op) {
        CollectiveCalls.allreduce(this, "allReduce", false, null, 0, buf, 0, count, type, op, true);
    }

    public final Request iAllReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        return CollectiveCalls.allreduce(this, "iAllReduce", true, sendbuf, 0, recvbuf, 0, count, type, op, false);
    }

    public final Request iAllReduce(Object buf, int count, Datatype type, Op op) {
        return CollectiveCalls.allreduce(this, "iAllReduce", true, null, 0, buf, 0, count, type, op, true);
    }

    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op) {
        CollectiveCalls.reduceScatter(this, "reduceScatter", false, sendbuf, 0, recvbuf, 0, recvcounts, 0, type, op,
            false);
    }

    /** In place: {@code buf} holds the whole contribution; the rank's block of the result goes at its start. */
    public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op) {
        CollectiveCalls.reduceScatter(this, "reduceScatter", false, null, 0, buf, 0, counts, 0, type, op, true);
    }

    public final Request iReduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op) {
        return CollectiveCalls.reduceScatter(this, "iReduceScatter", true, sendbuf, 0, recvbuf, 0, recvcounts, 0, type,
            op, false);
    }

    public final Request iReduceScatter(Object buf, int[] counts, Datatype type, Op op) {
        return CollectiveCalls.reduceScatter(this, "iReduceScatter", true, null, 0, buf, 0, counts, 0, type, op, true);
    }

    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op) {
        CollectiveCalls.reduceScatter(this, "reduceScatterBlock", false, sendbuf, 0, recvbuf, 0, null, recvcount, type,
            op, false);
    }

    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) {
        CollectiveCalls.reduceScatter(this, "reduceScatterBlock", false, null, 0, buf, 0, null, count, type, op, true);
    }

    public final Request iReduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op) {
        return CollectiveCalls.reduceScatter(this, "iReduceScatterBlock", true, sendbuf, 0, recvbuf, 0, null, recvcount,
            type, op, false);
    }

    public final Request iReduceScatterBlock(Object buf, int count, Datatype type, Op op) {
        return CollectiveCalls.reduceScatter(this, "iReduceScatterBlock", true, null, 0, buf, 0, null, count, type, op,
            true);
    }

    /** MPI_Reduce_local: {@code inOutBuf = inBuf op inOutBuf}, no communication. */
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) {
        CollectiveCalls.reduceLocal("reduceLocal", inBuf, inOutBuf, count, type, op);
    }

    /** How this communicator was made ({@code MPI.COMM_WORLD.Split(color=1)}), after its name if it has one. */
    @Override
    public String toString() {
        String n = attributes == null ? null : attributes.name;
        return n == null ? name : n + " (" + name + ")";
    }

    // ---- neighbourhood collectives (Open MPI; NeighborCollectives) ---------------------------

    /**
     * The calling rank's neighbourhood in this communicator's topology; a communicator without a
     * Cartesian, graph or distributed-graph topology has none: {@code MPI_ERR_TOPOLOGY}.
     */
    NeighborCollectives.Neighbors neighbors(String call, Rank me) {
        throw new MPIException(MPI.ERR_TOPOLOGY, call + ": " + this + " has no topology; neighbourhood collectives"
            + " need a Cartesian, graph or distributed-graph communicator (createCart, createGraph, createDistGraph)");
    }

    /**
     * MPI_Neighbor_allgather: sends {@code sendcount} items to every neighbour and receives
     * {@code recvcount} items from each, block {@code i} of the receive buffer from neighbour
     * {@code i} (for a Cartesian communicator: per dimension, the rank one step back, then one step
     * forward; for a graph, its neighbours in order). A {@code PROC_NULL} neighbour's block is left
     * untouched. Collective.
     */
    public final void neighborAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                        int recvcount, Datatype recvtype) {
        NeighborCollectives.allGather(this, "neighborAllGather", false, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, recvtype);
    }

    /** Non-blocking {@link #neighborAllGather}. */
    public final Request iNeighborAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                            int recvcount, Datatype recvtype) {
        return NeighborCollectives.allGather(this, "iNeighborAllGather", true, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, recvtype);
    }

    /**
     * MPI_Neighbor_allgatherv: as {@link #neighborAllGather}, neighbour {@code i}'s block of
     * {@code recvcount[i]} items at {@code displs[i]} items into the receive buffer.
     */
    public final void neighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                         int[] recvcount, int[] displs, Datatype recvtype) {
        NeighborCollectives.allGatherv(this, "neighborAllGatherv", false, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, displs, recvtype);
    }

    /** Non-blocking {@link #neighborAllGatherv}. */
    public final Request iNeighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                             int[] recvcount, int[] displs, Datatype recvtype) {
        return NeighborCollectives.allGatherv(this, "iNeighborAllGatherv", true, sendbuf, sendcount, sendtype,
            recvbuf, recvcount, displs, recvtype);
    }

    /**
     * MPI_Neighbor_alltoall: block {@code j} of the send buffer ({@code sendcount} items) to
     * neighbour {@code j}, block {@code i} of the receive buffer from neighbour {@code i}, in the
     * neighbour order of {@link #neighborAllGather}. Collective.
     */
    public final void neighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                       int recvcount, Datatype recvtype) {
        NeighborCollectives.allToAll(this, "neighborAllToAll", false, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, recvtype);
    }

    /** Non-blocking {@link #neighborAllToAll}. */
    public final Request iNeighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                           int recvcount, Datatype recvtype) {
        return NeighborCollectives.allToAll(this, "iNeighborAllToAll", true, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, recvtype);
    }

    /**
     * MPI_Neighbor_alltoallv: to neighbour {@code j}, {@code sendcount[j]} items at {@code sdispls[j]};
     * from neighbour {@code i}, {@code recvcount[i]} items at {@code rdispls[i]} (displacements in
     * items). Collective.
     */
    public final void neighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                        Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) {
        NeighborCollectives.allToAllv(this, "neighborAllToAllv", false, sendbuf, sendcount, sdispls, sendtype, recvbuf,
            recvcount, rdispls, recvtype);
    }

    /** Non-blocking {@link #neighborAllToAllv}. */
    public final Request iNeighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                            Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) {
        return NeighborCollectives.allToAllv(this, "iNeighborAllToAllv", true, sendbuf, sendcount, sdispls, sendtype,
            recvbuf, recvcount, rdispls, recvtype);
    }

    // ---- non-blocking duplication, disconnect (Open MPI) -------------------------------------

    /** MPI_COMM_TYPE_SHARED for {@link Intracomm#splitType}: the ranks that share memory (every rank here). */
    public static final int TYPE_SHARED = 0;

    /**
     * MPI_Comm_idup: a duplicate, as {@link #dup}, returned at once without waiting for the other
     * members (its context is agreed without a collective: {@link ContextAgreement}), so it is
     * usable at once; {@link #getRequest} on it gives its already complete request. Every member
     * calls it, in the same order relative to its other collectives on this communicator.
     */
    public abstract Comm iDup();

    /**
     * The request of the {@link #iDup} that made this communicator (MPI_Comm_idup's request):
     * always complete here, because the duplicate is ready when {@code iDup} returns; waiting on it
     * returns at once. Any other communicator gives a complete request too.
     */
    public final Request getRequest() {
        return new Request(localRank("getRequest"), null, new Status());
    }

    /**
     * MPI_Comm_disconnect: every member waits for the others ({@code barrier}; for an
     * intercommunicator, nothing to wait for here) and the communicator is freed. Operations the
     * program started on it must be complete: MPI has disconnect wait for them, and here they
     * complete only through the program's own waits. Collective.
     */
    public final void disconnect() {
        if (remoteMembers() == null) {
            barrier();
        }
        free();
    }

    /** {@code me}'s number for its next call of {@code kind} on this communicator, alike on every member. */
    final int sequence(Rank me, Object kind) {
        return local(me).next(kind);
    }
}
