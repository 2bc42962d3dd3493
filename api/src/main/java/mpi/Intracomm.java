package mpi;

import org.mpjlite.smpdev.Rank;

/**
 * An intra-communicator: one group of ranks talking among themselves ({@code MPI.COMM_WORLD},
 * {@code MPI.COMM_SELF}).
 */
public class Intracomm extends Comm {
    Intracomm(Rank bound, int context, boolean self) {
        super(bound, context, self);
    }
}
