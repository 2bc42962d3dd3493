package mpi;

import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.collective.CollectiveRequest;
import org.mpjlite.smpdev.collective.Collectives;
import org.mpjlite.smpdev.collective.InterCollectives;
import org.mpjlite.smpdev.collective.Reduction;
import org.mpjlite.smpdev.collective.Team;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.diag.Tracer;

/**
 * The front of every collective call of both dialects (mpiJava's {@code Allreduce} on
 * {@link Intracomm}, Open MPI's {@code allReduce} on {@link Comm}...): argument checks, conversion
 * of counts to storage units, staging of non-contiguous datatypes, the MPI.OBJECT path, and the
 * call into the shared-memory engine ({@link Collectives}). Each method returns the request of a
 * non-blocking call, or null when the call blocked until done. Offsets count array elements
 * (mpiJava); Open MPI calls pass 0.
 *
 * <p>"In place" is MPI_IN_PLACE, from Open MPI's overloads without a send buffer: at a root (or at
 * every rank for Allgather and the reductions) the contribution is taken from the receive buffer.
 *
 * <p>The same array may be the send and the receive buffer (MPJ Express allows it, mpiJava programs
 * rely on it: docs/DIALECTS.md): the engine then reads a copy of the rank's contribution
 * ({@code Part.unalias} in smpdev), so the result is as if the send buffer were read at the call.
 *
 * <p>On an intercommunicator the same fronts stage datatypes and serialize objects (the helpers
 * {@link #isRoot}, {@link #ownBlock} and {@link #peers} say which buffers take part and how many
 * blocks they hold), then {@link InterCollectiveCalls} checks the arguments by MPI's intercommunicator
 * rules and calls the engine's {@link org.mpjlite.smpdev.collective.InterCollectives}.
 *
 * <p>Stateless; thread-safe.
 */
final class CollectiveCalls {
    private CollectiveCalls() {
    }

    /**
     * One call: the calling rank, its team and index, and the request if non-blocking. Its
     * toString() lists the count and datatype the rank gave ({@code count=4, MPI.INT}), for the
     * engine's report of collectives that do not match; formatted only then.
     *
     * <p>A blocking call's invocation is its thread's, reused call after call ({@link #of}), so
     * that a small collective allocates nothing: it is referred to only during the call, and what
     * the engine keeps for its reports is {@link #arguments()}, an immutable value. References are
     * stored into it only when they change: a reused invocation is an old object to the collector,
     * and with G1 storing a reference into one costs a fence.
     */
    static final class Invocation {
        /** Each thread's invocation of its blocking calls (one at a time per thread: calls do not nest). */
        private static final ThreadLocal<Invocation> BLOCKING =
            ThreadLocal.withInitial(() -> new Invocation(Thread.currentThread()));

        /** The thread whose blocking calls this invocation records; null for a non-blocking call's. */
        private final Thread thread;
        String name;
        Rank me;
        Team team;
        /** The calling rank's member index in {@link #team} (on an intercommunicator, of both groups). */
        int rank;
        /** The size of the calling rank's group. */
        int size;
        /** True on an intercommunicator. */
        boolean inter;
        /** The ranks per-rank blocks are for: the remote group's size on an intercommunicator, else {@link #size}. */
        int peers;
        CollectiveRequest request;
        /** The count shown, or -1 for none (counts per rank); with {@link #type} null, nothing is shown. */
        private int count;
        private Datatype type;
        /** The root as the program gave it on an intercommunicator ({@code root=MPI.ROOT}), or null. */
        private String root;
        Comm comm;
        /** The rank's trace, or null; and when the call started. */
        private Tracer tracer;
        private long start;
        /** The root of a rooted collective, for the trace; -1 for none. */
        int tracedRoot;
        /** The bytes of the rank's part when counts differ per rank (the v variants), for the trace; else -1. */
        private long bytes;
        /**
         * The last few {@link #arguments()}, handed out again when a call shows the same: a loop of
         * collectives that show up to this many different values (a Bcast and a Barrier, Allreduces
         * of different counts, a Reduce and a Bcast of each of several types) allocates none. With
         * four, a loop of six different ones made a value at every call.
         */
        private final Shown[] shown = new Shown[16];
        /** Where {@link #shown} takes the next new value. */
        private int next;
        /** What this thread's calls show while it runs an MPI.OBJECT collective ({@link #showingObjects}); else null. */
        private Shown outer;

        private Invocation(Thread thread) {
            this.thread = thread;
        }

        /**
         * The invocation of a call of {@code comm}: a fresh one if non-blocking, else the thread's
         * own. A communicator bound to its rank keeps the last one it handed out, so that the next
         * call of the same thread skips the thread-local lookup (about 5 ns of a 65 ns Bcast on one
         * rank); another thread sees by its final {@link #thread} field, published with the object,
         * that it is not its own.
         */
        static Invocation of(Comm comm, String name, boolean nonBlocking) {
            Invocation k;
            if (nonBlocking) {
                k = new Invocation(null);
            } else {
                k = comm.blockingInvocation;
                if (k == null || k.thread != Thread.currentThread()) {
                    k = BLOCKING.get();
                    if (comm.isBound()) {
                        comm.blockingInvocation = k;
                    }
                }
            }
            k.begin(comm, name, nonBlocking);
            return k;
        }

