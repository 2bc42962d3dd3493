package mpi;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Membership;
import org.mpjlite.smpdev.Rank;

/**
 * Contexts of communicators made without a collective over their parent ({@code iDup},
 * {@code createGroup}): the first member to arrive reserves the contexts and the others take the
 * same ones, found under a key every member computes alike (the parent's context, the kind of call,
 * its arguments, and how many such calls the member made before on that parent: MPI has the members
 * make them in the same order). No member waits for another, so {@code iDup} returns at once as a
 * non-blocking call must, and {@code createGroup} involves the group's members only. An entry is
 * dropped once every member has taken it; the entries of a job that fails first stay until the JVM
 * ends (a few bytes each).
 *
 * <p>Thread-safe: a concurrent map, each entry's count under the entry's lock.
 */
final class ContextAgreement {
    private record Key(Job job, Object what) {
    }

    private static final class Entry {
        final int context;
        /** Members that have not taken the context yet; guarded by this. */
        int left;

        Entry(int context, int parties) {
            this.context = context;
            this.left = parties;
        }
    }

    private static final ConcurrentHashMap<Key, Entry> PENDING = new ConcurrentHashMap<>();

    private ContextAgreement() {
    }

    /**
     * The first of the two contexts (point-to-point, then collectives) of the communicator that
     * {@code parties} members make under {@code what}; {@code me} is one of them.
     */
    static int context(Rank me, Object what, int parties) {
        Key key = new Key(me.job(), what);
        Entry e = PENDING.computeIfAbsent(key, k -> new Entry(me.job().allocateContexts(2), parties));
        synchronized (e) {
            if (--e.left == 0) {
                PENDING.remove(key, e);
            }
        }
        return e.context;
    }

    /**
     * The members, place and contexts of the duplicate that {@code me}'s next {@code iDup} of the
     * intracommunicator {@code parent} makes.
     */
    static CommCreation.Result duplicate(Comm parent, Rank me, String call) {
        int seq = parent.sequence(me, call);
        Membership all = parent.members(me);
        int context = context(me, List.of(parent.context, call, seq), all.size());
        int index = parent.rankIn(me);
        String name = parent.label(me) + "." + call + "()";
        if (index == 0) {
            CommCreation.describe(me.job(), context, name, all);
        }
        return new CommCreation.Result(all, index, context, name);
    }

    /**
     * MPI_Comm_create_group on {@code parent}: the communicator of {@code group}'s ranks in its
     * order, made by them alone; null for a caller not in the group. {@code tag} (0..TAG_UB) tells
     * apart calls the same ranks make at the same time.
     */
    static CommCreation.Result group(Intracomm parent, String call, Group group, int tag) {
        if (group == null) {
            throw new MPIException(MPI.ERR_GROUP, call + ": group is null");
        }
        Check.sendTag(call, tag);
        Rank me = parent.rank(call);
        BitSet members = new BitSet();
        for (int w : parent.members(me).worldRanks()) {
            members.set(w);
        }
        Rank[] chosen = group.members.clone();
        int index = -1;
        for (int i = 0; i < chosen.length; i++) {
            if (!members.get(chosen[i].id())) {
                throw new MPIException(MPI.ERR_GROUP, call + ": rank " + i + " of the group (world rank "
                    + chosen[i].id() + ") is not a member of " + parent);
            }
            if (chosen[i] == me) {
                index = i;
            }
        }
        if (index < 0) {
            return null;
        }
        int[] world = new int[chosen.length];
        for (int i = 0; i < chosen.length; i++) {
            world[i] = chosen[i].id();
        }
        List<Object> what = List.of(parent.context, call, tag, Arrays.toString(world));
        int context = context(me, List.of(what, parent.sequence(me, what)), chosen.length);
        Membership membership = Membership.of(me.job(), context, chosen);
        String name = parent.label(me) + "." + call + "(tag=" + tag + ")";
        if (index == 0) {
            CommCreation.describe(me.job(), context, name, membership);
        }
        return new CommCreation.Result(membership, index, context, name);
    }
}
