package mpi;

/**
 * The neighbours of the calling rank in a distributed graph (MPI_Dist_graph_neighbors, Open MPI
 * Java's {@link GraphComm#getDistGraphNeighbors}): the ranks it receives from (sources, in-edges)
 * and sends to (destinations, out-edges), in the order neighbourhood collectives use, with their
 * weights when the graph was made with weights. The accessors are named as Open MPI's
 * ({@code getInDegree}, {@code getOutDegree}).
 *
 * <p>Immutable; thread-safe.
 */
public final class DistGraphNeighbors {
    /** Read by the topology; never written after construction nor handed out. */
    final int[] sources;
    private final int[] sourceWeights;
    final int[] destinations;
    private final int[] destinationWeights;
    private final boolean weighted;

    DistGraphNeighbors(int[] sources, int[] sourceWeights, int[] destinations, int[] destinationWeights,
                       boolean weighted) {
        this.sources = sources;
        this.sourceWeights = sourceWeights;
        this.destinations = destinations;
        this.destinationWeights = destinationWeights;
        this.weighted = weighted;
    }

    /** The number of in-edges: ranks this rank receives from (a rank may appear more than once). */
    public int getInDegree() {
        return sources.length;
    }

    /** The rank at the start of in-edge {@code i}. */
    public int getSource(int i) {
        return sources[i];
    }

    /** The weight of in-edge {@code i}; 0 for a graph made without weights. */
    public int getSourceWeight(int i) {
        return sourceWeights[i];
    }

    /** The number of out-edges: ranks this rank sends to (a rank may appear more than once). */
    public int getOutDegree() {
        return destinations.length;
    }

    /** The rank at the end of out-edge {@code i}. */
    public int getDestination(int i) {
        return destinations[i];
    }

    /** The weight of out-edge {@code i}; 0 for a graph made without weights. */
    public int getDestinationWeight(int i) {
        return destinationWeights[i];
    }

    /** True when the graph was made with weights. */
    public boolean isWeighted() {
        return weighted;
    }
}
