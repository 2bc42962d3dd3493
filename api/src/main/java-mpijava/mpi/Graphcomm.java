package mpi;

import org.mpjlite.smpdev.Rank;

/**
 * A communicator with a graph topology (made by {@link Intracomm#Create_graph}), with mpiJava 1.2's
 * names. Open MPI programs use {@link GraphComm}, the same thing with Open MPI's names (see
 * {@code Cartcomm} for why this class lives apart). The graph is {@link GraphTopology}'s.
 *
 * <p>Thread-safe as {@link Comm}.
 */
public class Graphcomm extends Intracomm {
    private final GraphTopology topology;

    Graphcomm(CommCreation.Result r, GraphTopology topology) {
        super(r);
        this.topology = topology;
    }

    /** Create_graph on {@code parent}; null for the ranks beyond the graph. Collective. */
    static Graphcomm create(Intracomm parent, int[] index, int[] edges) {
        GraphTopology t = GraphTopology.of("Create_graph", index, edges, parent);
        CommCreation.Result r = t.communicator(parent, "Create_graph");
        return r == null ? null : parent.inheriting(new Graphcomm(r, t));
    }

    @Override
    int topology() {
        return MPI.GRAPH;
    }

    /** The graph: index and edges. */
    public GraphParms Get() {
        localRank("Get");
        return topology.parms();
    }

    /** The neighbours of {@code rank}. */
    public int[] Neighbours(int rank) {
        localRank("Neighbours");
        return raising(() -> topology.neighbours("Neighbours", rank));
    }

    /** The caller's rank in the graph {@code index}, {@code edges}, or {@code MPI.UNDEFINED} if beyond it. */
    public int Map(int[] index, int[] edges) {
        return raising(() -> GraphTopology.of("Map", index, edges, this).map(rankIn(localRank("Map"))));
    }

    /** A duplicate with the same graph. Collective. */
    @Override
    public Graphcomm Dup() {
        return raising(() -> withAttributesOf(rank("Dup"), new Graphcomm(CommCreation.duplicate(this, "Dup"),
            topology)));
    }

    /** A duplicate with the same graph. Collective. */
    @Override
    public Graphcomm dup() {
        return raising(() -> withAttributesOf(rank("dup"), new Graphcomm(CommCreation.duplicate(this, "dup"),
            topology)));
    }

    /** A duplicate with the same graph. Collective. */
    @Override
    public Graphcomm clone() {
        return raising(() -> withAttributesOf(rank("clone"), new Graphcomm(CommCreation.duplicate(this, "clone"),
            topology)));
    }

    // ---- neighbourhood collectives ----------------------------------------------------------

    @Override
    NeighborCollectives.Neighbors neighbors(String call, Rank me) {
        return topology.neighbors(call, rankIn(me));
    }

    /** MPI_Comm_idup (see {@link Comm#iDup}): a duplicate with the same topology, at once. */
    @Override
    public Graphcomm iDup() {
        try {
            Rank me = rank("iDup");
            return withAttributesOf(me, new Graphcomm(ContextAgreement.duplicate(this, me, "iDup"), topology));
        } catch (MPIException e) {
            throw raise(e);
        }
    }
}
