package org.mpjlite.smpdev.collective;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.StringJoiner;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.Copier;
import org.mpjlite.smpdev.diag.CallSite;
import org.mpjlite.smpdev.error.ErrorClass;

/**
 * What one member publishes for one collective: where the others read its contribution, where its
 * results go, its per-member counts, and, for a non-blocking call, its request. Counts, indexes and
 * displacements are in storage units of the basic type.
 *
 * <p>Written by its member before it arrives at the slot (the arrival's atomic increment publishes
 * it), read by any member after it has seen every arrival; its references to user buffers are
 * dropped when nobody reads them any more (by the member as it leaves a blocking collective, by
 * the finisher of a non-blocking one). A part keeps its snapshot array across uses so that small
 * collectives do not allocate.
 *
 * <p>A part also says which call it is (operation, root, type signature, reduction operation): the
 * members compare those before any data moves ({@link #mismatch}), so that collectives that do not
 * match fail on every member instead of running mismatched kernels.
 */
final class Part {
    /**
     * The root of a member of an intercommunicator's rooted collective that is in the root's group
     * but is not the root (MPI.PROC_NULL): it passes no data and does not know which member the root is.
     */
    static final int ROOT_GROUP = -2;

    // ---- the call, compared across members ---------------------------------------------------
    Operation operation;
    boolean blocking;
    /**
     * Set by a member of a small Bcast that leaves it before every member has arrived: it has
     * returned from the call, so it never takes its {@link #site}, and nobody waits for it.
     */
    boolean early;
    /** The root's member index, -1 for collectives without one, or {@link #ROOT_GROUP}. */
    int root;
    /**
     * Storage units of one contribution, or -1 where members may differ (the v-variants). On an
     * intercommunicator, of the data the first group sends to the second.
     */
    long units;
    /** The basic type of the data, or null where members may differ (Alltoallw); on an intercommunicator as {@link #units}. */
    BasicType type;
    /**
     * On an intercommunicator, the units and type of the data the second group sends to the first
     * (Allgather, Alltoall: each way its own); else 0 and null.
     */
    long units2;
    BasicType type2;
    /** The reduction operation, or null. */
    Reduction op;

    // ---- the call, for reports only ----------------------------------------------------------
    String call;
    /** The call's count and datatype as the user gave them: its toString() lists them. */
    Object arguments;
    /**
     * The user's line: taken by a blocking member when a mismatch is found, or at the call of a
     * non-blocking one under {@code --check}; null until then.
     */
    volatile StackTraceElement site;

    /** The contribution others read (a user buffer or the snapshot), or null (none, or in place at a root). */
    Object send;
    int sendIndex;
    /** Units sent, where members may differ (Gatherv, Allgatherv). */
    int sendUnits;
    int[] sendCounts;
    int[] sendDispls;
    BasicType[] sendTypes;

    /** Where this member's results go. */
    Object recv;
    int recvIndex;
    /** Units this member can receive, where members may differ (Scatterv). */
    int recvUnits;
    int[] recvCounts;
    int[] recvDispls;
    BasicType[] recvTypes;

    /** The request of a non-blocking call; null when blocking. */
    CollectiveRequest request;

    private Object snapshot;
    private int snapshotUnits;

    /**
     * Records which call this member is in, for {@link #mismatch}. A part lives as long as its team,
     * so it is an old object to the collector, and with G1 a reference stored into an old object
     * that points into another region passes a write barrier with a fence: references are stored
     * only when they change (the same call, type and operation, call after call).
     */
    void sign(Operation operation, String call, Object arguments, int root, long units, BasicType type,
              Reduction op) {
        if (this.operation != operation) {
            this.operation = operation;
        }
        if (this.call != call) {
            this.call = call;
        }
        if (this.arguments != arguments) {
            this.arguments = arguments;
        }
        this.root = root;
        this.units = units;
        if (this.type != type) {
            this.type = type;
        }
        if (this.op != op) {
            this.op = op;
        }
        this.units2 = 0;
        if (this.type2 != null) {
            this.type2 = null;
        }
        if (early) {
            early = false;
        }
    }

    /** Records the units and type of the data an intercommunicator's second group sends to its first. */
    void signReverse(long units, BasicType type) {
        this.units2 = units;
        this.type2 = type;
    }

