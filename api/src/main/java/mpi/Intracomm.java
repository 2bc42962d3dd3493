package mpi;

import org.mpjlite.smpdev.Membership;
import org.mpjlite.smpdev.Rank;

/**
 * An intra-communicator: one group of ranks talking among themselves ({@code MPI.COMM_WORLD},
 * {@code MPI.COMM_SELF}). Holds the scans of both dialects, which MPI defines on intracommunicators
 * only; the other collectives of both dialects are on {@link Comm}, for intercommunicators too. Every collective goes through the
 * shared-memory engine ({@link CollectiveCalls}) and never matches point-to-point traffic.
 */
public class Intracomm extends Comm {
    static final int WORLD_CONTEXT = 0;
    static final int SELF_CONTEXT = 2;

    Intracomm(Rank bound, int context, boolean self, String name) {
        super(bound, context, self, name);
    }

    Intracomm(Membership members, int index, int context, String name) {
        super(members, index, context, name);
    }

    /** The communicator a creation call made for this rank. */
    Intracomm(CommCreation.Result r) {
        this(r.members(), r.index(), r.context(), r.name());
    }

    /**
     * The world communicator of a rank (null: of the calling thread's rank). For the runtime:
     * {@code MPI.COMM_WORLD} is made with it.
     */
    public static Intracomm world(Rank rank) {
        return new Intracomm(rank, WORLD_CONTEXT, false, "MPI.COMM_WORLD");
    }

    /** Names the predefined communicators' contexts in the job's reports. For the runtime. */
    public static void namePredefined(org.mpjlite.smpdev.Job job) {
        job.nameContext(WORLD_CONTEXT, "MPI.COMM_WORLD");
        job.nameContext(WORLD_CONTEXT + 1, "MPI.COMM_WORLD (collectives)");
        job.nameContext(SELF_CONTEXT, "MPI.COMM_SELF");
        job.nameContext(SELF_CONTEXT + 1, "MPI.COMM_SELF (collectives)");
    }

    /** The self communicator of a rank (null: of the calling thread's rank). For the runtime. */
    public static Intracomm self(Rank rank) {
        return new Intracomm(rank, SELF_CONTEXT, true, "MPI.COMM_SELF");
    }

    /** Open MPI's answer to a rank that is not in the new communicator: a null communicator. */
    static Intracomm nullComm() {
        return new Intracomm(CommCreation.NULL_COMMUNICATOR);
    }

    // ---- new communicators -------------------------------------------------------------------

    /**
     * A new communicator of the ranks that pass the same {@code color}, ordered by {@code key} (ties
     * by rank here); null for a rank that passes {@code MPI.UNDEFINED}. Collective.
     */
    public Intracomm Split(int color, int key) {
        return created(CommCreation.split(this, "Split", color, key, ".Split(color=" + color + ")"));
    }

    /** As {@link #Split}, but a rank that passes {@code MPI.UNDEFINED} gets a null communicator ({@code isNull()}). */
    public final Intracomm split(int color, int key) {
        return orNull(created(CommCreation.split(this, "split", color, key, ".split(color=" + color + ")")));
    }

    /**
     * A new communicator of the ranks of {@code group}, in the group's order; null for a rank not in
     * it. Collective: every rank of this communicator calls it. As MPI-2.2 allows, the ranks may pass
     * different, disjoint groups (every member of one group passing that same group; a rank in none
     * passes an empty group): each group gets a communicator of its own, with its own contexts.
     */
    public Intracomm Create(Group group) {
        return created(create("Create", group));
    }

    /** As {@link #Create}, but a rank not in the group gets a null communicator ({@code isNull()}). */
    public final Intracomm create(Group group) {
        return orNull(created(create("create", group)));
    }

    /**
     * A new communicator with the same members in the same order and a context of its own, with the
     * program's attributes of this one (not its name). Collective.
     */
    public Intracomm Dup() {
        return withAttributesOf(rank("Dup"), created(CommCreation.duplicate(this, "Dup")));
    }

    @Override
    public Intracomm dup() {
        return withAttributesOf(rank("dup"), created(CommCreation.duplicate(this, "dup")));
    }

    /** A duplicate whose hints are those of {@code info} (MPI_Comm_dup_with_info). Collective. */
    @Override
    public Intracomm dupWithInfo(Info info) {
        return (Intracomm) super.dupWithInfo(info);
    }

    /** mpiJava's and Open MPI's {@code clone}: a duplicate ({@link #Dup}). Collective. */
    @Override
    public Intracomm clone() {
        return withAttributesOf(rank("clone"), created(CommCreation.duplicate(this, "clone")));
    }

