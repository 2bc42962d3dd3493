package mpi;

import java.util.Arrays;
import java.util.BitSet;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Membership;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.collective.Collectives;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.p2p.PointToPoint;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.mpjlite.smpdev.p2p.SendMode;
import org.mpjlite.smpdev.p2p.SendRequest;

/**
 * How the two groups of an intercommunicator agree on it: its creation (MPI_Intercomm_create),
 * duplication and merging into an intracommunicator. In each, the two leaders exchange what their
 * group knows with point-to-point messages, then each leader broadcasts the other group's answer
 * within its own group.
 *
 * <p>Contexts: each group's leader reserves two contexts for its group. Its group receives
 * point-to-point traffic on the first, and the other group sends there; the second carries the
 * leaders' messages to that group (on a later Dup or Merge) and the group's own collectives (the
 * broadcasts here). So each side's receive context names the remote group's ranks as sources, as
 * reports need ({@link Job#describeContext}).
 *
 * <p>Stateless; thread-safe (each call works on its own arrays).
 */
final class IntercommCreation {
    /** The tag of the leaders' messages on an intercommunicator's second contexts. */
    private static final int LEADERS_TAG = 0;
    /** Ints in the header a leader broadcasts on creation: error class, remote size, two contexts. */
    private static final int HEADER = 4;

    private IntercommCreation() {
    }

    /**
     * MPI_Intercomm_create: {@code peer} is the communicator the leaders talk through (used at the
     * local leader only), {@code remoteLeader} the other leader's rank in it. Collective over
     * {@code local}.
     */
    static Intercomm create(String call, Comm peer, Comm local, int localLeader, int remoteLeader, int tag) {
        if (local == null) {
            throw new MPIException(MPI.ERR_COMM, call + ": localComm is null");
        }
        Rank me = local.rank(call);
        if (local.remoteMembers() != null) {
            throw new MPIException(MPI.ERR_COMM, call + ": localComm " + local
                + " is an intercommunicator (it must be an intracommunicator)");
        }
        Membership mine = local.members(me);
        if (localLeader < 0 || localLeader >= mine.size()) {
            throw new MPIException(MPI.ERR_RANK, call + ": localLeader " + localLeader + " is not a rank of localComm "
                + local + " (size " + mine.size() + ", valid 0.." + (mine.size() - 1) + ")");
        }
        int rank = local.rankIn(me);
        int[] header = new int[HEADER];
        int[] remoteWorld = null;
        MPIException failure = null;
        if (rank == localLeader) {
            try {
                remoteWorld = leaderExchange(call, me, peer, mine, remoteLeader, tag, header);
            } catch (MPIException e) {
                failure = e;
                header[0] = e.getErrorClass();
            }
        }
        // The group learns the outcome even when its leader failed, so that no member waits for nothing.
        CollectiveCalls.bcast(local, call, false, header, 0, HEADER, Datatype.INT, localLeader);
        if (failure != null) {
            throw failure;
        }
        if (header[0] != 0) {
            throw new MPIException(header[0], call + ": the local leader (rank " + localLeader + " of localComm " + local
                + ") failed to connect to the remote leader; its error says why");
        }
        if (remoteWorld == null) {
            remoteWorld = new int[header[1]];
        }
        CollectiveCalls.bcast(local, call, false, remoteWorld, 0, remoteWorld.length, Datatype.INT, localLeader);
        Job job = me.job();
        Rank[] remote = new Rank[remoteWorld.length];
        for (int i = 0; i < remote.length; i++) {
            remote[i] = job.rank(remoteWorld[i]);
        }
        // Each group's membership is keyed by the context it receives on, so both sides share it.
        Membership localGroup = Membership.of(job, header[2], mine.ranks());
        Membership remoteGroup = Membership.of(job, header[3], remote);
        String name = local.label(me) + "." + call + "(remote leader " + remoteLeader + ")";
        return local.inheriting(made(me, localGroup, rank, remoteGroup, header[2], header[3], name));
    }

    /**
     * The local leader's part of creation: reserves its group's contexts and swaps its group and
     * contexts with the remote leader through {@code peer}, with the program's tag. Fills
     * {@code header} and returns the remote group's world ranks.
     */
    private static int[] leaderExchange(String call, Rank me, Comm peer, Membership mine, int remoteLeader, int tag,
                                        int[] header) {
        if (peer == null) {
            throw new MPIException(MPI.ERR_COMM, call + ": the peer communicator is null at the local leader");
        }
        peer.rank(call);
        int peers = peer.peerCount(me);
        if (remoteLeader < 0 || remoteLeader >= peers) {
            throw new MPIException(MPI.ERR_RANK, call + ": remoteLeader " + remoteLeader
                + " is not a rank of the peer communicator " + peer + " (size " + peers + ", valid 0.." + (peers - 1)
                + ")");
        }
        if (peer.target(me, remoteLeader) == me) {
            throw new MPIException(MPI.ERR_RANK, call + ": remoteLeader " + remoteLeader + " of " + peer
                + " is the local leader itself (the two groups must be disjoint)");
        }
        Job job = me.job();
        int context = job.allocateContexts(2);
        int[] out = new int[2 + mine.size()];
        out[0] = context;
        out[1] = mine.size();
        System.arraycopy(mine.worldRanks(), 0, out, 2, mine.size());
        int[] in = new int[2 + job.size()];
        Status.taking(PointToPointCalls.sendRecv(peer, call, out, 0, out.length, Datatype.INT, remoteLeader, tag, in, 0,
            in.length, Datatype.INT, remoteLeader, tag));
        int[] remoteWorld = Arrays.copyOfRange(in, 2, 2 + in[1]);
        BitSet local = new BitSet();
        for (int i = 0; i < mine.size(); i++) {
            local.set(mine.worldRank(i));
        }
        for (int w : remoteWorld) {
            if (local.get(w)) {
                throw new MPIException(MPI.ERR_COMM, call + ": world rank " + w
                    + " is in both groups (the local and remote groups must be disjoint)");
            }
        }
        header[1] = remoteWorld.length;
        header[2] = context;
        header[3] = in[0];
        return remoteWorld;
    }