        private void begin(Comm comm, String name, boolean nonBlocking) {
            if (this.comm != comm) {
                this.comm = comm;
            }
            if (this.name != name) {
                this.name = name;
            }
            Rank me = comm.rank(name);
            if (this.me != me) {
                this.me = me;
            }
            this.inter = comm.remoteMembers() != null;
            this.size = comm.size(me);
            Team team;
            if (inter) {
                Intercomm ic = (Intercomm) comm;
                team = ic.collectiveTeam(me);
                this.rank = ic.collectiveMember(me);
                this.peers = comm.remoteMembers().size();
            } else {
                team = comm.team(me);
                this.rank = comm.rankIn(me);
                this.peers = size;
            }
            if (this.team != team) {
                this.team = team;
            }
            this.request = nonBlocking ? new CollectiveRequest(me) : null;
            Tracer tracer = me.tracer();
            if (this.tracer != tracer) {
                this.tracer = tracer;
            }
            this.start = tracer == null ? 0 : tracer.now();
            this.count = -1;
            if (type != null) {
                type = null;
            }
            if (root != null) {
                root = null;
            }
            this.tracedRoot = -1;
            this.bytes = -1;
        }

        /**
         * The call's result, once the engine has returned (a blocking call is complete): records the
         * call's slice in the trace, with the count and datatype shown (none for counts per rank).
         */
        Request result() {
            if (tracer != null) {
                boolean shown = count >= 0 && type != null;
                tracer.call(name, start, true, comm.toString(), tracedRoot, Integer.MIN_VALUE, shown ? count : -1,
                    type == null ? null : type.toString(), shown ? type.map.size() * count : bytes);
            }
            if (request == null) {
                return null;
            }
            Request r = new Request(me, request, null, comm);
            RequestAudit.collective(r, name, this);
            return r;
        }

        /** The rank's part is {@code units} elements of {@code type}: its bytes in the trace, when counts differ per rank. */
        void moves(long units, BasicType type) {
            this.bytes = units * type.size();
        }

        /** Shows {@code count} items of {@code type} in reports; returns this. */
        Invocation shows(int count, Datatype type) {
            this.count = count;
            if (this.type != type) {
                this.type = type;
            }
            return this;
        }

        /** Shows the root of an intercommunicator collective as the program gave it; returns this. */
        Invocation showsRoot(int given) {
            this.root = "root=" + (given == MPI.ROOT ? "MPI.ROOT" : given == MPI.PROC_NULL ? "MPI.PROC_NULL" : given);
            return this;
        }

        /**
         * Runs an MPI.OBJECT collective of this thread, whose objects move through byte collectives
         * (lengths, then serialized bytes): while it runs, those show in reports (a deadlock, a
         * mismatch) what the program passed, {@code count} items ({@code -1}: counts per rank) of
         * {@code type}, not their own lengths and bytes.
         */
        static Request showingObjects(int count, Datatype type, java.util.function.Supplier<Request> collective) {
            Invocation k = BLOCKING.get();
            k.outer = new Shown(count, type, null);
            try {
                return collective.get();
            } finally {
                k.outer = null;
            }
        }

        /**
         * What the call shows, for the engine to keep for its reports: an immutable value, the same
         * object as the thread's last call's when it shows the same (no allocation in a loop).
         */
        Object arguments() {
            if (outer != null) {
                return outer;
            }
            if (type == null && root == null) {
                return Shown.NOTHING;
            }
            Shown[] recent = shown;
            for (Shown s : recent) {
                if (s != null && s.count == count && s.type == type && java.util.Objects.equals(s.root, root)) {
                    return s;
                }
            }
            Shown s = new Shown(count, type, root);
            recent[next] = s;
            next = (next + 1) % recent.length;
            return s;
        }

        @Override
        public String toString() {
            return arguments().toString();
        }
    }

    /** The count, datatype and root a call shows in reports ({@code root=MPI.ROOT, count=4, MPI.INT}). */
    private record Shown(int count, Datatype type, String root) {
        /** A call that shows no arguments (Barrier). */
        static final Shown NOTHING = new Shown(-1, null, null);

        @Override
        public String toString() {
            String data = type == null ? "" : count < 0 ? type.toString() : "count=" + count + ", " + type;
            return root == null ? data : data.isEmpty() ? root : root + ", " + data;
        }
    }

