package mpi;

import java.util.Arrays;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.RequestGroup;
import org.mpjlite.smpdev.p2p.PointToPoint;
import org.mpjlite.smpdev.p2p.SendMode;

/**
 * Neighbourhood collectives (MPI-3.1 §7.6, Open MPI's {@code neighborAllGather},
 * {@code neighborAllToAll}... on {@link Comm}): each rank sends to its destinations and receives
 * from its sources, as its topology lists them ({@link Neighbors}).
 *
 * <p>One code path for all four operations and both forms: the receives are posted, then the sends
 * started, as point-to-point messages on the communicator's collective context (which user
 * point-to-point traffic never reaches), and one {@link RequestGroup} completes when all have. The
 * blocking form waits for it; the non-blocking form returns it as a request. Collectives on a
 * communicator are called in the same order everywhere, and every rank posts its receives in call
 * order, so non-overtaking pairs the k-th message between two ranks with the k-th receive: several
 * edges between the same two ranks (a periodic dimension of 1 or 2 ranks, repeated graph edges) are
 * matched in neighbour order, and back-to-back collectives never mix. A message larger than its
 * receive block is {@code MPI_ERR_TRUNCATE}; a {@code PROC_NULL} neighbour sends nothing and leaves
 * its receive block untouched.
 *
 * <p>Stateless; thread-safe.
 */
final class NeighborCollectives {
    private NeighborCollectives() {
    }

    /**
     * The neighbourhood of one rank: it receives block {@code i} from {@code sources[i]} with tag
     * {@code recvTags[i]}, and sends block {@code j} to {@code destinations[j]} with tag
     * {@code sendTags[j]}. Ranks are of the communicator, or {@code MPI.PROC_NULL}. Immutable.
     */
    static final class Neighbors {
        final int[] sources;
        final int[] recvTags;
        final int[] destinations;
        final int[] sendTags;

        Neighbors(int[] sources, int[] recvTags, int[] destinations, int[] sendTags) {
            this.sources = sources;
            this.recvTags = recvTags;
            this.destinations = destinations;
            this.sendTags = sendTags;
        }

        /** Sources and destinations of one tag each: the adjacency order alone pairs the messages. */
        static Neighbors of(int[] sources, int[] destinations) {
            return new Neighbors(sources, new int[sources.length], destinations, new int[destinations.length]);
        }
    }

