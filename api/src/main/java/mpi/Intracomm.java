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
        if (rank != null && !rank.world().isFirst()) {
            org.mpjlite.smpdev.World w = rank.world();
            return new SpawnedWorld(w.members(), w.members().indexOf(rank), w.context());
        }
        return new Intracomm(rank, WORLD_CONTEXT, false, "MPI.COMM_WORLD");
    }

    /**
     * The {@code COMM_WORLD} of spawned ranks: their own group, with contexts of their own, and
     * predefined like any {@code COMM_WORLD} (it cannot be freed).
     */
    private static final class SpawnedWorld extends Intracomm {
        SpawnedWorld(Membership members, int index, int context) {
            super(members, index, context, "MPI.COMM_WORLD");
        }

        @Override
        boolean isPredefined() {
            return true;
        }
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
        return raising(() -> created(CommCreation.split(this, "Split", color, key, ".Split(color=" + color + ")")));
    }

    /** As {@link #Split}, but a rank that passes {@code MPI.UNDEFINED} gets a null communicator ({@code isNull()}). */
    public final Intracomm split(int color, int key) {
        return raising(() -> orNull(created(CommCreation.split(this, "split", color, key,
            ".split(color=" + color + ")"))));
    }

    /**
     * A new communicator of the ranks of {@code group}, in the group's order; null for a rank not in
     * it. Collective: every rank of this communicator calls it. As MPI-2.2 allows, the ranks may pass
     * different, disjoint groups (every member of one group passing that same group; a rank in none
     * passes an empty group): each group gets a communicator of its own, with its own contexts.
     */
    public Intracomm Create(Group group) {
        return raising(() -> created(create("Create", group)));
    }

    /** As {@link #Create}, but a rank not in the group gets a null communicator ({@code isNull()}). */
    public final Intracomm create(Group group) {
        return raising(() -> orNull(created(create("create", group))));
    }

    /**
     * A new communicator with the same members in the same order and a context of its own, with the
     * program's attributes of this one (not its name). Collective.
     */
    public Intracomm Dup() {
        return raising(() -> withAttributesOf(rank("Dup"), created(CommCreation.duplicate(this, "Dup"))));
    }

    @Override
    public Intracomm dup() {
        return raising(() -> withAttributesOf(rank("dup"), created(CommCreation.duplicate(this, "dup"))));
    }

    /** A duplicate whose hints are those of {@code info} (MPI_Comm_dup_with_info). Collective. */
    @Override
    public Intracomm dupWithInfo(Info info) {
        return (Intracomm) super.dupWithInfo(info);
    }

    /** mpiJava's and Open MPI's {@code clone}: a duplicate ({@link #Dup}). Collective. */
    @Override
    public Intracomm clone() {
        return raising(() -> withAttributesOf(rank("clone"), created(CommCreation.duplicate(this, "clone"))));
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

    // ---- dynamic processes (Open MPI Java) ---------------------------------------------------

    /**
     * Starts {@code maxprocs} new ranks running {@code command} with arguments {@code argv}
     * (MPI_Comm_spawn) and returns the intercommunicator to them: the local group is this
     * communicator's, the remote group the children, which get it from
     * {@link Intercomm#getParent()}. Collective over this communicator; {@code command},
     * {@code argv}, {@code maxprocs} and {@code info} count at {@code root} only.
     *
     * <p>The children are threads of this job, like its first ranks, each with a class loader of its
     * own (its own statics). {@code command} names the program as {@code mpjrun} does: a main class
     * on the spawning program's class path, a {@code .java} file, a jar, or a command line
     * {@code java [-cp PATH] MainClass args...} (see {@link org.mpjlite.run.SpawnCommand}). The
     * children's {@code MPI.COMM_WORLD} holds just them, ranks 0 to {@code maxprocs - 1}; their
     * Init waits for one another, not for the parents. The job ends when every rank, spawned ones
     * included, has ended; a child that throws ends the job like any rank.
     *
     * <p>Every child starts or none: a command that names no runnable program is an
     * {@code MPI.ERR_SPAWN} error at every parent, naming the command, and nothing is started.
     * {@code errcodes} (null to ignore them, Open MPI's {@code MPI_ERRCODES_IGNORE}) gets
     * {@code MPI.SUCCESS} for each child. Info keys are hints: {@code wdir} and {@code host} are
     * accepted and ignored (every rank shares the JVM's working directory and host), as are keys
     * MPJ Lite does not know.
     */
    public final Intercomm spawn(String command, String[] argv, int maxprocs, Info info, int root, int[] errcodes) {
        return DynamicProcesses.spawn(this, "spawn", new String[] {command}, new String[][] {argv},
            new int[] {maxprocs}, new Info[] {info}, root, errcodes);
    }

    /**
     * Starts the ranks of several commands at once (MPI_Comm_spawn_multiple), as {@link #spawn}:
     * {@code maxprocs[i]} ranks of {@code commands[i]} with {@code argv[i]} (null: none), in that
     * order, all in one {@code MPI.COMM_WORLD}; a child's {@code MPI.APPNUM} attribute is the index
     * of its command. {@code argv} may be null (Open MPI's {@code MPI_ARGVS_NULL}).
     */
    public final Intercomm spawnMultiple(String[] commands, String[][] argv, int[] maxprocs, Info[] info, int root,
                                         int[] errcodes) {
        return DynamicProcesses.spawn(this, "spawnMultiple", commands, argv, maxprocs, info, root, errcodes);
    }

    /**
     * Opens a port that {@link #accept} waits on and {@link #connect} joins (MPI_Open_port): a name
     * unique in the job, shorter than {@code MPI.MAX_PORT_NAME}. Ports are seen by every rank of the
     * job (the job is MPJ Lite's universe); {@code info} hints are ignored.
     */
    public static String openPort() {
        return DynamicProcesses.openPort("openPort", MPI.INFO_NULL);
    }

    public static String openPort(Info info) {
        return DynamicProcesses.openPort("openPort", info);
    }

    /** Closes a port (MPI_Close_port); {@code MPI.ERR_PORT} if it is not open. */
    public static void closePort(String port) {
        DynamicProcesses.closePort("closePort", port);
    }

    /**
     * Waits for a group to {@link #connect} to {@code port} and returns the intercommunicator to it
     * (MPI_Comm_accept). Collective over this communicator; {@code port} counts at {@code root}
     * only, which waits (a blocking call the deadlock detector sees: an accept no connect ever
     * comes to ends a job whose other ranks are done or blocked, with a report).
     */
    public final Intercomm accept(String port, int root) {
        return DynamicProcesses.join(this, "accept", true, port, MPI.INFO_NULL, root);
    }

    public final Intercomm accept(String port, Info info, int root) {
        return DynamicProcesses.join(this, "accept", true, port, info, root);
    }

    /**
     * Joins the group that {@link #accept}s on {@code port} and returns the intercommunicator to it
     * (MPI_Comm_connect); {@code MPI.ERR_PORT} if the port is not open. Collective over this
     * communicator; {@code port} counts at {@code root} only. Waits for the accept.
     */
    public final Intercomm connect(String port, int root) {
        return DynamicProcesses.join(this, "connect", false, port, MPI.INFO_NULL, root);
    }

    public final Intercomm connect(String port, Info info, int root) {
        return DynamicProcesses.join(this, "connect", false, port, info, root);
    }

    /**
     * Publishes {@code port} under {@code service} in the job's name service (MPI_Publish_name), for
     * {@link #lookupName}. {@code MPI.ERR_PORT} if the port is not open; {@code MPI.ERR_SERVICE} if
     * the service is published already.
     */
    public static void publishName(String service, String port) {
        DynamicProcesses.publishName("publishName", service, MPI.INFO_NULL, port);
    }

    public static void publishName(String service, Info info, String port) {
        DynamicProcesses.publishName("publishName", service, info, port);
    }

    /** Withdraws a published service (MPI_Unpublish_name); {@code MPI.ERR_SERVICE} if it is not published. */
    public static void unpublishName(String service, String port) {
        DynamicProcesses.unpublishName("unpublishName", service, MPI.INFO_NULL, port);
    }

    public static void unpublishName(String service, Info info, String port) {
        DynamicProcesses.unpublishName("unpublishName", service, info, port);
    }

    /** The port published under {@code service} (MPI_Lookup_name); {@code MPI.ERR_NAME} if none is. */
    public static String lookupName(String service) {
        return DynamicProcesses.lookupName("lookupName", service, MPI.INFO_NULL);
    }

    public static String lookupName(String service, Info info) {
        return DynamicProcesses.lookupName("lookupName", service, info);
    }

    // ---- topologies --------------------------------------------------------------------------

    /**
     * A communicator of the first {@code prod(dims)} ranks arranged in a grid, each keeping its rank
     * ({@code reorder} is ignored: see {@link CartTopology}); null for the ranks beyond the grid.
     * Collective.
     */
    public Cartcomm Create_cart(int[] dims, boolean[] periods, boolean reorder) {
        return raising(() -> Cartcomm.create(this, dims, periods));
    }

    /** As {@link #Create_cart}, but the ranks beyond the grid get a null communicator ({@code isNull()}). */
    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder) {
        return raising(() -> CartComm.create(this, dims, periods));
    }

    /**
     * A communicator of the first {@code index.length} ranks with the graph topology {@code index},
     * {@code edges}, each keeping its rank ({@code reorder} is ignored: see {@link GraphTopology});
     * null for the ranks beyond the graph. Collective.
     */
    public Graphcomm Create_graph(int[] index, int[] edges, boolean reorder) {
        return raising(() -> Graphcomm.create(this, index, edges));
    }

    /** As {@link #Create_graph}, but the ranks beyond the graph get a null communicator ({@code isNull()}). */
    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder) {
        return raising(() -> GraphComm.create(this, index, edges));
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
