package mpi;

import org.mpjlite.smpdev.Rank;

/**
 * An intra-communicator: one group of ranks talking among themselves ({@code MPI.COMM_WORLD},
 * {@code MPI.COMM_SELF}).
 */
public class Intracomm extends Comm {
    static final int WORLD_CONTEXT = 0;
    static final int SELF_CONTEXT = 2;

    Intracomm(Rank bound, int context, boolean self) {
        super(bound, context, self);
    }

    /**
     * The world communicator of a rank (null: of the calling thread's rank). For the runtime:
     * {@code MPI.COMM_WORLD} is made with it.
     */
    public static Intracomm world(Rank rank) {
        return new Intracomm(rank, WORLD_CONTEXT, false);
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
        return new Intracomm(rank, SELF_CONTEXT, true);
    }
}
