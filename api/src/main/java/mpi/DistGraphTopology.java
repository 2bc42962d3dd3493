package mpi;

import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.collective.Collectives;
import org.mpjlite.smpdev.data.BasicType;

/**
 * A distributed graph topology (MPI_Dist_graph_create, MPI_Dist_graph_create_adjacent) as one rank
 * sees it: its in-edges (sources) and out-edges (destinations), in order, with their weights.
 *
 * <p>Order: the adjacent form keeps the caller's order. The general form, where any rank may give
 * any edge, orders a rank's edges by the rank that gave them, then by their place in that rank's
 * arguments; both ends of an edge see it in that one order, so the k-th edge from a to b is the
 * k-th in-edge from a at b, and neighbourhood collectives pair them (MPI leaves the order to the
 * implementation). Weights are 0 for a graph made without them. The {@code reorder} argument and the
 * hints are ignored, as MPI permits: rank i of the new communicator is rank i of the parent.
 *
 * <p>Immutable; thread-safe.
 */
final class DistGraphTopology {
    /** The edges, immutable: what {@code getDistGraphNeighbors} returns. */
    private final DistGraphNeighbors edges;

    private DistGraphTopology(int[] sources, int[] sourceWeights, int[] destinations, int[] destinationWeights,
                              boolean weighted) {
        this.edges = new DistGraphNeighbors(sources, sourceWeights, destinations, destinationWeights, weighted);
    }

    /**
     * createDistGraphAdjacent: the caller's own neighbours, checked against the communicator's
     * {@code size}. Weights null: a graph without weights.
     */
    static DistGraphTopology adjacent(String call, int size, int[] sources, int[] sourceWeights, int[] destinations,
                                      int[] destinationWeights, boolean weighted) {
        ranks(call, "sources", sources, sources == null ? 0 : sources.length, size);
        ranks(call, "destinations", destinations, destinations == null ? 0 : destinations.length, size);
        int[] sw = weights(call, "sourceWeights", sourceWeights, sources.length, weighted);
        int[] dw = weights(call, "destWeights", destinationWeights, destinations.length, weighted);
        return new DistGraphTopology(sources.clone(), sw, destinations.clone(), dw, weighted);
    }

    /**
     * createDistGraph: node {@code sources[i]} has {@code degrees[i]} out-edges, to the next
     * {@code degrees[i]} entries of {@code destinations} (and of {@code weights}). Every rank's edges
     * are gathered on every rank, which keeps those that start or end at it. Collective over
     * {@code parent}.
     */
    static DistGraphTopology gathered(String call, Intracomm parent, int[] sources, int[] degrees, int[] destinations,
                                      int[] weights, boolean weighted) {
        Rank me = parent.rank(call);
        int size = parent.size(me);
        int rank = parent.rankIn(me);
        ranks(call, "sources", sources, sources == null ? 0 : sources.length, size);
        int n = sources.length;
        if (degrees == null || degrees.length < n) {
            throw new MPIException(MPI.ERR_ARG, call + ": degrees " + (degrees == null ? "is null"
                : "has " + degrees.length + " entries, sources " + n));
        }
        long edges = 0;
        for (int i = 0; i < n; i++) {
            if (degrees[i] < 0) {
                throw new MPIException(MPI.ERR_ARG, call + ": degrees[" + i + "] must be >= 0, was " + degrees[i]);
            }
            edges += degrees[i];
        }
        if (edges > Integer.MAX_VALUE / 3) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + edges + " edges are too many");
        }
        int m = (int) edges;
        ranks(call, "destinations", destinations, m, size);
        int[] w = weights(call, "weights", weights, m, weighted);
        int[] mine = new int[3 * m];
        for (int i = 0, e = 0; i < n; i++) {
            for (int k = 0; k < degrees[i]; k++, e++) {
                mine[3 * e] = sources[i];
                mine[3 * e + 1] = destinations[e];
                mine[3 * e + 2] = w[e];
            }
        }
        int[] counts = new int[size];
        Collectives.allgather(parent.team(me), rank, new int[] {3 * m}, 0, counts, 0, 1, BasicType.INT, false, null,
            call, "edges=" + m);
        int[] displs = new int[size];
        int total = 0;
        for (int j = 0; j < size; j++) {
            displs[j] = total;
            total += counts[j];
        }
        int[] all = new int[total];
        Collectives.allgatherv(parent.team(me), rank, mine, 0, mine.length, all, 0, counts, displs, BasicType.INT,
            false, null, call, "edges=" + m);
        int in = 0;
        int out = 0;
        for (int e = 0; e < total; e += 3) {
            out += all[e] == rank ? 1 : 0;
            in += all[e + 1] == rank ? 1 : 0;
        }
        int[] src = new int[in];
        int[] srcW = new int[in];
        int[] dst = new int[out];
        int[] dstW = new int[out];
        for (int e = 0, i = 0, o = 0; e < total; e += 3) {
            if (all[e + 1] == rank) {
                src[i] = all[e];
                srcW[i++] = all[e + 2];
            }
            if (all[e] == rank) {
                dst[o] = all[e + 1];
                dstW[o++] = all[e + 2];
            }
        }
        return new DistGraphTopology(src, srcW, dst, dstW, weighted);
    }

    /** The first {@code n} entries of {@code ranks} exist and are ranks of a communicator of {@code size}. */
    private static void ranks(String call, String name, int[] ranks, int n, int size) {
        if (ranks == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + name + " is null");
        }
        if (ranks.length < n) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + name + " has " + ranks.length + " entries, the degrees"
                + " add up to " + n);
        }
        for (int i = 0; i < n; i++) {
            if (ranks[i] < 0 || ranks[i] >= size) {
                throw new MPIException(MPI.ERR_RANK, call + ": " + name + "[" + i + "] is " + ranks[i]
                    + ", not a rank of the communicator (size " + size + ", valid 0.." + (size - 1) + ")");
            }
        }
    }

    /** The first {@code n} weights, non-negative; {@code n} zeros for a graph without weights. */
    private static int[] weights(String call, String name, int[] weights, int n, boolean weighted) {
        if (!weighted) {
            return new int[n];
        }
        if (weights == null || weights.length < n) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + name + (weights == null ? " is null" : " has "
                + weights.length + " entries, for " + n + " edges") + " (use the overload without weights for a graph"
                + " without them)");
        }
        for (int i = 0; i < n; i++) {
            if (weights[i] < 0) {
                throw new MPIException(MPI.ERR_ARG, call + ": " + name + "[" + i + "] must be >= 0, was " + weights[i]);
            }
        }
        return java.util.Arrays.copyOf(weights, n);
    }

    /**
     * The new communicator of every rank of {@code parent}, in the same order. Collective over
     * {@code parent}.
     */
    CommCreation.Result communicator(Intracomm parent, String call) {
        int rank = parent.rankIn(parent.rank(call));
        return CommCreation.split(parent, call, 0, rank, "." + call + "()");
    }

    /** MPI_Dist_graph_neighbors. */
    DistGraphNeighbors parms() {
        return edges;
    }

    /** The neighbourhood for neighbourhood collectives: receive from the sources, send to the destinations. */
    NeighborCollectives.Neighbors neighbors() {
        return NeighborCollectives.Neighbors.of(edges.sources, edges.destinations);
    }
}