    private CommCreation.Result create(String call, Group group) {
        if (group == null) {
            throw new MPIException(MPI.ERR_GROUP, call + ": group is null");
        }
        Rank me = rank(call);
        java.util.BitSet parent = new java.util.BitSet();
        Membership members = members(me);
        for (int i = 0; i < members.size(); i++) {
            parent.set(members.worldRank(i));
        }
        int key = -1;
        int color = MPI.UNDEFINED;
        for (int i = 0; i < group.members.length; i++) {
            Rank r = group.members[i];
            if (!parent.get(r.id())) {
                throw new MPIException(MPI.ERR_GROUP, call + ": rank " + i + " of the group (world rank " + r.id()
                    + ") is not a member of " + this);
            }
            if (r == me) {
                key = i;
            }
        }
        if (key >= 0) {
            // Disjoint groups have distinct first members: the first member tells the groups apart.
            color = group.members[0].id();
        }
        CommCreation.Result r = CommCreation.split(this, call, color, key, "." + call + "(group)");
        if (r != null && !java.util.Arrays.equals(r.members().ranks(), group.members)) {
            throw new MPIException(MPI.ERR_GROUP, call + ": the members of the group (world ranks "
                + java.util.Arrays.toString(java.util.Arrays.stream(group.members).mapToInt(Rank::id).toArray())
                + ") passed different groups (the groups of a Create must be the same or disjoint)");
        }
        return r;
    }

    /** The communicator a creation call made for this rank, or null if it is not a member. */
    Intracomm created(CommCreation.Result r) {
        return r == null ? null : inheriting(new Intracomm(r));
    }

    private static Intracomm orNull(Intracomm c) {
        return c == null ? nullComm() : c;
    }

    // ---- topologies --------------------------------------------------------------------------

    /**
     * A communicator of the first {@code prod(dims)} ranks arranged in a grid, each keeping its rank
     * ({@code reorder} is ignored: see {@link CartTopology}); null for the ranks beyond the grid.
     * Collective.
     */
    public Cartcomm Create_cart(int[] dims, boolean[] periods, boolean reorder) {
        return Cartcomm.create(this, dims, periods);
    }

