package mpi;

import java.util.Arrays;

/**
 * A graph topology as MPI_Graph_create describes it: node {@code i}'s neighbours are
 * {@code edges[index[i-1]..index[i])} ({@code index[-1]} being 0). Self-loops and repeated edges are
 * allowed, as in MPI. The two dialects' communicators ({@code Graphcomm}, {@link GraphComm}) delegate
 * to it, each passing the name of the call for error messages.
 *
 * <p>Node {@code i} is rank {@code i} of the parent: the {@code reorder} argument is accepted and
 * ignored (all ranks share one memory; placement gains nothing), as MPI permits.
 *
 * <p>Immutable; thread-safe.
 */
final class GraphTopology {
    private final int[] index;
    private final int[] edges;

    private GraphTopology(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }

    /**
     * The graph {@code index}, {@code edges} for {@code call} (Create_graph, Map...) on {@code comm}: no
     * more nodes than ranks, {@code index} non-decreasing from 0, enough edges, and every edge naming a
     * node.
     */
    static GraphTopology of(String call, int[] index, int[] edges, Comm comm) {
        int commSize = comm.size(comm.localRank(call));
        if (index == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": index is null");
        }
        if (edges == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": edges is null");
        }
        int nnodes = index.length;
        if (nnodes > commSize) {
            throw new MPIException(MPI.ERR_ARG, call + ": the graph has " + nnodes
                + " nodes (index.length), more than the communicator's " + commSize + " ranks");
        }
        int previous = 0;
        for (int i = 0; i < nnodes; i++) {
            if (index[i] < previous) {
                throw new MPIException(MPI.ERR_ARG, call + ": index[" + i + "] is " + index[i] + ", less than "
                    + (i == 0 ? "0" : "index[" + (i - 1) + "] = " + previous)
                    + " (index[i] counts the neighbours of nodes 0..i together)");
            }
            previous = index[i];
        }
        if (edges.length < previous) {
            throw new MPIException(MPI.ERR_ARG, call + ": edges has " + edges.length + " entries, index[" + (nnodes - 1)
                + "] says the graph has " + previous);
        }
        for (int e = 0; e < previous; e++) {
            if (edges[e] < 0 || edges[e] >= nnodes) {
                throw new MPIException(MPI.ERR_ARG, call + ": edges[" + e + "] is " + edges[e] + ", not a node of the graph"
                    + " (valid 0.." + (nnodes - 1) + ")");
            }
        }
        return new GraphTopology(index.clone(), Arrays.copyOf(edges, previous));
    }

    /** The number of nodes. */
    private int nnodes() {
        return index.length;
    }

    /**
     * Create_graph on {@code parent}: the new communicator of its ranks 0..nnodes-1, each keeping its
     * rank; null for the ranks beyond the graph. Collective over {@code parent}.
     */
    CommCreation.Result communicator(Intracomm parent, String call) {
        int rank = parent.rankIn(parent.rank(call));
        return CommCreation.split(parent, call, rank < nnodes() ? 0 : MPI.UNDEFINED, rank,
            "." + call + "(" + nnodes() + " nodes, " + edges.length + " edges)");
    }

    /** Graph_map: the rank the caller, rank {@code rank} of the communicator, would have in the graph. */
    int map(int rank) {
        return rank < nnodes() ? rank : MPI.UNDEFINED;
    }

    /** The neighbours of node {@code rank}, in the order given. */
    int[] neighbours(String call, int rank) {
        if (rank < 0 || rank >= nnodes()) {
            throw new MPIException(MPI.ERR_RANK, call + ": rank " + rank + " is not a node of the graph (valid 0.."
                + (nnodes() - 1) + ")");
        }
        return Arrays.copyOfRange(edges, rank == 0 ? 0 : index[rank - 1], index[rank]);
    }

    /** The neighbourhood of node {@code rank} for neighbourhood collectives: its neighbours both ways, in order. */
    NeighborCollectives.Neighbors neighbors(String call, int rank) {
        int[] adjacent = neighbours(call, rank);
        return NeighborCollectives.Neighbors.of(adjacent, adjacent);
    }

    /** Graph_get. */
    GraphParms parms() {
        return new GraphParms(index.clone(), edges.clone());
    }
}