    /**
     * 0 when {@code other} is the same collective as this one, else the MPI error class of the first
     * difference: another operation (or blocking against non-blocking), root (the team tells whether
     * the roots agree: {@code rootsAgree}), type, count, reduction operation. A member with no data
     * ({@link #ROOT_GROUP}) is compared by operation and root only. A few compares: it runs on every
     * member for every collective.
     */
    int mismatch(Part other, boolean rootsAgree) {
        if (operation != other.operation || blocking != other.blocking) {
            return ErrorClass.ERR_NOT_SAME;
        } else if (!rootsAgree) {
            return ErrorClass.ERR_ROOT;
        } else if (root == ROOT_GROUP || other.root == ROOT_GROUP) {
            return 0;
        } else if (type != other.type || type2 != other.type2) {
            return ErrorClass.ERR_TYPE;
        } else if (units != other.units || units2 != other.units2) {
            return ErrorClass.ERR_COUNT;
        } else if (op != null && op.builtin() != other.op.builtin()) {
            return ErrorClass.ERR_OP;
        }
        return 0;
    }

    /**
     * {@code Bcast(root=0, count=4, MPI.INT) at Main.java:12}: the call as the user wrote it; the root
     * shown only when {@code withRoot} (on an intercommunicator the user's root is in the arguments).
     */
    String describe(boolean withRoot) {
        return call + "(" + arguments(withRoot) + ")" + CallSite.at(site);
    }

    /**
     * {@code root=0, count=4, MPI.INT}: the call's arguments, as {@link #describe} shows them. Each
     * field is read once: a report may read the part of a member that is leaving its wait.
     */
    String arguments(boolean withRoot) {
        StringJoiner args = new StringJoiner(", ");
        int r = root;
        if (withRoot && r >= 0) {
            args.add("root=" + r);
        }
        Object a = arguments;
        String given = a == null ? "" : a.toString();
        if (!given.isEmpty()) {
            args.add(given);
        }
        Reduction o = op;
        if (o != null) {
            args.add(o.builtin() != null ? "MPI." + o.builtin() : "a user operation");
        }
        return args.toString();
    }

    /**
     * Replaces the contribution by a private copy of its first {@code units}: the member may then
     * leave (or overwrite its buffer, in place) while others still read it.
     */
    void snapshot(BasicType type, int units) {
        if (snapshot == null || snapshot.getClass() != type.arrayClass() || snapshotUnits < units) {
            snapshotUnits = Math.max(units, 16);
            snapshot = type.newArray(snapshotUnits);
        }
        Copier.copy(send, sendIndex, snapshot, 0, units, type);
        send = snapshot;
        sendIndex = 0;
    }

    /**
     * Snapshots the contribution ({@code units} of {@code type} from {@link #sendIndex}) when it
     * shares storage with {@link #recv}: the same array, or heap NIO buffers over the same array.
     * mpiJava programs pass one array as both (Java Grande's MolDyn: {@code Allreduce(a, 0, a, 0,
     * ...)}), which MPJ Express allows because it packs the send buffer first; read in place, the
     * contribution would be overwritten by the member's results while others still read it.
     * Direct buffers are compared by identity only (Java has no portable way to compare their
     * addresses). Call once both are published, before arriving.
     */
    void unalias(BasicType type, int units) {
        if (send != null && recv != null && storage(send) == storage(recv)) {
            snapshot(type, units);
        }
    }

    /**
     * {@link #unalias} of the blocks of an Alltoallv or Alltoallw ({@link #sendCounts} at
     * {@link #sendDispls}, of {@link #sendTypes}, or all of {@code type} when those are null). An
     * array holds elements of one type, so any non-empty block's type gives the units of all; a
     * ByteBuffer may hold blocks of different types, each indexed in its own units, so it is copied
     * whole, byte for byte.
     */
    void unaliasBlocks(BasicType type) {
        if (send == null || recv == null || storage(send) != storage(recv)) {
            return;
        }
        if (sendTypes != null && send instanceof ByteBuffer b) {
            ByteBuffer copy = ByteBuffer.allocate(b.capacity()).order(b.order());
            copy.put(0, b, 0, b.capacity());
            send = copy;
            return;
        }
        BasicType t = type;
        for (int j = 0; sendTypes != null && j < sendCounts.length; j++) {
            if (sendCounts[j] > 0) {
                t = sendTypes[j];
                break;
            }
        }
        if (t != null) {
            snapshot(t, Collectives.extent(sendCounts, sendDispls));
        }
    }

    /** The array behind a buffer (an array, or a heap NIO buffer's); any other buffer itself. */
    private static Object storage(Object buf) {
        return buf instanceof Buffer b && b.hasArray() ? b.array() : buf;
    }

    /**
     * Forgets the previous collective: drops the references to user buffers (an idle slot must not
     * keep them alive), keeping the snapshot array for reuse and the call's description (the API's
     * immutable arguments, the same object call after call), which {@link #sign} replaces.
     */
    void clear() {
        send = null;
        sendCounts = null;
        sendDispls = null;
        sendTypes = null;
        recv = null;
        recvCounts = null;
        recvDispls = null;
        recvTypes = null;
        request = null;
        if (site != null) {
            site = null; // rare (a mismatch, or --check): no volatile write on the common path
        }
    }
}
