package org.mpjlite.smpdev;

/**
 * Implemented by a class loader that belongs to one rank (the launcher's per-rank loader), so that
 * the {@code mpi} classes it defines find their rank whatever thread runs them.
 */
public interface RankBound {
    Rank rank();
}
