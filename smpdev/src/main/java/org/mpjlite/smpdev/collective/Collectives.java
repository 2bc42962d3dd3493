package org.mpjlite.smpdev.collective;

import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.Copier;
import org.mpjlite.smpdev.error.ErrorClass;

/**
 * The collective operations of MPI over a {@link Team}, for shared memory: every member publishes
 * its buffers and the data moves once, straight from where it is to where it goes, each member
 * pulling what it receives (in parallel for blocking calls; large Bcast and Allreduce split the
 * copying and reducing evenly across all members instead). Contributions of at most
 * {@link Tunables#COLLECTIVE_EAGER_BYTES} are first copied into the slot, so the member need not
 * wait for the others to finish reading; larger ones are read in place and their owner waits until
 * everyone has, unless they share storage with the member's receive buffer (mpiJava programs pass
 * one array as both), in which case they are copied too ({@link Part#unalias}). When ranks park, a
 * later blocking Bcast too large for the epoch lines (when they spin, one of 2 KB to 16 KB) is
 * neither copied into the slot nor split: each member copies the whole message from the root's
 * buffer and leaves, and only the root waits for everyone ({@link Team#bcastPulled}).
 *
 * <p>Each method runs member {@code me}'s side of one collective; every member of the team calls
 * the same method with matching arguments, or every member fails with an error that says how the
 * calls differ ({@link Team}); {@code call} names the call in errors and {@code arguments}, whose
 * toString() lists the count and datatype as the user gave them, completes it in that report. With
 * {@code request == null} it blocks until the member's results are in place and its buffers are
 * free; otherwise it returns at once and the request completes when that holds (the last member to
 * arrive does the work).
 *
 * <p>Arguments are already checked by the API layer. Counts, indexes and displacements are in
 * storage units of {@code type}; "in place" follows MPI_IN_PLACE for the operation (the member's
 * contribution is in its receive buffer). Thread-safe as {@link Team}.
 */
public final class Collectives {
    private static final Kernel NOTHING = (slot, member) -> {
    };

    private Collectives() {
    }

    /** True when a collective of {@code units} per contribution copies them (blocking calls only). */
    private static boolean eager(long units, BasicType type, CollectiveRequest request) {
        return request == null && units * type.size() <= Tunables.COLLECTIVE_EAGER_BYTES;
    }

    /*
     * The kernels of small Bcast, Reduce and Allreduce read the call from the member's signed part
     * (root, units, type, operation: the same on every member once the parts matched) rather than
     * capturing it, so that they are constants and a call allocates no kernel.
     */

    /**
     * Bcast, the whole message from the root's part (its copy in the slot, or when pulled its
     * buffer): every member but the root copies it.
     */
    private static final Kernel WHOLE_BCAST = (slot, m) -> {
        Part dst = slot.parts[m];
        if (m != dst.root) {
            Part src = slot.parts[dst.root];
            Copier.copy(src.send, src.sendIndex, dst.recv, dst.recvIndex, (int) dst.units, dst.type);
        }
    };

    /** Reduce: the root reduces every contribution, in rank order. */
    private static final Kernel REDUCE = (slot, m) -> {
        Part dst = slot.parts[m];
        if (m == dst.root) {
            Reducer.reduce(slot.parts, 0, slot.parts.length, 0, (int) dst.units, dst.recv, dst.recvIndex, dst.type,
                dst.op);
        }
    };

    /** Allreduce, contributions copied into the slot: every member reduces them all, in rank order. */
    private static final Kernel EAGER_ALLREDUCE = (slot, m) -> {
        Part dst = slot.parts[m];
        Reducer.reduce(slot.parts, 0, slot.parts.length, 0, (int) dst.units, dst.recv, dst.recvIndex, dst.type, dst.op);
    };

    public static void barrier(Team t, int me, CollectiveRequest request, String call, Object arguments) {
        Slot s = t.enter(me, call);
        s.parts[me].sign(Operation.BARRIER, call, arguments, -1, 0, null, null);
        if (request == null) {
            t.barrierEntered(me);
        }
        if (request == null && t.barriersInLines()) {
            t.barrierInLines(s, me, call);
            return;
        }
        t.run(s, me, NOTHING, true, request, call);
    }

