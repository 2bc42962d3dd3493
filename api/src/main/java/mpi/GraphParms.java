package mpi;

/**
 * The edges of a graph communicator, as MPI_Graph_create takes them: {@code index[i]} is the number
 * of neighbours of nodes 0..i together, and the neighbours of node {@code i} are
 * {@code edges[index[i-1]..index[i])}. mpiJava's {@code Get()} result (public fields) and Open
 * MPI's {@code getDims()} result (getters), one class for both.
 */
public class GraphParms {
    public int[] index;
    public int[] edges;

    /** An empty one, for mpiJava programs that fill the fields themselves. */
    public GraphParms() {
    }

    GraphParms(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }

    /** The number of nodes. */
    public int getIndexCount() {
        return index.length;
    }

    public int getIndex(int i) {
        return index[i];
    }

    public int getEdgeCount() {
        return edges.length;
    }

    public int getEdge(int i) {
        return edges[i];
    }
}