    /** As {@link #Create_cart}, but the ranks beyond the grid get a null communicator ({@code isNull()}). */
    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder) {
        return CartComm.create(this, dims, periods);
    }

    /**
     * A communicator of the first {@code index.length} ranks with the graph topology {@code index},
     * {@code edges}, each keeping its rank ({@code reorder} is ignored: see {@link GraphTopology});
     * null for the ranks beyond the graph. Collective.
     */
    public Graphcomm Create_graph(int[] index, int[] edges, boolean reorder) {
        return Graphcomm.create(this, index, edges);
    }

    /** As {@link #Create_graph}, but the ranks beyond the graph get a null communicator ({@code isNull()}). */
    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder) {
        return GraphComm.create(this, index, edges);
    }

    // ---- collectives: mpiJava 1.2 (the others, defined on intercommunicators too, are on Comm) ----

    public void Scan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                     Op op) {
        CollectiveCalls.scan(this, "Scan", false, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, false,
            false);
    }

    // ---- collectives: Open MPI Java scans (the others are on Comm) ---------------------------

    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        CollectiveCalls.scan(this, "scan", false, sendbuf, 0, recvbuf, 0, count, type, op, false, false);
    }

    /** In place: {@code buf} holds the contribution and receives the result. */
    public final void scan(Object buf, int count, Datatype type, Op op) {
        CollectiveCalls.scan(this, "scan", false, null, 0, buf, 0, count, type, op, false, true);
    }

    public final Request iScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        return CollectiveCalls.scan(this, "iScan", true, sendbuf, 0, recvbuf, 0, count, type, op, false, false);
    }

    public final Request iScan(Object buf, int count, Datatype type, Op op) {
        return CollectiveCalls.scan(this, "iScan", true, null, 0, buf, 0, count, type, op, false, true);
    }

    /** Exclusive scan: rank i gets the reduction of ranks 0..i-1; rank 0's receive buffer is left unchanged. */
    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        CollectiveCalls.scan(this, "exScan", false, sendbuf, 0, recvbuf, 0, count, type, op, true, false);
    }

    public final void exScan(Object buf, int count, Datatype type, Op op) {
        CollectiveCalls.scan(this, "exScan", false, null, 0, buf, 0, count, type, op, true, true);
    }

    public final Request iExScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        return CollectiveCalls.scan(this, "iExScan", true, sendbuf, 0, recvbuf, 0, count, type, op, true, false);
    }

    public final Request iExScan(Object buf, int count, Datatype type, Op op) {
        return CollectiveCalls.scan(this, "iExScan", true, null, 0, buf, 0, count, type, op, true, true);
    }

    // ---- distributed graphs (Open MPI; DistGraphTopology) ------------------------------------

    /**
     * MPI_Dist_graph_create with weights: node {@code sources[i]} has {@code degrees[i]} edges, to
     * the next {@code degrees[i]} entries of {@code destinations}, weighted by the same entries of
     * {@code weights}; any rank may give any edge. Every rank of this communicator is a member of
     * the new one, with the same rank ({@code reorder} and {@code info} are ignored). Collective.
     */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, int[] weights, Info info,
                                           boolean reorder) {
        return distGraph(sources, degrees, destinations, weights, true);
    }

    /** MPI_Dist_graph_create without weights (MPI_UNWEIGHTED): as the weighted form. Collective. */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, Info info,
                                           boolean reorder) {
        return distGraph(sources, degrees, destinations, null, false);
    }

    private GraphComm distGraph(int[] sources, int[] degrees, int[] destinations, int[] weights, boolean weighted) {
        String call = "createDistGraph";
        try {
            DistGraphTopology t = DistGraphTopology.gathered(call, this, sources, degrees, destinations, weights,
                weighted);
            return GraphComm.createDist(this, call, t);
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /**
     * MPI_Dist_graph_create_adjacent with weights: the caller receives from {@code sources} and sends
     * to {@code destinations}, in that order, with those weights; the ranks must agree (an edge from
     * a to b is in a's destinations and in b's sources). Every rank of this communicator is a member
     * of the new one, with the same rank ({@code reorder} and {@code info} are ignored). Collective.
     */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations,
                                                   int[] destWeights, Info info, boolean reorder) {
        return distGraphAdjacent(sources, sourceWeights, destinations, destWeights, true);
    }

    /** MPI_Dist_graph_create_adjacent without weights (MPI_UNWEIGHTED). Collective. */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info, boolean reorder) {
        return distGraphAdjacent(sources, null, destinations, null, false);
    }

    private GraphComm distGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights,
                                        boolean weighted) {
        String call = "createDistGraphAdjacent";
        try {
            DistGraphTopology t = DistGraphTopology.adjacent(call, size(rank(call)), sources, sourceWeights,
                destinations, destWeights, weighted);
            return GraphComm.createDist(this, call, t);
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    // ---- non-blocking duplication, splitType, createGroup (Open MPI) -------------------------

    /** MPI_Comm_idup (see {@link Comm#iDup}): a duplicate with this one's attributes, at once. */
    @Override
    public Intracomm iDup() {
        try {
            Rank me = rank("iDup");
            return withAttributesOf(me, created(ContextAgreement.duplicate(this, me, "iDup")));
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /**
     * MPI_Comm_split_type: {@code Comm.TYPE_SHARED} gives the ranks that share memory, which here
     * is every rank of this communicator, ordered by {@code key} (ties by rank);
     * {@code MPI.UNDEFINED} gives a null communicator ({@code isNull()}). {@code info} is ignored.
     * Collective.
     */
    public final Intracomm splitType(int splitType, int key, Info info) {
        String call = "splitType";
        if (splitType != TYPE_SHARED && splitType != MPI.UNDEFINED) {
            throw raise(new MPIException(MPI.ERR_ARG, call + ": split type " + splitType + " is not Comm.TYPE_SHARED ("
                + TYPE_SHARED + ") or MPI.UNDEFINED"));
        }
        return orNull(created(CommCreation.split(this, call, splitType == MPI.UNDEFINED ? MPI.UNDEFINED : 0, key,
            ".splitType(TYPE_SHARED)")));
    }

    /**
     * MPI_Comm_create_group: a communicator of the ranks of {@code group}, in its order, made by
     * them alone (the other ranks of this communicator do not call it); {@code tag} tells apart
     * calls that the same ranks make at the same time. A caller not in the group gets a null
     * communicator ({@code isNull()}) at once, as MPI specifies. Collective over the group.
     */
    public final Intracomm createGroup(Group group, int tag) {
        try {
            CommCreation.Result r = ContextAgreement.group(this, "createGroup", group, tag);
            return r == null ? nullComm() : inheriting(new Intracomm(r));
        } catch (MPIException e) {
            throw raise(e);
        }
    }
}