    /** neighborAllGather: the same block to every destination; block i of the receive buffer from source i. */
    static Request allGather(Comm c, String call, boolean nonBlocking, Object sbuf, int scount, Datatype stype,
                             Object rbuf, int rcount, Datatype rtype) {
        try {
            Neighbors n = c.neighbors(call, c.rank(call));
            int[] rdispls = blocks(n.sources.length, rcount);
            return exchange(c, call, nonBlocking, n, sbuf, filled(n.destinations.length, scount),
                new int[n.destinations.length], stype, rbuf, filled(n.sources.length, rcount), rdispls, rtype);
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    /** neighborAllGatherv: the same block to every destination; from source i, recvcounts[i] items at displs[i]. */
    static Request allGatherv(Comm c, String call, boolean nonBlocking, Object sbuf, int scount, Datatype stype,
                              Object rbuf, int[] rcounts, int[] rdispls, Datatype rtype) {
        try {
            Neighbors n = c.neighbors(call, c.rank(call));
            return exchange(c, call, nonBlocking, n, sbuf, filled(n.destinations.length, scount),
                new int[n.destinations.length], stype, rbuf, rcounts, rdispls, rtype);
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    /** neighborAllToAll: block j to destination j; block i from source i. */
    static Request allToAll(Comm c, String call, boolean nonBlocking, Object sbuf, int scount, Datatype stype,
                            Object rbuf, int rcount, Datatype rtype) {
        try {
            Neighbors n = c.neighbors(call, c.rank(call));
            return exchange(c, call, nonBlocking, n, sbuf, filled(n.destinations.length, scount),
                blocks(n.destinations.length, scount), stype, rbuf, filled(n.sources.length, rcount),
                blocks(n.sources.length, rcount), rtype);
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    /** neighborAllToAllv: counts and displacements (in items) per destination and per source. */
    static Request allToAllv(Comm c, String call, boolean nonBlocking, Object sbuf, int[] scounts, int[] sdispls,
                             Datatype stype, Object rbuf, int[] rcounts, int[] rdispls, Datatype rtype) {
        try {
            Neighbors n = c.neighbors(call, c.rank(call));
            return exchange(c, call, nonBlocking, n, sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype);
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    /** {@code n} copies of {@code count}. */
    private static int[] filled(int n, int count) {
        int[] a = new int[n];
        Arrays.fill(a, count);
        return a;
    }

    /** Displacements of {@code n} consecutive blocks of {@code count} items. */
    private static int[] blocks(int n, int count) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i * count;
        }
        return a;
    }

    private static Request exchange(Comm c, String call, boolean nonBlocking, Neighbors n, Object sbuf, int[] scounts,
                                    int[] sdispls, Datatype stype, Object rbuf, int[] rcounts, int[] rdispls,
                                    Datatype rtype) {
        Rank me = c.rank(call);
        int[] soffsets = offsets(call, "send", n.destinations.length, sbuf, scounts, sdispls, stype);
        int[] roffsets = offsets(call, "receive", n.sources.length, rbuf, rcounts, rdispls, rtype);
        if (n.sources.length > 0) {
            Check.writable(call, rbuf);
        }
        if (stype.map.isObjects()) {
            // Before anything is posted or sent: a call that fails here has done nothing.
            for (int j = 0; j < n.destinations.length; j++) {
                if (n.destinations[j] != MPI.PROC_NULL) {
                    Check.serializable(call, sbuf, soffsets[j], scounts[j], stype);
                }
            }
        }
        int context = c.context + 1;
        RequestGroup group = new RequestGroup(me);
        for (int i = 0; i < n.sources.length; i++) {
            if (n.sources[i] != MPI.PROC_NULL) {
                group.add(PointToPoint.irecv(me, context, n.sources[i], n.recvTags[i], rbuf, roffsets[i], rcounts[i],
                    rtype.map, call));
            }
        }
        int from = c.rankIn(me);
        try {
            for (int j = 0; j < n.destinations.length; j++) {
                if (n.destinations[j] != MPI.PROC_NULL) {
                    group.add(PointToPoint.isend(me, c.peer(me, n.destinations[j]), context, from, n.sendTags[j], sbuf,
                        soffsets[j], scounts[j], stype.map, SendMode.STANDARD, call));
                }
            }
        } catch (IllegalArgumentException e) {
            throw new MPIException(MPI.ERR_ARG, call + ": cannot serialize the send buffer: " + e.getMessage());
        }
        group.seal();
        if (nonBlocking) {
            Request r = new Request(me, group, null, c);
            RequestAudit.collective(r, call, rtype);
            return r;
        }
        group.await(call);
        if (group.failed()) {
            throw (MPIException) group.error();
        }
        return null;
    }

    /**
     * The offsets (in the buffer's elements) of {@code degree} blocks of {@code counts[i]} items at
     * {@code displs[i]} items, each checked to lie in the buffer.
     */
    private static int[] offsets(String call, String side, int degree, Object buf, int[] counts, int[] displs,
                                 Datatype type) {
        String which = side + " buffer";
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + side + " datatype is null");
        }
        type.usable(call);
        perNeighbor(call, MPI.ERR_COUNT, side + " counts", counts, degree);
        perNeighbor(call, MPI.ERR_ARG, side + " displacements", displs, degree);
        int extent = type.Extent();
        int[] offsets = new int[degree];
        for (int i = 0; i < degree; i++) {
            long offset = (long) displs[i] * extent;
            if (offset > Integer.MAX_VALUE) {
                throw new MPIException(MPI.ERR_ARG, call + ": " + side + " displacement " + displs[i] + " of neighbour "
                    + i + " is beyond any buffer");
            }
            offsets[i] = (int) offset;
            Check.buffer(call, which, buf, offsets[i], counts[i], type.units(), type);
        }
        return offsets;
    }

    /** One non-negative entry per neighbour; else an error of {@code errorClass}. */
    private static void perNeighbor(String call, int errorClass, String name, int[] values, int degree) {
        if (values == null || values.length < degree) {
            throw new MPIException(errorClass, call + ": " + name + (values == null ? " is null" : " has "
                + values.length + " entries, the topology " + degree + " neighbours"));
        }
        for (int i = 0; i < degree; i++) {
            if (values[i] < 0) {
                throw new MPIException(errorClass, call + ": " + name + "[" + i + "] must be >= 0, was " + values[i]);
            }
        }
    }
}
