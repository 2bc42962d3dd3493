package org.mpjlite.smpdev.collective;

import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.Copier;

/**
 * The collective operations of an intercommunicator (MPI-3.1 §5.2.2), over its {@link Team#inter
 * team}: the members of both groups in one team, so that the engine of {@link Collectives} (slots,
 * parts compared before any data moves, epochs, non-blocking requests finished by the last arrival)
 * runs them unchanged; only the kernels differ, moving data from one group to the other. A Barrier
 * is {@link Collectives#barrier} on the team: nobody leaves before every member of both groups has
 * entered.
 *
 * <p>Rooted operations: {@code root} is the root's member index, at the root itself and at every
 * member of the other group, or {@link #ROOT_GROUP} at the other members of the root's group (MPI's
 * {@code MPI.PROC_NULL}), which pass no data. Data flows between the groups only: Allgather brings a
 * member the blocks of every member of the remote group (in their rank order), Alltoall exchanges a
 * block with each of them, Allreduce gives a member the reduction of the remote group's
 * contributions, Reduce_scatter the remote group's reduction scattered over its own group.
 *
 * <p>Kernels read everything they need from the members' parts and the team, never from the
 * arguments of the member that created them: a non-blocking collective's last arrival runs every
 * member's kernel with its own, and the members of the two groups pass different counts and types.
 * Each group's data may have its own type and count (an Allgather may send ints one way and doubles
 * the other): the parts carry both ({@link Part#units} first group to second, {@link Part#units2}
 * the other way), so that members compare them before any data moves. Contributions are read in
 * place (never copied into the slot), so every member waits until the others are done reading.
 *
 * <p>Arguments are already checked by the API layer (no MPI_IN_PLACE on an intercommunicator).
 * Counts, indexes and displacements are in storage units; per-peer arrays are indexed by the rank
 * in the remote group. Thread-safe as {@link Team}.
 */
public final class InterCollectives {
    /** The root the members of the root's group other than the root pass (MPI.PROC_NULL). */
    public static final int ROOT_GROUP = Part.ROOT_GROUP;

    private InterCollectives() {
    }

    /** True when member {@code m}, whose part is {@code p}, receives from the root (it is in the root's remote group). */
    private static boolean receivesFromRoot(Part p, int m) {
        return p.root >= 0 && p.root != m;
    }

