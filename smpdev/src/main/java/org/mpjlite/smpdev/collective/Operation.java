package org.mpjlite.smpdev.collective;

/**
 * The collective operations of the engine, as the members of one collective must agree on them:
 * two dialects' names for one operation ({@code Bcast}, {@code bcast}) are the same operation, a
 * blocking and a non-blocking one are not (MPI: they do not match each other).
 */
enum Operation {
    BARRIER, BCAST, GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV, REDUCE,
    ALLREDUCE, REDUCE_SCATTER, SCAN, EXSCAN
}