    /** MPI_Comm_dup of an intercommunicator: new contexts on both sides, the program's attributes. Collective. */
    static Intercomm dup(String call, Intercomm original) {
        Rank me = original.rank(call);
        int rank = original.rankIn(me);
        int[] contexts = new int[2];
        if (rank == 0) {
            contexts[0] = me.job().allocateContexts(2);
            contexts[1] = leaders(call, me, original, new int[] {contexts[0]}, 1)[0];
        }
        Collectives.bcast(original.team(me), rank, contexts, 0, 2, BasicType.INT, 0, null, call, "");
        Intercomm copy = made(me, original.members(me), rank, original.remoteMembers(), contexts[0], contexts[1],
            original.label(me) + "." + call + "()");
        return original.withAttributesOf(me, copy);
    }

    /**
     * MPI_Intercomm_merge: an intracommunicator of both groups, the group that passed {@code high}
     * false first; when both passed the same, the group whose leader has the lower world rank first.
     * The leader of that same group reserves the contexts. Collective.
     */
    static Intracomm merge(String call, Intercomm ic, boolean high) {
        Rank me = ic.rank(call);
        Rank[] local = ic.members(me).ranks();
        Rank[] remote = ic.remoteMembers().ranks();
        int rank = ic.rankIn(me);
        boolean lowerLeader = local[0].id() < remote[0].id();
        // {local group's high, remote group's high, context}
        int[] agreed = new int[3];
        if (rank == 0) {
            int offer = lowerLeader ? me.job().allocateContexts(2) : 0;
            int[] in = leaders(call, me, ic, new int[] {high ? 1 : 0, offer}, 2);
            agreed[0] = high ? 1 : 0;
            agreed[1] = in[0];
            agreed[2] = lowerLeader ? offer : in[1];
        }
        Collectives.bcast(ic.team(me), rank, agreed, 0, 3, BasicType.INT, 0, null, call, "high=" + high);
        boolean localHigh = agreed[0] != 0;
        if (localHigh != high) {
            throw new MPIException(MPI.ERR_ARG, call + ": high is " + high + " here but " + localHigh
                + " at rank 0 of the local group (every rank of a group must pass the same value)");
        }
        boolean localFirst = localHigh != (agreed[1] != 0) ? !localHigh : lowerLeader;
        Rank[] first = localFirst ? local : remote;
        Rank[] second = localFirst ? remote : local;
        Rank[] members = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, members, first.length, second.length);
        int index = localFirst ? rank : remote.length + rank;
        String name = ic.label(me) + "." + call + "(high=" + high + ")";
        Membership membership = Membership.of(me.job(), agreed[2], members);
        if (index == 0) {
            CommCreation.describe(me.job(), agreed[2], name, membership);
        }
        return ic.inheriting(new Intracomm(membership, index, agreed[2], name));
    }

    /**
     * Swaps {@code out} with the remote leader over {@code ic}'s second contexts (the caller is its
     * local rank 0, the remote leader the remote rank 0); returns the remote leader's {@code n} ints.
     */
    private static int[] leaders(String call, Rank me, Intercomm ic, int[] out, int n) {
        int[] in = new int[n];
        RecvRequest r = PointToPoint.irecv(me, ic.context + 1, 0, LEADERS_TAG, in, 0, n,
            BasicType.INT, call);
        SendRequest s = PointToPoint.isend(me, ic.remoteMembers().rank(0), ic.sendContext + 1, 0,
            LEADERS_TAG, out, 0, out.length, BasicType.INT, SendMode.STANDARD, call);
        s.await(call);
        r.await(call);
        if (r.failed()) {
            throw r.error();
        }
        return in;
    }

    /** The new intercommunicator of {@code me}; its local rank 0 describes its contexts to reports. */
    static Intercomm made(Rank me, Membership local, int index, Membership remote, int context,
                                  int sendContext, String name) {
        if (index == 0) {
            me.job().describeContext(context, name, remote, local);
            me.job().describeContext(context + 1, name + " (leaders and local collectives)", remote);
        }
        return new Intercomm(local, index, remote, context, sendContext, name);
    }
}