    /**
     * Enters a rooted collective and publishes member {@code me}'s buffers: the root's send buffer
     * when {@code rootSends} (Bcast, Scatter) else its receive buffer (Gather, Reduce), the other
     * group's members the other one; the root group's other members ({@link #ROOT_GROUP}) nothing.
     */
    private static Slot enterRooted(Team t, int me, Operation operation, String call, Object arguments, int root,
                                    long units, BasicType type, Reduction op, boolean rootSends, Object sbuf,
                                    int sindex, Object rbuf, int rindex) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        p.sign(operation, call, arguments, root, units, type, op);
        if (root != ROOT_GROUP && (me == root) == rootSends) {
            p.send = sbuf;
            p.sendIndex = sindex;
        } else if (root != ROOT_GROUP) {
            p.recv = rbuf;
            p.recvIndex = rindex;
        }
        return s;
    }

    public static void bcast(Team t, int me, Object buf, int index, int units, BasicType type, int root,
                             CollectiveRequest request, String call, Object arguments) {
        Slot s = enterRooted(t, me, Operation.BCAST, call, arguments, root, units, type, null, true, buf, index, buf,
            index);
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            if (receivesFromRoot(dst, m)) {
                Part src = slot.parts[dst.root];
                Copier.copy(src.send, src.sendIndex, dst.recv, dst.recvIndex, (int) dst.units, dst.type);
            }
        }, false, request, call);
    }

    /** Gather to the root of {@code units} from each member of the other group. */
    public static void gather(Team t, int me, Object sbuf, int sindex, Object rbuf, int rindex, int units,
                              BasicType type, int root, CollectiveRequest request, String call, Object arguments) {
        Slot s = enterRooted(t, me, Operation.GATHER, call, arguments, root, units, type, null, false, sbuf, sindex,
            rbuf, rindex);
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            if (dst.root == m) {
                int u = (int) dst.units;
                for (int j = t.remoteFrom(m); j < t.remoteTo(m); j++) {
                    Part src = slot.parts[j];
                    Copier.copy(src.send, src.sendIndex, dst.recv, dst.recvIndex + t.local(j) * u, u, dst.type);
                }
            }
        }, false, request, call);
    }

    /** Gatherv: the root places remote rank j's {@code sunits} at {@code rdispls[j]}, at most {@code rcounts[j]}. */
    public static void gatherv(Team t, int me, Object sbuf, int sindex, int sunits, Object rbuf, int rindex,
                               int[] rcounts, int[] rdispls, BasicType type, int root, CollectiveRequest request,
                               String call, Object arguments) {
        Slot s = enterRooted(t, me, Operation.GATHERV, call, arguments, root, -1, type, null, false, sbuf, sindex,
            rbuf, rindex);
        Part p = s.parts[me];
        p.recvCounts = rcounts;
        p.recvDispls = rdispls;
        p.sendUnits = sunits;
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            if (dst.root == m) {
                for (int j = t.remoteFrom(m); j < t.remoteTo(m); j++) {
                    Part src = slot.parts[j];
                    int r = t.local(j);
                    Collectives.checkFits(src.sendUnits, dst.recvCounts[r], r, call);
                    Copier.copy(src.send, src.sendIndex, dst.recv, dst.recvIndex + dst.recvDispls[r], src.sendUnits,
                        dst.type);
                }
            }
        }, false, request, call);
    }

    /** Scatter from the root of {@code units} to each member of the other group. */
    public static void scatter(Team t, int me, Object sbuf, int sindex, Object rbuf, int rindex, int units,
                               BasicType type, int root, CollectiveRequest request, String call, Object arguments) {
        Slot s = enterRooted(t, me, Operation.SCATTER, call, arguments, root, units, type, null, true, sbuf, sindex,
            rbuf, rindex);
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            if (receivesFromRoot(dst, m)) {
                Part src = slot.parts[dst.root];
                int u = (int) dst.units;
                Copier.copy(src.send, src.sendIndex + t.local(m) * u, dst.recv, dst.recvIndex, u, dst.type);
            }
        }, false, request, call);
    }

    /** Scatterv: remote rank j receives {@code scounts[j]} units from {@code sdispls[j]}, at most its {@code runits}. */
    public static void scatterv(Team t, int me, Object sbuf, int sindex, int[] scounts, int[] sdispls, Object rbuf,
                                int rindex, int runits, BasicType type, int root, CollectiveRequest request,
                                String call, Object arguments) {
        Slot s = enterRooted(t, me, Operation.SCATTERV, call, arguments, root, -1, type, null, true, sbuf, sindex,
            rbuf, rindex);
        Part p = s.parts[me];
        p.sendCounts = scounts;
        p.sendDispls = sdispls;
        p.recvUnits = runits;
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            if (receivesFromRoot(dst, m)) {
                Part src = slot.parts[dst.root];
                int r = t.local(m);
                Collectives.checkFits(src.sendCounts[r], dst.recvUnits, t.local(dst.root), call);
                Copier.copy(src.send, src.sendIndex + src.sendDispls[r], dst.recv, dst.recvIndex, src.sendCounts[r],
                    dst.type);
            }
        }, false, request, call);
    }

    /**
     * Enters a collective whose data flows both ways and publishes the member's buffers; signs it: {@code sunits} of {@code stype} sent to every
     * remote member (or -1: counts per member), {@code runits} of {@code rtype} received from each,
     * as the flows from the first group to the second and back, which both groups see alike.
     */
    private static Slot enterBothWays(Team t, int me, Operation operation, String call, Object arguments,
                                      long sunits, BasicType stype, long runits, BasicType rtype, Object sbuf,
                                      int sindex, Object rbuf, int rindex) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        boolean first = t.group(me) == 0;
        p.sign(operation, call, arguments, -1, first ? sunits : runits, first ? stype : rtype, null);
        p.signReverse(first ? runits : sunits, first ? rtype : stype);
        p.send = sbuf;
        p.sendIndex = sindex;
        p.recv = rbuf;
        p.recvIndex = rindex;
        return s;
    }

    /** The units member {@code m} receives from each remote member (flows as {@link #enterBothWays}). */
    private static int unitsIn(Team t, Part p, int m) {
        return (int) (t.group(m) == 1 ? p.units : p.units2);
    }

    /** The type of the data member {@code m} receives. */
    private static BasicType typeIn(Team t, Part p, int m) {
        return t.group(m) == 1 ? p.type : p.type2;
    }

    /** Allgather: {@code sunits} of this member to every remote member; {@code runits} from each, in their rank order. */
    public static void allgather(Team t, int me, Object sbuf, int sindex, int sunits, BasicType stype, Object rbuf,
                                 int rindex, int runits, BasicType rtype, CollectiveRequest request, String call,
                                 Object arguments) {
        Slot s = enterBothWays(t, me, Operation.ALLGATHER, call, arguments, sunits, stype, runits, rtype, sbuf, sindex,
            rbuf, rindex);
        s.parts[me].unalias(stype, sunits);
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            int u = unitsIn(t, dst, m);
            BasicType type = typeIn(t, dst, m);
            for (int j = t.remoteFrom(m); j < t.remoteTo(m); j++) {
                Part src = slot.parts[j];
                Copier.copy(src.send, src.sendIndex, dst.recv, dst.recvIndex + t.local(j) * u, u, type);
            }
        }, false, request, call);
    }

    /** Allgatherv: remote rank j's {@code sunits} placed at {@code rdispls[j]}, at most {@code rcounts[j]}. */
    public static void allgatherv(Team t, int me, Object sbuf, int sindex, int sunits, BasicType stype, Object rbuf,
                                  int rindex, int[] rcounts, int[] rdispls, BasicType rtype, CollectiveRequest request,
                                  String call, Object arguments) {
        Slot s = enterBothWays(t, me, Operation.ALLGATHERV, call, arguments, -1, stype, -1, rtype, sbuf, sindex, rbuf,
            rindex);
        Part p = s.parts[me];
        p.sendUnits = sunits;
        p.recvCounts = rcounts;
        p.recvDispls = rdispls;
        p.unalias(stype, sunits);
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            BasicType type = typeIn(t, dst, m);
            for (int j = t.remoteFrom(m); j < t.remoteTo(m); j++) {
                Part src = slot.parts[j];
                int r = t.local(j);
                Collectives.checkFits(src.sendUnits, dst.recvCounts[r], r, call);
                Copier.copy(src.send, src.sendIndex, dst.recv, dst.recvIndex + dst.recvDispls[r], src.sendUnits, type);
            }
        }, false, request, call);
    }

    /** Alltoall: block j of {@code sunits} to remote rank j; {@code runits} from each into block j. */
    public static void alltoall(Team t, int me, Object sbuf, int sindex, int sunits, BasicType stype, Object rbuf,
                                int rindex, int runits, BasicType rtype, CollectiveRequest request, String call,
                                Object arguments) {
        Slot s = enterBothWays(t, me, Operation.ALLTOALL, call, arguments, sunits, stype, runits, rtype, sbuf, sindex,
            rbuf, rindex);
        s.parts[me].unalias(stype, sunits * (t.remoteTo(me) - t.remoteFrom(me)));
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            int u = unitsIn(t, dst, m);
            BasicType type = typeIn(t, dst, m);
            int mine = t.local(m);
            for (int j = t.remoteFrom(m); j < t.remoteTo(m); j++) {
                Part src = slot.parts[j];
                Copier.copy(src.send, src.sendIndex + mine * u, dst.recv, dst.recvIndex + t.local(j) * u, u, type);
            }
        }, false, request, call);
    }

    /**
     * Alltoallv and Alltoallw: this member's block for remote rank j is {@code scounts[j]} units at
     * {@code sdispls[j]}, of type {@code stypes[j]} (null types: all {@code stype}); the block from
     * remote rank j goes at {@code rdispls[j]}, at most {@code rcounts[j]} units of {@code rtypes[j]}
     * (or {@code rtype}).
     */
    public static void alltoallv(Team t, int me, Object sbuf, int sindex, int[] scounts, int[] sdispls,
                                 BasicType[] stypes, BasicType stype, Object rbuf, int rindex, int[] rcounts,
                                 int[] rdispls, BasicType[] rtypes, BasicType rtype, CollectiveRequest request,
                                 String call, Object arguments) {
        boolean perPeer = stypes != null;
        Slot s = enterBothWays(t, me, Operation.ALLTOALLV, call, arguments, -1, perPeer ? null : stype, -1,
            perPeer ? null : rtype, sbuf, sindex, rbuf, rindex);
        Part p = s.parts[me];
        p.sendCounts = scounts;
        p.sendDispls = sdispls;
        p.sendTypes = stypes;
        p.recvCounts = rcounts;
        p.recvDispls = rdispls;
        p.recvTypes = rtypes;
        p.unaliasBlocks(stype);
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            BasicType type = typeIn(t, dst, m);
            int mine = t.local(m);
            for (int j = t.remoteFrom(m); j < t.remoteTo(m); j++) {
                Collectives.alltoallvBlock(slot.parts[j], t.local(j), dst, mine, type, call);
            }
        }, false, request, call);
    }

    /** Reduce: the root gets the reduction, in rank order, of the other group's contributions. */
    public static void reduce(Team t, int me, Object sbuf, int sindex, Object rbuf, int rindex, int units,
                              BasicType type, Reduction op, int root, CollectiveRequest request, String call,
                              Object arguments) {
        Slot s = enterRooted(t, me, Operation.REDUCE, call, arguments, root, units, type, op, false, sbuf, sindex,
            rbuf, rindex);
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            if (dst.root == m) {
                Reducer.reduce(slot.parts, t.remoteFrom(m), t.remoteTo(m), 0, (int) dst.units, dst.recv, dst.recvIndex,
                    dst.type, dst.op);
            }
        }, false, request, call);
    }

    /** Allreduce: each member gets the reduction, in rank order, of the remote group's contributions. */
    public static void allreduce(Team t, int me, Object sbuf, int sindex, Object rbuf, int rindex, int units,
                                 BasicType type, Reduction op, CollectiveRequest request, String call,
                                 Object arguments) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        p.sign(Operation.ALLREDUCE, call, arguments, -1, units, type, op);
        p.send = sbuf;
        p.sendIndex = sindex;
        p.recv = rbuf;
        p.recvIndex = rindex;
        p.unalias(type, units);
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            Reducer.reduce(slot.parts, t.remoteFrom(m), t.remoteTo(m), 0, (int) dst.units, dst.recv, dst.recvIndex,
                dst.type, dst.op);
        }, false, request, call);
    }

    /**
     * Reduce_scatter: every member contributes {@code sum(counts)} units, the same total in both
     * groups; the remote group's reduction is scattered over this member's group, its rank k getting
     * {@code counts[k]} units from offset {@code counts[0] + ... + counts[k-1]} ({@code counts} are
     * this member's group's).
     */
    public static void reduceScatter(Team t, int me, Object sbuf, int sindex, Object rbuf, int rindex, int[] counts,
                                     BasicType type, Reduction op, CollectiveRequest request, String call,
                                     Object arguments) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        int[] offsets = new int[counts.length];
        long total = 0;
        for (int j = 0; j < counts.length; j++) {
            offsets[j] = (int) total;
            total += counts[j];
        }
        p.sign(Operation.REDUCE_SCATTER, call, arguments, -1, total, type, op);
        p.send = sbuf;
        p.sendIndex = sindex;
        p.recv = rbuf;
        p.recvIndex = rindex;
        p.recvCounts = counts;
        p.recvDispls = offsets;
        p.unalias(type, (int) total);
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            int k = t.local(m);
            Reducer.reduce(slot.parts, t.remoteFrom(m), t.remoteTo(m), dst.recvDispls[k], dst.recvCounts[k], dst.recv,
                dst.recvIndex, dst.type, dst.op);
        }, false, request, call);
    }
}
