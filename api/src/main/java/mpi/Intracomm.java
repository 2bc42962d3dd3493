package mpi;

import org.mpjlite.smpdev.Rank;

/**
 * An intra-communicator: one group of ranks talking among themselves ({@code MPI.COMM_WORLD},
 * {@code MPI.COMM_SELF}). Holds mpiJava 1.2's collectives (with element offsets) and Open MPI's
 * scans; Open MPI's other collectives are on {@link Comm}. Every collective goes through the
 * shared-memory engine ({@link Collective}) and never matches point-to-point traffic.
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

    // ---- collectives: mpiJava 1.2 ------------------------------------------------------------

    public void Barrier() {
        Collective.barrier(this, "Barrier", false);
    }

    public void Bcast(Object buf, int offset, int count, Datatype type, int root) {
        Collective.bcast(this, "Bcast", false, buf, offset, count, type, root);
    }

    public void Gather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                       int recvoffset, int recvcount, Datatype recvtype, int root) {
        Collective.gather(this, "Gather", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
            recvcount, recvtype, root, false);
    }

    public void Gatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                        int recvoffset, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        Collective.gatherv(this, "Gatherv", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
            recvcount, displs, recvtype, root, false);
    }

    public void Scatter(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                        int recvoffset, int recvcount, Datatype recvtype, int root) {
        Collective.scatter(this, "Scatter", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
            recvcount, recvtype, root, false);
    }

    public void Scatterv(Object sendbuf, int sendoffset, int[] sendcount, int[] displs, Datatype sendtype,
                         Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        Collective.scatterv(this, "Scatterv", false, sendbuf, sendoffset, sendcount, displs, sendtype, recvbuf,
            recvoffset, recvcount, recvtype, root, false);
    }

    public void Allgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                          int recvoffset, int recvcount, Datatype recvtype) {
        Collective.allgather(this, "Allgather", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
            recvcount, recvtype, false);
    }

    public void Allgatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                           int recvoffset, int[] recvcount, int[] displs, Datatype recvtype) {
        Collective.allgatherv(this, "Allgatherv", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf,
            recvoffset, recvcount, displs, recvtype, false);
    }

    public void Alltoall(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                         int recvoffset, int recvcount, Datatype recvtype) {
        Collective.alltoall(this, "Alltoall", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
            recvcount, recvtype);
    }

    public void Alltoallv(Object sendbuf, int sendoffset, int[] sendcount, int[] sdispls, Datatype sendtype,
                          Object recvbuf, int recvoffset, int[] recvcount, int[] rdispls, Datatype recvtype) {
        Collective.alltoallv(this, "Alltoallv", false, sendbuf, sendoffset, sendcount, sdispls, sendtype, recvbuf,
            recvoffset, recvcount, rdispls, recvtype);
    }

    public void Reduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                       Op op, int root) {
        Collective.reduce(this, "Reduce", false, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, root,
            false);
    }

    public void Allreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                          Datatype datatype, Op op) {
        Collective.allreduce(this, "Allreduce", false, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op,
            false);
    }

    public void Reduce_scatter(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts,
                               Datatype datatype, Op op) {
        Collective.reduceScatter(this, "Reduce_scatter", false, sendbuf, sendoffset, recvbuf, recvoffset, recvcounts,
            0, datatype, op, false);
    }

    public void Scan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                     Op op) {
        Collective.scan(this, "Scan", false, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, false,
            false);
    }

    // ---- collectives: Open MPI Java scans (the others are on Comm) ---------------------------

    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        Collective.scan(this, "scan", false, sendbuf, 0, recvbuf, 0, count, type, op, false, false);
    }

    /** In place: {@code buf} holds the contribution and receives the result. */
    public final void scan(Object buf, int count, Datatype type, Op op) {
        Collective.scan(this, "scan", false, null, 0, buf, 0, count, type, op, false, true);
    }

    public final Request iScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        return Collective.scan(this, "iScan", true, sendbuf, 0, recvbuf, 0, count, type, op, false, false);
    }

    public final Request iScan(Object buf, int count, Datatype type, Op op) {
        return Collective.scan(this, "iScan", true, null, 0, buf, 0, count, type, op, false, true);
    }

    /** Exclusive scan: rank i gets the reduction of ranks 0..i-1; rank 0's receive buffer is left unchanged. */
    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        Collective.scan(this, "exScan", false, sendbuf, 0, recvbuf, 0, count, type, op, true, false);
    }

    public final void exScan(Object buf, int count, Datatype type, Op op) {
        Collective.scan(this, "exScan", false, null, 0, buf, 0, count, type, op, true, true);
    }

    public final Request iExScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        return Collective.scan(this, "iExScan", true, sendbuf, 0, recvbuf, 0, count, type, op, true, false);
    }

    public final Request iExScan(Object buf, int count, Datatype type, Op op) {
        return Collective.scan(this, "iExScan", true, null, 0, buf, 0, count, type, op, true, true);
    }
}
