package mpi;

import static mpi.CollectiveCalls.receiveBuffer;
import static mpi.CollectiveCalls.reductionBuffer;
import static mpi.CollectiveCalls.scaled;
import static mpi.CollectiveCalls.units;

import mpi.CollectiveCalls.Invocation;
import org.mpjlite.smpdev.collective.InterCollectives;
import org.mpjlite.smpdev.collective.Reduction;
import org.mpjlite.smpdev.data.BasicType;

/**
 * The argument checks of the collectives on an intercommunicator (MPI-3.1 §5.2.2), after
 * {@link CollectiveCalls} has staged datatypes and dispatched objects: the root is {@code MPI.ROOT}
 * at the root, {@code MPI.PROC_NULL} at the other ranks of its group (whose buffers, counts and
 * types are not looked at) or a rank of the remote group, else {@code MPI.ERR_ROOT}; a buffer of
 * per-rank blocks holds one block per rank of the remote group; MPI_IN_PLACE is an error
 * ({@link #notInPlace}). Then the engine's {@link InterCollectives} runs the call on the team of
 * both groups; that two roots were given, or that the groups' calls do not match, is found there,
 * before any data moves, and reported on every rank.
 *
 * <p>Stateless; thread-safe.
 */
final class InterCollectiveCalls {
    private InterCollectiveCalls() {
    }

    /**
     * MPI_IN_PLACE (Open MPI's overloads without a send buffer) is not defined on an
     * intercommunicator: {@code errorClass} as Open MPI raises it ({@code MPI.ERR_ARG}, or
     * {@code MPI.ERR_BUFFER} for the reductions). Nothing on an intracommunicator.
     */
    static void notInPlace(Comm c, String call, boolean inPlace, int errorClass) {
        if (inPlace && c.remoteMembers() != null) {
            throw new MPIException(errorClass, call + ": MPI_IN_PLACE (the overload without a send buffer) is not"
                + " allowed on an intercommunicator (" + c + "); pass a send buffer");
        }
    }

    /** The root is MPI.ROOT, MPI.PROC_NULL or a rank of the remote group of {@code remoteSize} ranks. */
    static void checkRoot(String call, int root, int remoteSize) {
        if (root != MPI.ROOT && root != MPI.PROC_NULL && (root < 0 || root >= remoteSize)) {
            throw new MPIException(MPI.ERR_ROOT, call + ": root " + root + " is not MPI.ROOT, MPI.PROC_NULL or a rank"
                + " of the remote group (size " + remoteSize + ", valid 0.." + (remoteSize - 1) + ")");
        }
    }

    /** The root's member index in the call's team, or {@link InterCollectives#ROOT_GROUP} for MPI.PROC_NULL. */
    private static int root(Invocation k, int root) {
        checkRoot(k.name, root, k.peers);
        k.showsRoot(root);
        if (root == MPI.ROOT) {
            return k.rank;
        } else if (root == MPI.PROC_NULL) {
            return InterCollectives.ROOT_GROUP;
        }
        return k.team.remoteMember(k.rank, root);
    }

    private static BasicType basic(Datatype type) {
        return type == null ? null : type.basic;
    }

    static Request bcast(Invocation k, Object buf, int offset, int count, Datatype type, int root) {
        int r = root(k, root);
        int units = 0;
        if (root != MPI.PROC_NULL) {
            Check.buffer(k.name, "buffer", buf, offset, count, units(type), type);
            if (root != MPI.ROOT) {
                Check.writable(k.name, buf);
            }
            units = count * type.units();
            k.shows(count, type);
        }
        InterCollectives.bcast(k.team, k.rank, buf, offset, units, root == MPI.PROC_NULL ? null : type.basic, r,
            k.request, k.name, k.arguments());
        return k.result();
    }

