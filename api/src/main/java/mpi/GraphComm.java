package mpi;

import org.mpjlite.smpdev.Rank;

/**
 * A communicator with a graph topology (made by {@link Intracomm#createGraph}) or a distributed graph
 * topology ({@link Intracomm#createDistGraph}, {@link Intracomm#createDistGraphAdjacent}), with Open
 * MPI Java's names. mpiJava programs use {@code Graphcomm}, the same thing with mpiJava's names (see
 * {@link CartComm} for why both exist). The graph is {@link GraphTopology}'s, the distributed graph
 * {@link DistGraphTopology}'s; as in MPI, {@link #getDims} and {@link #getNeighbors} answer for a
 * graph only and {@link #getDistGraphNeighbors} for a distributed graph only
 * ({@code MPI_ERR_TOPOLOGY} otherwise).
 *
 * <p>Thread-safe as {@link Comm}.
 */
public final class GraphComm extends Intracomm {
    /** The graph; null for a distributed graph. */
    private final GraphTopology topology;
    /** The distributed graph; null for a graph. */
    private final DistGraphTopology dist;

    private GraphComm(CommCreation.Result r, GraphTopology topology, DistGraphTopology dist) {
        super(r);
        this.topology = topology;
        this.dist = dist;
    }

    /** createGraph on {@code parent}; a null communicator for the ranks beyond the graph. Collective. */
    static GraphComm create(Intracomm parent, int[] index, int[] edges) {
        GraphTopology t = GraphTopology.of("createGraph", index, edges, parent);
        CommCreation.Result r = t.communicator(parent, "createGraph");
        return parent.inheriting(new GraphComm(r == null ? CommCreation.NULL_COMMUNICATOR : r, t, null));
    }

    /** createDistGraph or createDistGraphAdjacent on {@code parent}, whose every rank is a member. Collective. */
    static GraphComm createDist(Intracomm parent, String call, DistGraphTopology t) {
        return parent.inheriting(new GraphComm(t.communicator(parent, call), null, t));
    }

    @Override
    int topology() {
        return dist != null ? MPI.DIST_GRAPH : MPI.GRAPH;
    }

    /** The graph: index and edges. */
    public GraphParms getDims() {
        localRank("getDims");
        return raising(() -> graph("getDims").parms());
    }

    /** The neighbours of {@code rank}. */
    public int[] getNeighbors(int rank) {
        localRank("getNeighbors");
        return raising(() -> graph("getNeighbors").neighbours("getNeighbors", rank));
    }

    /** The graph, for a call that needs one. */
    private GraphTopology graph(String call) {
        if (topology == null) {
            throw new MPIException(MPI.ERR_TOPOLOGY, call + ": " + this + " is a distributed graph"
                + " (use getDistGraphNeighbors)");
        }
        return topology;
    }

    /** MPI_Dist_graph_neighbors: the calling rank's in- and out-edges in a distributed graph, with weights. */
    public DistGraphNeighbors getDistGraphNeighbors() {
        localRank("getDistGraphNeighbors");
        if (dist == null) {
            throw raise(new MPIException(MPI.ERR_TOPOLOGY, "getDistGraphNeighbors: " + this + " is a graph, not a"
                + " distributed graph (use getNeighbors)"));
        }
        return dist.parms();
    }

    /** The caller's rank in the graph {@code index}, {@code edges}, or {@code MPI.UNDEFINED} if beyond it. */
    public int map(int[] index, int[] edges) {
        return raising(() -> GraphTopology.of("map", index, edges, this).map(rankIn(localRank("map"))));
    }

    /** A duplicate with the same graph. Collective. */
    @Override
    public GraphComm dup() {
        return raising(() -> withAttributesOf(rank("dup"), new GraphComm(CommCreation.duplicate(this, "dup"),
            topology, dist)));
    }

    /** A duplicate with the same graph. Collective. */
    @Override
    public GraphComm Dup() {
        return raising(() -> withAttributesOf(rank("Dup"), new GraphComm(CommCreation.duplicate(this, "Dup"),
            topology, dist)));
    }

    /** A duplicate whose hints are those of {@code info} (MPI_Comm_dup_with_info). Collective. */
    @Override
    public GraphComm dupWithInfo(Info info) {
        return (GraphComm) super.dupWithInfo(info);
    }

    /** A duplicate with the same graph. Collective. */
    @Override
    public GraphComm clone() {
        return raising(() -> withAttributesOf(rank("clone"), new GraphComm(CommCreation.duplicate(this, "clone"),
            topology, dist)));
    }

    // ---- neighbourhood collectives ----------------------------------------------------------

    @Override
    NeighborCollectives.Neighbors neighbors(String call, Rank me) {
        return dist != null ? dist.neighbors() : topology.neighbors(call, rankIn(me));
    }

    /** MPI_Comm_idup (see {@link Comm#iDup}): a duplicate with the same topology, at once. */
    @Override
    public GraphComm iDup() {
        try {
            Rank me = rank("iDup");
            return withAttributesOf(me, new GraphComm(ContextAgreement.duplicate(this, me, "iDup"), topology, dist));
        } catch (MPIException e) {
            throw raise(e);
        }
    }
}