    static Request barrier(Comm c, String call, boolean nonBlocking) {
        try {
            Invocation k = Invocation.of(c, call, nonBlocking);
            Collectives.barrier(k.team, k.rank, k.request, call, k.arguments());
            return k.result();
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Request bcast(Comm c, String call, boolean nonBlocking, Object buf, int offset, int count, Datatype type,
                         int root) {
        try {
            if (ObjectCollectives.handles(type)) {
                return ObjectCollectives.bcast(c, call, nonBlocking, buf, offset, count, type, root);
            }
            if (staged(type)) {
                Staged b = takesPart(c, root) ? Staged.of(call, "buffer", buf, offset, count, type,
                    !isRoot(c, c.rank(call), root)) : null;
                return Staged.finish(bcast(c, call, nonBlocking, Staged.buffer(b, buf), Staged.offset(b, offset), count,
                    type.packed(), root), b);
            }
            Invocation k = Invocation.of(c, call, nonBlocking);
            if (k.inter) {
                return InterCollectiveCalls.bcast(k, buf, offset, count, type, root);
            }
            Check.root(call, root, k.size);
            k.tracedRoot = root;
            Check.buffer(call, "buffer", buf, offset, count, units(type), type);
            if (k.rank != root) {
                Check.writable(call, buf);
            }
            Collectives.bcast(k.team, k.rank, buf, offset, count * type.units(), type.basic, root, k.request, call,
                k.shows(count, type).arguments());
            return k.result();
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Request gather(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, int scount, Datatype stype,
                          Object rbuf, int roff, int rcount, Datatype rtype, int root, boolean inPlace) {
        try {
            InterCollectiveCalls.notInPlace(c, call, inPlace, MPI.ERR_ARG);
            if (ObjectCollectives.handles(stype, rtype)) {
                return ObjectCollectives.gather(c, call, nonBlocking, sbuf, soff, scount, stype, rbuf, roff, null,
                    rcount, null, rtype, root, inPlace);
            }
            if (staged(stype, rtype)) {
                Rank me = c.rank(call);
                Staged s = ownBlock(c, me, root, inPlace) ? Staged.of(call, "send buffer", sbuf, soff, scount, stype,
                    false) : null;
                Staged r = isRoot(c, me, root) ? Staged.of(call, "receive buffer", rbuf, roff, rcount * peers(c, me), rtype,
                    true) : null;
                return Staged.finish(gather(c, call, nonBlocking, Staged.buffer(s, sbuf), Staged.offset(s, soff), scount,
                    Staged.packed(stype), Staged.buffer(r, rbuf), Staged.offset(r, roff), rcount, Staged.packed(rtype),
                    root, inPlace), s, r);
            }
            Invocation k = Invocation.of(c, call, nonBlocking);
            if (k.inter) {
                return InterCollectiveCalls.gather(k, sbuf, soff, scount, stype, rbuf, roff, rcount, rtype, root);
            }
            Check.root(call, root, k.size);
            k.tracedRoot = root;
            boolean isRoot = k.rank == root;
            if (!(inPlace && isRoot)) {
                Check.buffer(call, "send buffer", sbuf, soff, scount, units(stype), stype);
            }
            if (isRoot) {
                receiveBuffer(call, rbuf, roff, rcount, rtype, k.size);
                if (!inPlace) {
                    sameSignature(call, scount, stype, rcount, rtype);
                }
            }
            Datatype type = isRoot ? rtype : stype;
            int units = isRoot ? rcount * rtype.units() : scount * stype.units();
            Collectives.gather(k.team, k.rank, sbuf, soff, rbuf, roff, units, type.basic, root, inPlace, k.request, call,
                k.shows(isRoot ? rcount : scount, type).arguments());
            return k.result();
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Request gatherv(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, int scount,
                           Datatype stype, Object rbuf, int roff, int[] rcounts, int[] displs, Datatype rtype,
                           int root, boolean inPlace) {
        try {
            InterCollectiveCalls.notInPlace(c, call, inPlace, MPI.ERR_ARG);
            if (ObjectCollectives.handles(stype, rtype)) {
                return ObjectCollectives.gather(c, call, nonBlocking, sbuf, soff, scount, stype, rbuf, roff, rcounts, 0,
                    displs, rtype, root, inPlace);
            }
            if (staged(stype, rtype)) {
                Rank me = c.rank(call);
                Staged s = ownBlock(c, me, root, inPlace) ? Staged.of(call, "send buffer", sbuf, soff, scount, stype,
                    false) : null;
                Staged r = isRoot(c, me, root) ? Staged.of(call, "receive buffer", rbuf, roff,
                    Staged.span(rcounts, displs, peers(c, me)), rtype, true) : null;
                return Staged.finish(gatherv(c, call, nonBlocking, Staged.buffer(s, sbuf), Staged.offset(s, soff), scount,
                    Staged.packed(stype), Staged.buffer(r, rbuf), Staged.offset(r, roff), rcounts, displs,
                    Staged.packed(rtype), root, inPlace), s, r);
            }
            Invocation k = Invocation.of(c, call, nonBlocking);
            if (k.inter) {
                return InterCollectiveCalls.gatherv(k, sbuf, soff, scount, stype, rbuf, roff, rcounts, displs, rtype, root);
            }
            Check.root(call, root, k.size);
            k.tracedRoot = root;
            boolean isRoot = k.rank == root;
            if (!(inPlace && isRoot)) {
                Check.buffer(call, "send buffer", sbuf, soff, scount, units(stype), stype);
            }
            int[] rc = null;
            int[] rd = null;
            if (isRoot) {
                Check.counts(call, "recvcounts", rcounts, k.size);
                Check.displs(call, "displs", displs, rcounts, "receive buffer", rbuf, roff, rtype, k.size);
                Check.writable(call, rbuf);
                if (!inPlace) {
                    Check.sameType(call, stype, rtype);
                }
                rc = scaled(rcounts, rtype);
                rd = scaled(displs, rtype);
            }
            Datatype type = isRoot ? rtype : stype;
            int sunits = inPlace && isRoot ? 0 : scount * stype.units();
            k.moves(sunits, type.basic);
            Collectives.gatherv(k.team, k.rank, sbuf, soff, sunits, rbuf, roff, rc, rd, type.basic, root, inPlace,
                k.request, call, k.shows(-1, type).arguments());
            return k.result();
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Request scatter(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, int scount,
                           Datatype stype, Object rbuf, int roff, int rcount, Datatype rtype, int root,
                           boolean inPlace) {
        try {
            InterCollectiveCalls.notInPlace(c, call, inPlace, MPI.ERR_ARG);
            if (ObjectCollectives.handles(stype, rtype)) {
                return ObjectCollectives.scatter(c, call, nonBlocking, sbuf, soff, null, scount, null, stype, rbuf, roff,
                    rcount, rtype, root, inPlace);
            }
            if (staged(stype, rtype)) {
                Rank me = c.rank(call);
                Staged s = isRoot(c, me, root) ? Staged.of(call, "send buffer", sbuf, soff, scount * peers(c, me), stype,
                    false) : null;
                Staged r = ownBlock(c, me, root, inPlace) ? Staged.of(call, "receive buffer", rbuf, roff, rcount, rtype,
                    true) : null;
                return Staged.finish(scatter(c, call, nonBlocking, Staged.buffer(s, sbuf), Staged.offset(s, soff), scount,
                    Staged.packed(stype), Staged.buffer(r, rbuf), Staged.offset(r, roff), rcount, Staged.packed(rtype),
                    root, inPlace), s, r);
            }
            Invocation k = Invocation.of(c, call, nonBlocking);
            if (k.inter) {
                return InterCollectiveCalls.scatter(k, sbuf, soff, scount, stype, rbuf, roff, rcount, rtype, root);
            }
            Check.root(call, root, k.size);
            k.tracedRoot = root;
            boolean isRoot = k.rank == root;
            if (isRoot) {
                Check.buffer(call, "send buffer", sbuf, soff, scount, units(stype) * k.size, stype);
                if (!inPlace) {
                    sameSignature(call, scount, stype, rcount, rtype);
                }
            }
            if (!(inPlace && isRoot)) {
                Check.buffer(call, "receive buffer", rbuf, roff, rcount, units(rtype), rtype);
                Check.writable(call, rbuf);
            }
            Datatype type = isRoot ? stype : rtype;
            int units = isRoot ? scount * stype.units() : rcount * rtype.units();
            Collectives.scatter(k.team, k.rank, sbuf, soff, rbuf, roff, units, type.basic, root, inPlace, k.request, call,
                k.shows(isRoot ? scount : rcount, type).arguments());
            return k.result();
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Request scatterv(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, int[] scounts,
                            int[] displs, Datatype stype, Object rbuf, int roff, int rcount, Datatype rtype, int root,
                            boolean inPlace) {
        try {
            InterCollectiveCalls.notInPlace(c, call, inPlace, MPI.ERR_ARG);
            if (ObjectCollectives.handles(stype, rtype)) {
                return ObjectCollectives.scatter(c, call, nonBlocking, sbuf, soff, scounts, 0, displs, stype, rbuf, roff,
                    rcount, rtype, root, inPlace);
            }
            if (staged(stype, rtype)) {
                Rank me = c.rank(call);
                Staged s = isRoot(c, me, root) ? Staged.of(call, "send buffer", sbuf, soff,
                    Staged.span(scounts, displs, peers(c, me)), stype, false) : null;
                Staged r = ownBlock(c, me, root, inPlace) ? Staged.of(call, "receive buffer", rbuf, roff, rcount, rtype,
                    true) : null;
                return Staged.finish(scatterv(c, call, nonBlocking, Staged.buffer(s, sbuf), Staged.offset(s, soff), scounts,
                    displs, Staged.packed(stype), Staged.buffer(r, rbuf), Staged.offset(r, roff), rcount,
                    Staged.packed(rtype), root, inPlace), s, r);
            }
            Invocation k = Invocation.of(c, call, nonBlocking);
            if (k.inter) {
                return InterCollectiveCalls.scatterv(k, sbuf, soff, scounts, displs, stype, rbuf, roff, rcount, rtype, root);
            }
            Check.root(call, root, k.size);
            k.tracedRoot = root;
            boolean isRoot = k.rank == root;
            int[] sc = null;
            int[] sd = null;
            if (isRoot) {
                Check.counts(call, "sendcounts", scounts, k.size);
                Check.displs(call, "displs", displs, scounts, "send buffer", sbuf, soff, stype, k.size);
                if (!inPlace) {
                    Check.sameType(call, stype, rtype);
                }
                sc = scaled(scounts, stype);
                sd = scaled(displs, stype);
            }
            if (!(inPlace && isRoot)) {
                Check.buffer(call, "receive buffer", rbuf, roff, rcount, units(rtype), rtype);
                Check.writable(call, rbuf);
            }
            Datatype type = isRoot ? stype : rtype;
            int runits = inPlace && isRoot ? 0 : rcount * rtype.units();
            k.moves(runits, type.basic);
            Collectives.scatterv(k.team, k.rank, sbuf, soff, sc, sd, rbuf, roff, runits, type.basic, root, inPlace,
                k.request, call, k.shows(-1, type).arguments());
            return k.result();
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Request allgather(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, int scount,
                             Datatype stype, Object rbuf, int roff, int rcount, Datatype rtype, boolean inPlace) {
        try {
            InterCollectiveCalls.notInPlace(c, call, inPlace, MPI.ERR_ARG);
            if (ObjectCollectives.handles(stype, rtype)) {
                return ObjectCollectives.allgather(c, call, nonBlocking, sbuf, soff, scount, stype, rbuf, roff, null,
                    rcount, null, rtype, inPlace);
            }
            if (staged(stype, rtype)) {
                Staged s = inPlace ? null : Staged.of(call, "send buffer", sbuf, soff, scount, stype, false);
                Staged r = Staged.of(call, "receive buffer", rbuf, roff, rcount * peers(c, c.rank(call)), rtype, true);
                return Staged.finish(allgather(c, call, nonBlocking, Staged.buffer(s, sbuf), Staged.offset(s, soff),
                    scount, Staged.packed(stype), Staged.buffer(r, rbuf), Staged.offset(r, roff), rcount,
                    Staged.packed(rtype), inPlace), s, r);
            }
            Invocation k = Invocation.of(c, call, nonBlocking);
            if (k.inter) {
                return InterCollectiveCalls.allgather(k, sbuf, soff, scount, stype, rbuf, roff, rcount, rtype);
            }
            if (!inPlace) {
                Check.buffer(call, "send buffer", sbuf, soff, scount, units(stype), stype);
            }
            receiveBuffer(call, rbuf, roff, rcount, rtype, k.size);
            if (!inPlace) {
                sameSignature(call, scount, stype, rcount, rtype);
            }
            Collectives.allgather(k.team, k.rank, sbuf, soff, rbuf, roff, rcount * rtype.units(), rtype.basic, inPlace,
                k.request, call, k.shows(rcount, rtype).arguments());
            return k.result();
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Request allgatherv(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, int scount,
                              Datatype stype, Object rbuf, int roff, int[] rcounts, int[] displs, Datatype rtype,
                              boolean inPlace) {
        try {
            InterCollectiveCalls.notInPlace(c, call, inPlace, MPI.ERR_ARG);
            if (ObjectCollectives.handles(stype, rtype)) {
                return ObjectCollectives.allgather(c, call, nonBlocking, sbuf, soff, scount, stype, rbuf, roff, rcounts, 0,
                    displs, rtype, inPlace);
            }
            if (staged(stype, rtype)) {
                Staged s = inPlace ? null : Staged.of(call, "send buffer", sbuf, soff, scount, stype, false);
                Staged r = Staged.of(call, "receive buffer", rbuf, roff,
                    Staged.span(rcounts, displs, peers(c, c.rank(call))), rtype, true);
                return Staged.finish(allgatherv(c, call, nonBlocking, Staged.buffer(s, sbuf), Staged.offset(s, soff),
                    scount, Staged.packed(stype), Staged.buffer(r, rbuf), Staged.offset(r, roff), rcounts, displs,
                    Staged.packed(rtype), inPlace), s, r);
            }
            Invocation k = Invocation.of(c, call, nonBlocking);
            if (k.inter) {
                return InterCollectiveCalls.allgatherv(k, sbuf, soff, scount, stype, rbuf, roff, rcounts, displs, rtype);
            }
            if (!inPlace) {
                Check.buffer(call, "send buffer", sbuf, soff, scount, units(stype), stype);
                Check.sameType(call, stype, rtype);
            }
            Check.counts(call, "recvcounts", rcounts, k.size);
            Check.displs(call, "displs", displs, rcounts, "receive buffer", rbuf, roff, rtype, k.size);
            Check.writable(call, rbuf);
            int sunits = inPlace ? 0 : scount * stype.units();
            k.moves(sunits, rtype.basic);
            Collectives.allgatherv(k.team, k.rank, sbuf, soff, sunits, rbuf, roff, scaled(rcounts, rtype),
                scaled(displs, rtype), rtype.basic, inPlace, k.request, call, k.shows(-1, rtype).arguments());
            return k.result();
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Request alltoall(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, int scount,
                            Datatype stype, Object rbuf, int roff, int rcount, Datatype rtype) {
        try {
            if (ObjectCollectives.handles(stype, rtype)) {
                return ObjectCollectives.alltoall(c, call, nonBlocking, sbuf, soff, null, scount, null, stype, rbuf, roff,
                    null, rcount, null, rtype);
            }
            if (staged(stype, rtype)) {
                int size = peers(c, c.rank(call));
                Staged s = Staged.of(call, "send buffer", sbuf, soff, scount * size, stype, false);
                Staged r = Staged.of(call, "receive buffer", rbuf, roff, rcount * size, rtype, true);
                return Staged.finish(alltoall(c, call, nonBlocking, Staged.buffer(s, sbuf), Staged.offset(s, soff), scount,
                    Staged.packed(stype), Staged.buffer(r, rbuf), Staged.offset(r, roff), rcount, Staged.packed(rtype)),
                    s, r);
            }
            Invocation k = Invocation.of(c, call, nonBlocking);
            if (k.inter) {
                return InterCollectiveCalls.alltoall(k, sbuf, soff, scount, stype, rbuf, roff, rcount, rtype);
            }
            Check.buffer(call, "send buffer", sbuf, soff, scount, units(stype) * k.size, stype);
            receiveBuffer(call, rbuf, roff, rcount, rtype, k.size);
            sameSignature(call, scount, stype, rcount, rtype);
            Collectives.alltoall(k.team, k.rank, sbuf, soff, rbuf, roff, rcount * rtype.units(), rtype.basic, k.request,
                call, k.shows(rcount, rtype).arguments());
            return k.result();
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Request alltoallv(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, int[] scounts,
                             int[] sdispls, Datatype stype, Object rbuf, int roff, int[] rcounts, int[] rdispls,
                             Datatype rtype) {
        try {
            if (ObjectCollectives.handles(stype, rtype)) {
                return ObjectCollectives.alltoall(c, call, nonBlocking, sbuf, soff, scounts, 0, sdispls, stype, rbuf, roff,
                    rcounts, 0, rdispls, rtype);
            }
            if (staged(stype, rtype)) {
                int size = peers(c, c.rank(call));
                Staged s = Staged.of(call, "send buffer", sbuf, soff, Staged.span(scounts, sdispls, size), stype, false);
                Staged r = Staged.of(call, "receive buffer", rbuf, roff, Staged.span(rcounts, rdispls, size), rtype, true);
                return Staged.finish(alltoallv(c, call, nonBlocking, Staged.buffer(s, sbuf), Staged.offset(s, soff),
                    scounts, sdispls, Staged.packed(stype), Staged.buffer(r, rbuf), Staged.offset(r, roff), rcounts,
                    rdispls, Staged.packed(rtype)), s, r);
            }
            Invocation k = Invocation.of(c, call, nonBlocking);
            if (k.inter) {
                return InterCollectiveCalls.alltoallv(k, sbuf, soff, scounts, sdispls, stype, rbuf, roff, rcounts, rdispls,
                    rtype);
            }
            Check.counts(call, "sendcounts", scounts, k.size);
            Check.displs(call, "sdispls", sdispls, scounts, "send buffer", sbuf, soff, stype, k.size);
            Check.sameType(call, stype, rtype);
            Check.counts(call, "recvcounts", rcounts, k.size);
            Check.displs(call, "rdispls", rdispls, rcounts, "receive buffer", rbuf, roff, rtype, k.size);
            Check.writable(call, rbuf);
            long sent = 0;
            for (int n : scounts) {
                sent += n;
            }
            k.moves(sent * stype.units(), stype.basic);
            Collectives.alltoallv(k.team, k.rank, sbuf, soff, scaled(scounts, stype), scaled(sdispls, stype), null, rbuf,
                roff, scaled(rcounts, rtype), scaled(rdispls, rtype), null, rtype.basic, k.request, call,
                k.shows(-1, rtype).arguments());
            return k.result();
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    /** Alltoallw (Open MPI): a datatype per peer, displacements in bytes. */
    static Request alltoallw(Comm c, String call, boolean nonBlocking, Object sbuf, int[] scounts, int[] sdispls,
                             Datatype[] stypes, Object rbuf, int[] rcounts, int[] rdispls, Datatype[] rtypes) {
        try {
            for (Datatype[] types : new Datatype[][] {stypes, rtypes}) {
                for (int j = 0; types != null && j < types.length; j++) {
                    if (types[j] != null && !types[j].direct()) {
                        throw new MPIException(MPI.ERR_TYPE, call + ": datatype " + types[j] + " is not contiguous;"
                            + " allToAllw takes contiguous datatypes");
                    }
                }
            }
            Invocation k = Invocation.of(c, call, nonBlocking);
            Check.counts(call, "sendcounts", scounts, k.peers);
            Check.counts(call, "recvcounts", rcounts, k.peers);
            Check.writable(call, rbuf);
            int[] sc = new int[k.peers];
            int[] sd = new int[k.peers];
            int[] rc = new int[k.peers];
            int[] rd = new int[k.peers];
            BasicType[] st = new BasicType[k.peers];
            BasicType[] rt = new BasicType[k.peers];
            for (int j = 0; j < k.peers; j++) {
                st[j] = perPeer(call, "send", sbuf, scounts, sdispls, stypes, j, sc, sd);
                rt[j] = perPeer(call, "receive", rbuf, rcounts, rdispls, rtypes, j, rc, rd);
            }
            if (k.inter) {
                InterCollectives.alltoallv(k.team, k.rank, sbuf, 0, sc, sd, st, null, rbuf, 0, rc, rd, rt, null, k.request,
                    call, k.arguments());
            } else {
                Collectives.alltoallv(k.team, k.rank, sbuf, 0, sc, sd, st, rbuf, 0, rc, rd, rt, rt[0], k.request, call, k.arguments());
            }
            return k.result();
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    /** Checks block {@code j} of an Alltoallw buffer; stores its count and index in storage units. */
    private static BasicType perPeer(String call, String side, Object buf, int[] counts, int[] byteDispls,
                                     Datatype[] types, int j, int[] unitCounts, int[] unitIndexes) {
        String which = side + " buffer";
        if (types == null || types.length <= j || types[j] == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + side + " datatype of rank " + j + " is missing");
        }
        if (byteDispls == null || byteDispls.length <= j || byteDispls[j] < 0) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + side + " displacement of rank " + j
                + " is missing or negative");
        }
        Datatype t = types[j];
        if (byteDispls[j] % t.basic.size() != 0) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + side + " displacement " + byteDispls[j] + " of rank " + j
                + " is not a multiple of the size of " + t + " (displacements are in bytes)");
        }
        int index = byteDispls[j] / t.basic.size();
        Check.buffer(call, which, buf, index, counts[j], t.units(), t);
        unitCounts[j] = counts[j] * t.units();
        unitIndexes[j] = index;
        return t.basic;
    }

    static Request reduce(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, Object rbuf, int roff,
                          int count, Datatype type, Op op, int root, boolean inPlace) {
        try {
            InterCollectiveCalls.notInPlace(c, call, inPlace, MPI.ERR_BUFFER);
            if (ObjectCollectives.handles(type)) {
                return ObjectCollectives.reduce(c, call, nonBlocking, sbuf, soff, rbuf, roff, count, type, op, root, inPlace);
            }
            if (staged(type)) {
                Check.op(call, op, type);
                Rank me = c.rank(call);
                Staged s = ownBlock(c, me, root, inPlace) ? Staged.of(call, "send buffer", sbuf, soff, count, type, false)
                    : null;
                Staged r = isRoot(c, me, root) ? Staged.of(call, "receive buffer", rbuf, roff, count, type, true) : null;
                return Staged.finish(reduce(c, call, nonBlocking, Staged.buffer(s, sbuf), Staged.offset(s, soff),
                    Staged.buffer(r, rbuf), Staged.offset(r, roff), count, type.packed(), op, root, inPlace), s, r);
            }
            Invocation k = Invocation.of(c, call, nonBlocking);
            if (k.inter) {
                return InterCollectiveCalls.reduce(k, sbuf, soff, rbuf, roff, count, type, op, root);
            }
            Check.root(call, root, k.size);
            k.tracedRoot = root;
            boolean isRoot = k.rank == root;
            Reduction r = Check.op(call, op, type);
            if (!(inPlace && isRoot)) {
                reductionBuffer(call, "send buffer", sbuf, soff, count, units(type), type);
            }
            if (isRoot) {
                reductionBuffer(call, "receive buffer", rbuf, roff, count, units(type), type);
                Check.writable(call, rbuf);
            }
            Collectives.reduce(k.team, k.rank, sbuf, soff, rbuf, roff, count * type.units(), type.basic, r, root, inPlace,
                k.request, call, k.shows(count, type).arguments());
            return k.result();
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Request allreduce(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, Object rbuf, int roff,
                             int count, Datatype type, Op op, boolean inPlace) {
        try {
            InterCollectiveCalls.notInPlace(c, call, inPlace, MPI.ERR_BUFFER);
            if (ObjectCollectives.handles(type)) {
                return ObjectCollectives.scan(c, call, nonBlocking, sbuf, soff, rbuf, roff, count, type, op,
                    ObjectCollectives.Prefix.ALL, inPlace);
            }
            if (staged(type)) {
                Check.op(call, op, type);
                Staged s = inPlace ? null : Staged.of(call, "send buffer", sbuf, soff, count, type, false);
                Staged r = Staged.of(call, "receive buffer", rbuf, roff, count, type, true);
                return Staged.finish(allreduce(c, call, nonBlocking, Staged.buffer(s, sbuf), Staged.offset(s, soff),
                    Staged.buffer(r, rbuf), Staged.offset(r, roff), count, type.packed(), op, inPlace), s, r);
            }
            Invocation k = Invocation.of(c, call, nonBlocking);
            Reduction r = Check.op(call, op, type);
            if (!inPlace) {
                reductionBuffer(call, "send buffer", sbuf, soff, count, units(type), type);
            }
            reductionBuffer(call, "receive buffer", rbuf, roff, count, units(type), type);
            Check.writable(call, rbuf);
            if (k.inter) {
                InterCollectives.allreduce(k.team, k.rank, sbuf, soff, rbuf, roff, count * type.units(), type.basic, r,
                    k.request, call, k.shows(count, type).arguments());
                return k.result();
            }
            Collectives.allreduce(k.team, k.rank, sbuf, soff, rbuf, roff, count * type.units(), type.basic, r, inPlace,
                k.request, call, k.shows(count, type).arguments());
            return k.result();
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    /** Reduce_scatter with a count per rank; {@code counts == null}: every rank gets {@code blockCount}. */
    static Request reduceScatter(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, Object rbuf,
                                 int roff, int[] counts, int blockCount, Datatype type, Op op, boolean inPlace) {
        try {
            InterCollectiveCalls.notInPlace(c, call, inPlace, MPI.ERR_BUFFER);
            if (ObjectCollectives.handles(type)) {
                return ObjectCollectives.reduceScatter(c, call, nonBlocking, sbuf, soff, rbuf, roff, counts, blockCount,
                    type, op, inPlace);
            }
            if (staged(type)) {
                Check.op(call, op, type);
                int size = c.size(c.rank(call));
                int[] cs = counts;
                if (cs == null) {
                    cs = new int[size];
                    java.util.Arrays.fill(cs, Math.max(0, blockCount));
                }
                long total = 0;
                for (int j = 0; j < size && j < cs.length; j++) {
                    total += Math.max(0, cs[j]);
                }
                int mine = inPlace ? (int) total : cs.length > c.rankIn(c.rank(call)) ? cs[c.rankIn(c.rank(call))] : 0;
                Staged s = inPlace ? null : Staged.of(call, "send buffer", sbuf, soff, (int) total, type, false);
                Staged r = Staged.of(call, "receive buffer", rbuf, roff, mine, type, true);
                return Staged.finish(reduceScatter(c, call, nonBlocking, Staged.buffer(s, sbuf), Staged.offset(s, soff),
                    Staged.buffer(r, rbuf), Staged.offset(r, roff), counts, blockCount, type.packed(), op, inPlace), s, r);
            }
            Invocation k = Invocation.of(c, call, nonBlocking);
            Reduction r = Check.op(call, op, type);
            if (counts == null) {
                if (blockCount < 0) {
                    throw new MPIException(MPI.ERR_COUNT, call + ": count must be >= 0, was " + blockCount);
                }
                counts = new int[k.size];
                java.util.Arrays.fill(counts, blockCount);
            } else {
                Check.counts(call, "recvcounts", counts, k.size);
            }
            long total = 0;
            for (int j = 0; j < k.size; j++) {
                total += counts[j];
            }
            if (total > Integer.MAX_VALUE / type.units()) {
                throw new MPIException(MPI.ERR_COUNT, call + ": the counts add up to " + total + ", too many");
            }
            if (!inPlace) {
                reductionBuffer(call, "send buffer", sbuf, soff, (int) total, units(type), type);
            }
            reductionBuffer(call, "receive buffer", rbuf, roff, inPlace ? (int) total : counts[c.rankIn(k.me)], units(type),
                type);
            Check.writable(call, rbuf);
            k.moves(total * type.units(), type.basic);
            if (k.inter) {
                InterCollectives.reduceScatter(k.team, k.rank, sbuf, soff, rbuf, roff, scaled(counts, type), type.basic, r,
                    k.request, call, k.shows(-1, type).arguments());
                return k.result();
            }
            Collectives.reduceScatter(k.team, k.rank, sbuf, soff, rbuf, roff, scaled(counts, type), type.basic, r, inPlace,
                k.request, call, k.shows(-1, type).arguments());
            return k.result();
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    static Request scan(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, Object rbuf, int roff,
                        int count, Datatype type, Op op, boolean exclusive, boolean inPlace) {
        try {
            if (ObjectCollectives.handles(type)) {
                return ObjectCollectives.scan(c, call, nonBlocking, sbuf, soff, rbuf, roff, count, type, op,
                    exclusive ? ObjectCollectives.Prefix.EXCLUSIVE : ObjectCollectives.Prefix.INCLUSIVE, inPlace);
            }
            if (staged(type)) {
                Check.op(call, op, type);
                Staged s = inPlace ? null : Staged.of(call, "send buffer", sbuf, soff, count, type, false);
                Staged r = Staged.of(call, "receive buffer", rbuf, roff, count, type, true);
                return Staged.finish(scan(c, call, nonBlocking, Staged.buffer(s, sbuf), Staged.offset(s, soff),
                    Staged.buffer(r, rbuf), Staged.offset(r, roff), count, type.packed(), op, exclusive, inPlace), s, r);
            }
            Invocation k = Invocation.of(c, call, nonBlocking);
            Reduction r = Check.op(call, op, type);
            if (!inPlace) {
                reductionBuffer(call, "send buffer", sbuf, soff, count, units(type), type);
            }
            reductionBuffer(call, "receive buffer", rbuf, roff, count, units(type), type);
            Check.writable(call, rbuf);
            Collectives.scan(k.team, k.rank, sbuf, soff, rbuf, roff, count * type.units(), type.basic, r, exclusive,
                inPlace, k.request, call, k.shows(count, type).arguments());
            return k.result();
        } catch (MPIException e) {
            throw c.raise(e);
        }
    }

    /** MPI_Reduce_local: {@code inout = in op inout}, no communication. */
    static void reduceLocal(String call, Object in, Object inout, int count, Datatype type, Op op) {
        if (ObjectCollectives.handles(type)) {
            throw ObjectCollectives.unsupported(call);
        }
        if (staged(type)) {
            Check.op(call, op, type);
            Staged i = Staged.of(call, "input buffer", in, 0, count, type, false);
            Staged io = Staged.of(call, "input/output buffer", inout, 0, count, type, true);
            reduceLocal(call, Staged.buffer(i, in), Staged.buffer(io, inout), count, type.packed(), op);
            Staged.finish(null, i, io);
            return;
        }
        Reduction r = Check.op(call, op, type);
        reductionBuffer(call, "input buffer", in, 0, count, units(type), type);
        reductionBuffer(call, "input/output buffer", inout, 0, count, units(type), type);
        Check.writable(call, inout);
        Collectives.reduceLocal(in, 0, inout, 0, count * type.units(), type.basic, r);
    }

    // ---- helpers ----------------------------------------------------------------------------

    /** True when the calling rank is the root: its rank is {@code root}, or {@code root} is MPI.ROOT on an intercommunicator. */
    static boolean isRoot(Comm c, Rank me, int root) {
        return c.remoteMembers() != null ? root == MPI.ROOT : c.rankIn(me) == root;
    }

    /** False at the ranks of a rooted intercommunicator collective that pass MPI.PROC_NULL: they pass no data. */
    static boolean takesPart(Comm c, int root) {
        return c.remoteMembers() == null || root != MPI.PROC_NULL;
    }

    /**
     * True when the calling rank's own block (what it sends to a gathering root, or receives from a
     * scattering one) takes part: every rank's but an in-place root's; on an intercommunicator, the
     * ranks' of the group that is not the root's.
     */
    static boolean ownBlock(Comm c, Rank me, int root, boolean inPlace) {
        return c.remoteMembers() != null ? root >= 0 : !(inPlace && c.rankIn(me) == root);
    }

    /** The root is a rank of the communicator, or on an intercommunicator MPI.ROOT, MPI.PROC_NULL or a remote rank. */
    static void checkRoot(Comm c, String call, Rank me, int root) {
        if (c.remoteMembers() != null) {
            InterCollectiveCalls.checkRoot(call, root, c.remoteMembers().size());
        } else {
            Check.root(call, root, c.size(me));
        }
    }

    /** How many ranks per-rank blocks are for: the remote group's size on an intercommunicator. */
    static int peers(Comm c, Rank me) {
        return c.remoteMembers() != null ? c.remoteMembers().size() : c.size(me);
    }

    /**
     * True when a datatype is not contiguous (and not objects): its buffers are staged through
     * packed temporaries ({@link Staged}) and the collective runs on the packed type.
     */
    private static boolean staged(Datatype type) {
        return type != null && !type.direct();
    }

    private static boolean staged(Datatype a, Datatype b) {
        return staged(a) || staged(b);
    }

    /**
     * A reduction's buffer, checked as any buffer and, for the C-struct pairs ({@code MPI.DOUBLE_INT}...)
     * that the engine reads as bytes in native order, in native order: a ByteBuffer of another order
     * would be reduced on misread values.
     */
    static void reductionBuffer(String call, String which, Object buf, int offset, int count, int units,
                                Datatype type) {
        Check.buffer(call, which, buf, offset, count, units, type);
        if (type.layout.isStruct() && buf instanceof java.nio.ByteBuffer
            && ((java.nio.ByteBuffer) buf).order() != java.nio.ByteOrder.nativeOrder()) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": the " + which + " is a " + ((java.nio.ByteBuffer) buf)
                .order() + " ByteBuffer, but " + type + " values are reduced in native byte order ("
                + java.nio.ByteOrder.nativeOrder() + "); use MPI.newByteBuffer or order(ByteOrder.nativeOrder())");
        }
    }

    /** Storage units per item, or 1 for a null type (the buffer check then reports it). */
    static int units(Datatype type) {
        return type == null ? 1 : type.units();
    }

    /** The root's (or every rank's) receive buffer of {@code size} blocks of {@code count} items. */
    static void receiveBuffer(String call, Object rbuf, int roff, int count, Datatype type, int size) {
        Check.buffer(call, "receive buffer", rbuf, roff, count, units(type) * size, type);
        Check.writable(call, rbuf);
    }

    /** Send and receive blocks agree in type and length. */
    private static void sameSignature(String call, int scount, Datatype stype, int rcount, Datatype rtype) {
        Check.sameType(call, stype, rtype);
        if ((long) scount * stype.units() != (long) rcount * rtype.units()) {
            throw new MPIException(MPI.ERR_COUNT, call + ": send count " + scount + " does not match receive count "
                + rcount + " (" + stype + " and " + rtype + ")");
        }
    }

    /** Counts or displacements in items as storage units (the same array for basic types). */
    static int[] scaled(int[] items, Datatype type) {
        int u = type.units();
        if (u == 1) {
            return items;
        }
        int[] out = new int[items.length];
        for (int i = 0; i < items.length; i++) {
            out[i] = items[i] * u;
        }
        return out;
    }
}
