package mpi;

import org.mpjlite.smpdev.Membership;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.collective.Team;

/**
 * An intercommunicator: two disjoint groups, each rank talking to the other group. {@code Size},
 * {@code Rank} and {@code Group} are of the caller's (local) group; the ranks point-to-point calls
 * name are of the remote group, and a receive's status gives the sender's rank in the remote group.
 * Made by {@link Comm#Create_intercomm} / {@link Comm#createIntercomm}; {@link #Merge} makes an
 * intracommunicator of both groups.
 *
 * <p>Collectives (MPI-3.1 §5.2.2) move data from one group to the other: a rooted one takes
 * {@code MPI.ROOT} at the root, {@code MPI.PROC_NULL} at the other ranks of the root's group and the
 * root's rank in the remote group at every rank of the other group; Allgather, Alltoall and
 * Allreduce bring each group the remote group's data. Scan and Exscan, which MPI does not define on
 * intercommunicators, are methods of {@link Intracomm} only. {@code MPI_IN_PLACE} is an
 * {@code MPI.ERR_ARG} error ({@code MPI.ERR_BUFFER} for the reductions), as in Open MPI. Both
 * dialects' collectives are those of {@link Comm}.
 *
 * <p>Thread-safe as MPI requires at {@code THREAD_MULTIPLE}.
 */
public final class Intercomm extends Comm {
    /** The collective team of both groups, made on first use. */
    private volatile Team collectiveTeam;

    Intercomm(Membership local, int index, Membership remote, int context, int sendContext, String name) {
        super(local, index, remote, context, sendContext, name);
    }

    /**
     * The intercommunicator to the ranks that spawned the calling rank (MPI_Comm_get_parent), the
     * same on every call; for a rank that was not spawned, a null communicator ({@code isNull()}
     * true), Open MPI's {@code MPI_COMM_NULL}. See {@link Intracomm#spawn}.
     */
    public static Intercomm getParent() {
        return DynamicProcesses.parent("getParent");
    }

    /** True when this side's group comes first in the collective team: its leader has the lower world rank. */
    private boolean localFirst(Rank me) {
        return members(me).worldRank(0) < remoteMembers().worldRank(0);
    }

    /**
     * The team of both groups that runs this intercommunicator's collectives, the group whose leader
     * has the lower world rank first (both sides agree on that), known by that group's context.
     * Distinct from {@link #team}, the local group's, which creation, Dup and Merge use.
     */
    Team collectiveTeam(Rank me) {
        Team t = collectiveTeam;
        if (t == null) {
            t = localFirst(me) ? Team.inter(me.job(), context, members(me), remoteMembers())
                : Team.inter(me.job(), sendContext, remoteMembers(), members(me));
            collectiveTeam = t;
        }
        return t;
    }

    /**
     * Releases the local group's team and, with the other group's members, the team of both
     * groups and the two groups' memberships, which the ranks of both groups looked up.
     */
    @Override
    void releaseShared(Rank me) {
        Membership local = members(me);
        int both = local.size() + remoteMembers().size();
        Team.release(me.job(), context + 1, local);
        Team.releaseInter(me.job(), localFirst(me) ? context : sendContext, both);
        Membership.release(me.job(), context, both);
        Membership.release(me.job(), sendContext, both);
    }

    /** {@code me}'s index in {@link #collectiveTeam}. */
    int collectiveMember(Rank me) {
        return localFirst(me) ? rankIn(me) : remoteMembers().size() + rankIn(me);
    }

    /** The size of the remote group. */
    public int Remote_size() {
        localRank("Remote_size");
        return remoteMembers().size();
    }

    public int getRemoteSize() {
        localRank("getRemoteSize");
        return remoteMembers().size();
    }

    /** The remote group (the caller is not in it: its {@code Rank()} is {@code MPI.UNDEFINED}). */
    public Group Remote_group() {
        return new Group(remoteMembers().ranks(), localRank("Remote_group"));
    }

    public Group getRemoteGroup() {
        return new Group(remoteMembers().ranks(), localRank("getRemoteGroup"));
    }

    /**
     * An intracommunicator of both groups: first the group whose ranks passed {@code high} false, then
     * the other; if both passed the same value, first the group whose rank 0 has the lower rank in
     * {@code MPI.COMM_WORLD}. Every rank of a group passes the same value. Collective.
     */
    public Intracomm Merge(boolean high) {
        return raising(() -> IntercommCreation.merge("Merge", this, high));
    }

    public Intracomm merge(boolean high) {
        return raising(() -> IntercommCreation.merge("merge", this, high));
    }

    /** A new intercommunicator of the same groups with contexts of its own and the program's attributes. Collective. */
    public Intercomm Dup() {
        return raising(() -> IntercommCreation.dup("Dup", this));
    }

    @Override
    public Intercomm dup() {
        return raising(() -> IntercommCreation.dup("dup", this));
    }

    /** A duplicate whose hints are those of {@code info} (MPI_Comm_dup_with_info). Collective. */
    @Override
    public Intercomm dupWithInfo(Info info) {
        return (Intercomm) super.dupWithInfo(info);
    }

    /** mpiJava's and Open MPI's {@code clone}: a duplicate ({@link #Dup}). Collective. */
    @Override
    public Intercomm clone() {
        return raising(() -> IntercommCreation.dup("clone", this));
    }

    /**
     * MPI_Comm_idup (see {@link Comm#iDup}): a duplicate of the same groups with this one's
     * attributes, at once; each group's receive context is agreed by the ranks of both groups.
     */
    @Override
    public Intercomm iDup() {
        String call = "iDup";
        try {
            Rank me = rank(call);
            Membership local = members(me);
            Membership remote = remoteMembers();
            int seq = sequence(me, call);
            int parties = local.size() + remote.size();
            int mine = ContextAgreement.context(me, java.util.List.of(context, call, seq), parties);
            int theirs = ContextAgreement.context(me, java.util.List.of(sendContext, call, seq), parties);
            return withAttributesOf(me, IntercommCreation.made(me, local, rankIn(me), remote, mine, theirs,
                label(me) + "." + call + "()"));
        } catch (MPIException e) {
            throw raise(e);
        }
    }
}
