package mpi;

/**
 * The two neighbours of a shift along one dimension of a Cartesian communicator, {@code MPI.PROC_NULL}
 * off the edge of a non-periodic one: mpiJava's {@code Shift} result (public fields) and Open MPI's
 * {@code shift} result (getters), one class for both. Ready for {@code Sendrecv(..., rank_dest, ...,
 * rank_source, ...)}.
 */
public class ShiftParms {
    /** The rank {@code disp} steps back: the one to receive from. */
    public int rank_source;
    /** The rank {@code disp} steps forward: the one to send to. */
    public int rank_dest;

    ShiftParms(int rankSource, int rankDest) {
        this.rank_source = rankSource;
        this.rank_dest = rankDest;
    }

    public int getRankSource() {
        return rank_source;
    }

    public int getRankDest() {
        return rank_dest;
    }
}