    public static void bcast(Team t, int me, Object buf, int index, int units, BasicType type, int root,
                             CollectiveRequest request, String call, Object arguments) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        p.sign(Operation.BCAST, call, arguments, root, units, type, null);
        if (request == null) {
            t.bcastEntered(me, root);
        }
        if (request == null && !t.isLarge() && EpochLines.fitsBcast(units, type)) {
            t.bcastInLines(s, me, buf, index, units, type, root, call);
            return;
        }
        long bytes = (long) units * type.size();
        boolean early = request == null && t.leavesBcastEarly(me);
        boolean pulled = early && t.pullsBcasts(bytes);
        boolean eager = request == null && !pulled && bytes <= Tunables.COLLECTIVE_EAGER_BYTES;
        if (me == root) {
            p.send = buf;
            p.sendIndex = index;
            if (eager) {
                p.snapshot(type, units);
            }
        } else {
            p.recv = buf;
            p.recvIndex = index;
        }
        if (pulled) {
            t.bcastPulled(s, me, root, WHOLE_BCAST, call);
            return;
        }
        if (early && eager) {
            t.bcastEarlyFromSlot(s, me, root, WHOLE_BCAST, call);
            return;
        }
        int n = t.size();
        Kernel kernel = eager ? WHOLE_BCAST : (slot, m) -> {
            // Every member, the root too, copies its share of every receiver's buffer: all cores copy.
            int lo = chunk(units, m, n, 1);
            int len = chunk(units, m + 1, n, 1) - lo;
            Part src = slot.parts[root];
            for (int d = 0; d < n; d++) {
                if (d != root) {
                    Part dst = slot.parts[d];
                    Copier.copy(src.send, src.sendIndex + lo, dst.recv, dst.recvIndex + lo, len, type);
                }
            }
        };
        t.run(s, me, kernel, eager, request, call);
        if (request == null) {
            t.bcastWaitedForAll(me);
        }
    }

    /** Start of member {@code m}'s share of {@code units} split {@code n} ways, whole items of {@code perItem}. */
    private static int chunk(int units, int m, int n, int perItem) {
        return m >= n ? units : (int) ((long) units / perItem * m / n) * perItem;
    }

    /** Gather of {@code units} per member; in place: the root's block is already in its receive buffer. */
    public static void gather(Team t, int me, Object sbuf, int sindex, Object rbuf, int rindex, int units,
                              BasicType type, int root, boolean inPlace, CollectiveRequest request, String call,
                              Object arguments) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        p.sign(Operation.GATHER, call, arguments, root, units, type, null);
        boolean eager = eager(units, type, request);
        if (!(inPlace && me == root)) {
            p.send = sbuf;
            p.sendIndex = sindex;
            if (eager) {
                p.snapshot(type, units);
            }
        }
        if (me == root) {
            p.recv = rbuf;
            p.recvIndex = rindex;
            p.unalias(type, units);
        }
        int n = t.size();
        t.run(s, me, (slot, m) -> {
            if (m == root) {
                Part dst = slot.parts[root];
                for (int j = 0; j < n; j++) {
                    Part src = slot.parts[j];
                    if (src.send != null) {
                        Copier.copy(src.send, src.sendIndex, dst.recv, dst.recvIndex + j * units, units, type);
                    }
                }
            }
        }, eager, request, call);
    }

    /**
     * Gatherv: member j sends {@code sunits}; the root places it at {@code rdispls[j]}, at most
     * {@code rcounts[j]} units.
     */
    public static void gatherv(Team t, int me, Object sbuf, int sindex, int sunits, Object rbuf, int rindex,
                               int[] rcounts, int[] rdispls, BasicType type, int root, boolean inPlace,
                               CollectiveRequest request, String call, Object arguments) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        p.sign(Operation.GATHERV, call, arguments, root, -1, type, null);
        if (!(inPlace && me == root)) {
            p.send = sbuf;
            p.sendIndex = sindex;
            p.sendUnits = sunits;
        }
        if (me == root) {
            p.recv = rbuf;
            p.recvIndex = rindex;
            p.recvCounts = rcounts;
            p.recvDispls = rdispls;
            p.unalias(type, sunits);
        }
        int n = t.size();
        t.run(s, me, (slot, m) -> {
            if (m == root) {
                Part dst = slot.parts[root];
                for (int j = 0; j < n; j++) {
                    Part src = slot.parts[j];
                    if (src.send != null) {
                        checkFits(src.sendUnits, dst.recvCounts[j], j, call);
                        Copier.copy(src.send, src.sendIndex, dst.recv, dst.recvIndex + dst.recvDispls[j],
                            src.sendUnits, type);
                    }
                }
            }
        }, false, request, call);
    }

    /** Scatter of {@code units} per member; in place: the root keeps its block where it is. */
    public static void scatter(Team t, int me, Object sbuf, int sindex, Object rbuf, int rindex, int units,
                               BasicType type, int root, boolean inPlace, CollectiveRequest request, String call,
                               Object arguments) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        p.sign(Operation.SCATTER, call, arguments, root, units, type, null);
        int n = t.size();
        boolean eager = eager((long) units * n, type, request);
        if (me == root) {
            p.send = sbuf;
            p.sendIndex = sindex;
            if (eager) {
                p.snapshot(type, units * n);
            }
        }
        if (!(inPlace && me == root)) {
            p.recv = rbuf;
            p.recvIndex = rindex;
        }
        p.unalias(type, units * n);
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            if (dst.recv != null) {
                Part src = slot.parts[root];
                Copier.copy(src.send, src.sendIndex + m * units, dst.recv, dst.recvIndex, units, type);
            }
        }, eager, request, call);
    }

    /** Scatterv: member j receives {@code scounts[j]} units from {@code sdispls[j]}, at most {@code runits}. */
    public static void scatterv(Team t, int me, Object sbuf, int sindex, int[] scounts, int[] sdispls,
                                Object rbuf, int rindex, int runits, BasicType type, int root, boolean inPlace,
                                CollectiveRequest request, String call, Object arguments) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        p.sign(Operation.SCATTERV, call, arguments, root, -1, type, null);
        if (me == root) {
            p.send = sbuf;
            p.sendIndex = sindex;
            p.sendCounts = scounts;
            p.sendDispls = sdispls;
        }
        if (!(inPlace && me == root)) {
            p.recv = rbuf;
            p.recvIndex = rindex;
            p.recvUnits = runits;
        }
        if (me == root) {
            p.unalias(type, extent(scounts, sdispls));
        }
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            if (dst.recv != null) {
                Part src = slot.parts[root];
                checkFits(src.sendCounts[m], dst.recvUnits, root, call);
                Copier.copy(src.send, src.sendIndex + src.sendDispls[m], dst.recv, dst.recvIndex,
                    src.sendCounts[m], type);
            }
        }, false, request, call);
    }

    /** Allgather of {@code units} per member; in place: each member's block is in its receive buffer. */
    public static void allgather(Team t, int me, Object sbuf, int sindex, Object rbuf, int rindex, int units,
                                 BasicType type, boolean inPlace, CollectiveRequest request, String call,
                                 Object arguments) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        p.sign(Operation.ALLGATHER, call, arguments, -1, units, type, null);
        boolean eager = eager(units, type, request);
        p.send = inPlace ? rbuf : sbuf;
        p.sendIndex = inPlace ? rindex + me * units : sindex;
        if (eager) {
            p.snapshot(type, units);
        }
        p.recv = rbuf;
        p.recvIndex = rindex;
        if (!inPlace) {
            p.unalias(type, units);
        }
        int n = t.size();
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            for (int j = 0; j < n; j++) {
                if (!(inPlace && j == m)) {
                    Part src = slot.parts[j];
                    Copier.copy(src.send, src.sendIndex, dst.recv, dst.recvIndex + j * units, units, type);
                }
            }
        }, eager, request, call);
    }

    /** Allgatherv: member j sends {@code sunits}, placed at {@code rdispls[j]} (at most {@code rcounts[j]}). */
    public static void allgatherv(Team t, int me, Object sbuf, int sindex, int sunits, Object rbuf, int rindex,
                                  int[] rcounts, int[] rdispls, BasicType type, boolean inPlace,
                                  CollectiveRequest request, String call, Object arguments) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        p.sign(Operation.ALLGATHERV, call, arguments, -1, -1, type, null);
        p.send = inPlace ? rbuf : sbuf;
        p.sendIndex = inPlace ? rindex + rdispls[me] : sindex;
        p.sendUnits = inPlace ? rcounts[me] : sunits;
        p.recv = rbuf;
        p.recvIndex = rindex;
        p.recvCounts = rcounts;
        p.recvDispls = rdispls;
        if (!inPlace) {
            p.unalias(type, sunits);
        }
        int n = t.size();
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            for (int j = 0; j < n; j++) {
                if (!(inPlace && j == m)) {
                    Part src = slot.parts[j];
                    checkFits(src.sendUnits, dst.recvCounts[j], j, call);
                    Copier.copy(src.send, src.sendIndex, dst.recv, dst.recvIndex + dst.recvDispls[j], src.sendUnits,
                        type);
                }
            }
        }, false, request, call);
    }

    /** Alltoall of {@code units} per pair of members. */
    public static void alltoall(Team t, int me, Object sbuf, int sindex, Object rbuf, int rindex, int units,
                                BasicType type, CollectiveRequest request, String call, Object arguments) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        p.sign(Operation.ALLTOALL, call, arguments, -1, units, type, null);
        int n = t.size();
        boolean eager = eager((long) units * n, type, request);
        p.send = sbuf;
        p.sendIndex = sindex;
        if (eager) {
            p.snapshot(type, units * n);
        }
        p.recv = rbuf;
        p.recvIndex = rindex;
        p.unalias(type, units * n);
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            for (int j = 0; j < n; j++) {
                Part src = slot.parts[j];
                Copier.copy(src.send, src.sendIndex + m * units, dst.recv, dst.recvIndex + j * units, units, type);
            }
        }, eager, request, call);
    }

    /**
     * Alltoallv and Alltoallw: member j's block for member m is {@code scounts[m]} units at
     * {@code sdispls[m]} of j's send buffer, of type {@code stypes[m]} (null types: all {@code type});
     * member m places it at {@code rdispls[j]}, at most {@code rcounts[j]} units of {@code rtypes[j]}.
     */
    public static void alltoallv(Team t, int me, Object sbuf, int sindex, int[] scounts, int[] sdispls,
                                 BasicType[] stypes, Object rbuf, int rindex, int[] rcounts, int[] rdispls,
                                 BasicType[] rtypes, BasicType type, CollectiveRequest request, String call,
                                 Object arguments) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        p.sign(Operation.ALLTOALLV, call, arguments, -1, -1, stypes == null ? type : null, null);
        int n = t.size();
        p.send = sbuf;
        p.sendIndex = sindex;
        p.sendCounts = scounts;
        p.sendDispls = sdispls;
        p.sendTypes = stypes;
        p.recv = rbuf;
        p.recvIndex = rindex;
        p.recvCounts = rcounts;
        p.recvDispls = rdispls;
        p.recvTypes = rtypes;
        p.unaliasBlocks(type);
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            for (int j = 0; j < n; j++) {
                alltoallvBlock(slot.parts[j], j, dst, m, type, call);
            }
        }, false, request, call);
    }

    /**
     * Alltoallv's block from the member of part {@code src}, rank {@code from}, to the member of part
     * {@code dst}, rank {@code to} (ranks as each indexes the other's blocks: on an intercommunicator,
     * in the remote group); null per-peer types mean {@code type}.
     */
    static void alltoallvBlock(Part src, int from, Part dst, int to, BasicType type, String call) {
        int count = src.sendCounts[to];
        checkFits(count, dst.recvCounts[from], from, call);
        BasicType st = src.sendTypes == null ? type : src.sendTypes[to];
        BasicType rt = dst.recvTypes == null ? type : dst.recvTypes[from];
        if (count > 0 && !rt.receives(st)) {
            throw new KernelError(ErrorClass.ERR_TYPE, call + ": rank " + from + " sends " + st.mpiName()
                + " where rank " + to + " receives " + rt.mpiName());
        }
        Copier.copy(src.send, src.sendIndex + src.sendDispls[to], dst.recv, dst.recvIndex + dst.recvDispls[from], count,
            rt);
    }

    /** Reduce to the root; in place: the root's contribution is in its receive buffer. */
    public static void reduce(Team t, int me, Object sbuf, int sindex, Object rbuf, int rindex, int units,
                              BasicType type, Reduction op, int root, boolean inPlace, CollectiveRequest request,
                              String call, Object arguments) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        p.sign(Operation.REDUCE, call, arguments, root, units, type, op);
        boolean rootInPlace = inPlace && me == root;
        if (request == null && !t.isLarge() && EpochLines.fitsReduce(units, type, op)) {
            t.reduceInLines(s, me, rootInPlace ? rbuf : sbuf, rootInPlace ? rindex : sindex, rbuf, rindex, units, type,
                op, root, call);
            return;
        }
        boolean eager = eager(units, type, request);
        contribute(p, rootInPlace ? rbuf : sbuf, rootInPlace ? rindex : sindex, units, type, eager || rootInPlace);
        if (me == root) {
            p.recv = rbuf;
            p.recvIndex = rindex;
            p.unalias(type, units);
        } else if (eager && t.leavesReduceEarly(me)) {
            t.reduceEarly(s, me, root, call);
            return;
        }
        t.run(s, me, REDUCE, eager, request, call);
        if (request == null) {
            t.reduceWaitedForAll(me);
        }
    }

    /** Allreduce; in place: each member's contribution is in its receive buffer. */
    public static void allreduce(Team t, int me, Object sbuf, int sindex, Object rbuf, int rindex, int units,
                                 BasicType type, Reduction op, boolean inPlace, CollectiveRequest request,
                                 String call, Object arguments) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        p.sign(Operation.ALLREDUCE, call, arguments, -1, units, type, op);
        if (request == null && !t.isLarge() && EpochLines.fits(units, type, op)) {
            t.allreduceInLines(s, me, inPlace ? rbuf : sbuf, inPlace ? rindex : sindex, rbuf, rindex, units, type, op,
                call);
            return;
        }
        // A large team reduces each element once (below), not once per member: p members each
        // reducing p contributions would cost p^2.
        boolean eager = eager(units, type, request) && !t.isLarge();
        contribute(p, inPlace ? rbuf : sbuf, inPlace ? rindex : sindex, units, type, eager || inPlace);
        p.recv = rbuf;
        p.recvIndex = rindex;
        p.unalias(type, units);
        int n = t.size();
        Kernel kernel = eager ? EAGER_ALLREDUCE : (slot, m) -> {
            // Member m reduces its share of the elements once, into its own receive buffer, and
            // copies that share to every other member's: all cores reduce, none twice.
            int perItem = op.unitsPerItem();
            int lo = chunk(units, m, n, perItem);
            int len = chunk(units, m + 1, n, perItem) - lo;
            if (len == 0) {
                return; // more members than elements: the others' shares cover them
            }
            Part mine = slot.parts[m];
            Reducer.reduce(slot.parts, 0, n, lo, len, mine.recv, mine.recvIndex + lo, type, op);
            for (int d = 0; d < n; d++) {
                if (d != m) {
                    Part dst = slot.parts[d];
                    Copier.copy(mine.recv, mine.recvIndex + lo, dst.recv, dst.recvIndex + lo, len, type);
                }
            }
        };
        t.run(s, me, kernel, eager, request, call);
    }

    /**
     * Reduce_scatter: the reduction of {@code sum(counts)} units, member m getting {@code counts[m]}
     * units from offset {@code counts[0] + ... + counts[m-1]}. In place: the whole contribution is in
     * the receive buffer, and the result goes at its start.
     */
    public static void reduceScatter(Team t, int me, Object sbuf, int sindex, Object rbuf, int rindex, int[] counts,
                                     BasicType type, Reduction op, boolean inPlace, CollectiveRequest request,
                                     String call, Object arguments) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        int n = t.size();
        int[] offsets = new int[n + 1];
        for (int j = 0; j < n; j++) {
            offsets[j + 1] = offsets[j] + counts[j];
        }
        p.sign(Operation.REDUCE_SCATTER, call, arguments, -1, offsets[n], type, op);
        boolean eager = eager(offsets[n], type, request);
        contribute(p, inPlace ? rbuf : sbuf, inPlace ? rindex : sindex, offsets[n], type, eager || inPlace);
        p.recv = rbuf;
        p.recvIndex = rindex;
        p.unalias(type, offsets[n]);
        t.run(s, me, (slot, m) -> {
            Part dst = slot.parts[m];
            Reducer.reduce(slot.parts, 0, n, offsets[m], counts[m], dst.recv, dst.recvIndex, type, op);
        }, eager, request, call);
    }

    /**
     * Scan (inclusive: member m gets the reduction of members 0..m) or exclusive scan (0..m-1; member
     * 0's receive buffer is left unchanged). In place: the contribution is in the receive buffer.
     */
    public static void scan(Team t, int me, Object sbuf, int sindex, Object rbuf, int rindex, int units,
                            BasicType type, Reduction op, boolean exclusive, boolean inPlace,
                            CollectiveRequest request, String call, Object arguments) {
        Slot s = t.enter(me, call);
        Part p = s.parts[me];
        p.sign(exclusive ? Operation.EXSCAN : Operation.SCAN, call, arguments, -1, units, type, op);
        boolean eager = eager(units, type, request);
        contribute(p, inPlace ? rbuf : sbuf, inPlace ? rindex : sindex, units, type, eager || inPlace);
        p.recv = rbuf;
        p.recvIndex = rindex;
        p.unalias(type, units);
        t.run(s, me, (slot, m) -> {
            int to = exclusive ? m : m + 1;
            if (to > 0) {
                Part dst = slot.parts[m];
                Reducer.reduce(slot.parts, 0, to, 0, units, dst.recv, dst.recvIndex, type, op);
            }
        }, eager, request, call);
    }

    /** MPI_Reduce_local: {@code inout = in op inout}, on the calling thread alone. */
    public static void reduceLocal(Object in, int inIndex, Object inout, int inoutIndex, int units, BasicType type,
                                   Reduction op) {
        Part a = new Part();
        a.send = in;
        a.sendIndex = inIndex;
        Part b = new Part();
        b.send = inout;
        b.sendIndex = inoutIndex;
        Reducer.reduce(new Part[] {a, b}, 0, 2, 0, units, inout, inoutIndex, type, op);
    }

    /** Publishes a contribution to a reduction, copied into the slot when {@code copy}. */
    private static void contribute(Part p, Object buf, int index, int units, BasicType type, boolean copy) {
        p.send = buf;
        p.sendIndex = index;
        if (copy) {
            p.snapshot(type, units);
        }
    }

    /** The units a v-variant's blocks span from the buffer's index: the end of its furthest non-empty block. */
    static int extent(int[] counts, int[] displs) {
        int end = 0;
        for (int j = 0; j < counts.length; j++) {
            if (counts[j] > 0) {
                end = Math.max(end, displs[j] + counts[j]);
            }
        }
        return end;
    }

    static void checkFits(int sent, int room, int from, String call) {
        if (sent > room) {
            throw new KernelError(ErrorClass.ERR_TRUNCATE, call + ": rank " + from + " sends " + sent
                + " elements where only " + room + " fit");
        }
    }
}