    static Request gather(Invocation k, Object sbuf, int soff, int scount, Datatype stype, Object rbuf, int roff,
                          int rcount, Datatype rtype, int root) {
        int r = root(k, root);
        Datatype type = null;
        int units = 0;
        if (root == MPI.ROOT) {
            receiveBuffer(k.name, rbuf, roff, rcount, rtype, k.peers);
            type = rtype;
            units = rcount * rtype.units();
            k.shows(rcount, rtype);
        } else if (root != MPI.PROC_NULL) {
            Check.buffer(k.name, "send buffer", sbuf, soff, scount, units(stype), stype);
            type = stype;
            units = scount * stype.units();
            k.shows(scount, stype);
        }
        InterCollectives.gather(k.team, k.rank, sbuf, soff, rbuf, roff, units, basic(type), r, k.request, k.name, k.arguments());
        return k.result();
    }

    static Request gatherv(Invocation k, Object sbuf, int soff, int scount, Datatype stype, Object rbuf, int roff,
                           int[] rcounts, int[] displs, Datatype rtype, int root) {
        int r = root(k, root);
        Datatype type = null;
        int sunits = 0;
        int[] rc = null;
        int[] rd = null;
        if (root == MPI.ROOT) {
            Check.counts(k.name, "recvcounts", rcounts, k.peers);
            Check.displs(k.name, "displs", displs, rcounts, "receive buffer", rbuf, roff, rtype, k.peers);
            Check.writable(k.name, rbuf);
            rc = scaled(rcounts, rtype);
            rd = scaled(displs, rtype);
            type = rtype;
        } else if (root != MPI.PROC_NULL) {
            Check.buffer(k.name, "send buffer", sbuf, soff, scount, units(stype), stype);
            sunits = scount * stype.units();
            type = stype;
        }
        InterCollectives.gatherv(k.team, k.rank, sbuf, soff, sunits, rbuf, roff, rc, rd, basic(type), r, k.request,
            k.name, k.shows(-1, type).arguments());
        return k.result();
    }

    static Request scatter(Invocation k, Object sbuf, int soff, int scount, Datatype stype, Object rbuf, int roff,
                           int rcount, Datatype rtype, int root) {
        int r = root(k, root);
        Datatype type = null;
        int units = 0;
        if (root == MPI.ROOT) {
            Check.buffer(k.name, "send buffer", sbuf, soff, scount, units(stype) * k.peers, stype);
            type = stype;
            units = scount * stype.units();
            k.shows(scount, stype);
        } else if (root != MPI.PROC_NULL) {
            Check.buffer(k.name, "receive buffer", rbuf, roff, rcount, units(rtype), rtype);
            Check.writable(k.name, rbuf);
            type = rtype;
            units = rcount * rtype.units();
            k.shows(rcount, rtype);
        }
        InterCollectives.scatter(k.team, k.rank, sbuf, soff, rbuf, roff, units, basic(type), r, k.request, k.name, k.arguments());
        return k.result();
    }

    static Request scatterv(Invocation k, Object sbuf, int soff, int[] scounts, int[] displs, Datatype stype,
                            Object rbuf, int roff, int rcount, Datatype rtype, int root) {
        int r = root(k, root);
        Datatype type = null;
        int runits = 0;
        int[] sc = null;
        int[] sd = null;
        if (root == MPI.ROOT) {
            Check.counts(k.name, "sendcounts", scounts, k.peers);
            Check.displs(k.name, "displs", displs, scounts, "send buffer", sbuf, soff, stype, k.peers);
            sc = scaled(scounts, stype);
            sd = scaled(displs, stype);
            type = stype;
        } else if (root != MPI.PROC_NULL) {
            Check.buffer(k.name, "receive buffer", rbuf, roff, rcount, units(rtype), rtype);
            Check.writable(k.name, rbuf);
            runits = rcount * rtype.units();
            type = rtype;
        }
        InterCollectives.scatterv(k.team, k.rank, sbuf, soff, sc, sd, rbuf, roff, runits, basic(type), r, k.request,
            k.name, k.shows(-1, type).arguments());
        return k.result();
    }

