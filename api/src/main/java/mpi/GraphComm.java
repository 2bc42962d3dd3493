package mpi;

import org.mpjlite.smpdev.Rank;

/**
 * A communicator with a graph topology (made by {@link Intracomm#createGraph}), with Open MPI Java's
 * names. mpiJava programs use {@code Graphcomm}, the same thing with mpiJava's names (see
 * {@link CartComm} for why both exist). The graph is {@link GraphTopology}'s. Distributed graphs
 * ({@code createDistGraph}, {@code getDistGraphNeighbors}) are not provided.
 *
 * <p>Thread-safe as {@link Comm}.
 */
public final class GraphComm extends Intracomm {
    private final GraphTopology topology;

    private GraphComm(CommCreation.Result r, GraphTopology topology) {
        super(r);
        this.topology = topology;
    }

    /** createGraph on {@code parent}; a null communicator for the ranks beyond the graph. Collective. */
    static GraphComm create(Intracomm parent, int[] index, int[] edges) {
        GraphTopology t = GraphTopology.of("createGraph", index, edges, parent);
        CommCreation.Result r = t.communicator(parent, "createGraph");
        return parent.inheriting(new GraphComm(r == null ? CommCreation.NULL_COMMUNICATOR : r, t));
    }

    @Override
    int topology() {
        return MPI.GRAPH;
    }

    /** The graph: index and edges. */
    public GraphParms getDims() {
        localRank("getDims");
        return topology.parms();
    }

    /** The neighbours of {@code rank}. */
    public int[] getNeighbors(int rank) {
        localRank("getNeighbors");
        return topology.neighbours("getNeighbors", rank);
    }

    /** The caller's rank in the graph {@code index}, {@code edges}, or {@code MPI.UNDEFINED} if beyond it. */
    public int map(int[] index, int[] edges) {
        return GraphTopology.of("map", index, edges, this).map(rankIn(localRank("map")));
    }

    /** A duplicate with the same graph. Collective. */
    @Override
    public GraphComm dup() {
        return withAttributesOf(rank("dup"), new GraphComm(CommCreation.duplicate(this, "dup"), topology));
    }

    /** A duplicate with the same graph. Collective. */
    @Override
    public GraphComm Dup() {
        return withAttributesOf(rank("Dup"), new GraphComm(CommCreation.duplicate(this, "Dup"), topology));
    }

    /** A duplicate with the same graph. Collective. */
    @Override
    public GraphComm clone() {
        return withAttributesOf(rank("clone"), new GraphComm(CommCreation.duplicate(this, "clone"), topology));
    }

    // ---- neighbourhood collectives ----------------------------------------------------------

    @Override
    NeighborCollectives.Neighbors neighbors(String call, Rank me) {
        return topology.neighbors(call, rankIn(me));
    }
}