    static Request allgather(Invocation k, Object sbuf, int soff, int scount, Datatype stype, Object rbuf, int roff,
                             int rcount, Datatype rtype) {
        Check.buffer(k.name, "send buffer", sbuf, soff, scount, units(stype), stype);
        receiveBuffer(k.name, rbuf, roff, rcount, rtype, k.peers);
        InterCollectives.allgather(k.team, k.rank, sbuf, soff, scount * stype.units(), stype.basic, rbuf, roff,
            rcount * rtype.units(), rtype.basic, k.request, k.name, k.shows(rcount, rtype).arguments());
        return k.result();
    }

    static Request allgatherv(Invocation k, Object sbuf, int soff, int scount, Datatype stype, Object rbuf, int roff,
                              int[] rcounts, int[] displs, Datatype rtype) {
        Check.buffer(k.name, "send buffer", sbuf, soff, scount, units(stype), stype);
        Check.counts(k.name, "recvcounts", rcounts, k.peers);
        Check.displs(k.name, "displs", displs, rcounts, "receive buffer", rbuf, roff, rtype, k.peers);
        Check.writable(k.name, rbuf);
        InterCollectives.allgatherv(k.team, k.rank, sbuf, soff, scount * stype.units(), stype.basic, rbuf, roff,
            scaled(rcounts, rtype), scaled(displs, rtype), rtype.basic, k.request, k.name, k.shows(-1, rtype).arguments());
        return k.result();
    }

    static Request alltoall(Invocation k, Object sbuf, int soff, int scount, Datatype stype, Object rbuf, int roff,
                            int rcount, Datatype rtype) {
        Check.buffer(k.name, "send buffer", sbuf, soff, scount, units(stype) * k.peers, stype);
        receiveBuffer(k.name, rbuf, roff, rcount, rtype, k.peers);
        InterCollectives.alltoall(k.team, k.rank, sbuf, soff, scount * stype.units(), stype.basic, rbuf, roff,
            rcount * rtype.units(), rtype.basic, k.request, k.name, k.shows(rcount, rtype).arguments());
        return k.result();
    }

    static Request alltoallv(Invocation k, Object sbuf, int soff, int[] scounts, int[] sdispls, Datatype stype,
                             Object rbuf, int roff, int[] rcounts, int[] rdispls, Datatype rtype) {
        Check.counts(k.name, "sendcounts", scounts, k.peers);
        Check.displs(k.name, "sdispls", sdispls, scounts, "send buffer", sbuf, soff, stype, k.peers);
        Check.counts(k.name, "recvcounts", rcounts, k.peers);
        Check.displs(k.name, "rdispls", rdispls, rcounts, "receive buffer", rbuf, roff, rtype, k.peers);
        Check.writable(k.name, rbuf);
        InterCollectives.alltoallv(k.team, k.rank, sbuf, soff, scaled(scounts, stype), scaled(sdispls, stype), null,
            stype.basic, rbuf, roff, scaled(rcounts, rtype), scaled(rdispls, rtype), null, rtype.basic, k.request,
            k.name, k.shows(-1, rtype).arguments());
        return k.result();
    }

    static Request reduce(Invocation k, Object sbuf, int soff, Object rbuf, int roff, int count, Datatype type, Op op,
                          int root) {
        int r = root(k, root);
        Reduction reduction = null;
        int units = 0;
        if (root != MPI.PROC_NULL) {
            reduction = Check.op(k.name, op, type);
            if (root == MPI.ROOT) {
                reductionBuffer(k.name, "receive buffer", rbuf, roff, count, units(type), type);
                Check.writable(k.name, rbuf);
            } else {
                reductionBuffer(k.name, "send buffer", sbuf, soff, count, units(type), type);
            }
            units = count * type.units();
            k.shows(count, type);
        }
        InterCollectives.reduce(k.team, k.rank, sbuf, soff, rbuf, roff, units, root == MPI.PROC_NULL ? null : type.basic,
            reduction, r, k.request, k.name, k.arguments());
        return k.result();
    }
}
