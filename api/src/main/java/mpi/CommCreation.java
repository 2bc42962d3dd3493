package mpi;

import java.util.Arrays;
import java.util.Comparator;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Membership;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.collective.Collectives;
import org.mpjlite.smpdev.data.BasicType;

/**
 * How the members of a parent communicator agree on a new one (Split, Create, Dup): one allgather
 * on the parent's collective context carries each member's color and key, and the parent's rank 0
 * reserves the contexts beforehand and sends their number in the same allgather. So creating a
 * communicator is one collective, ordered with the parent's other collectives as MPI requires,
 * with no shared registry to clean up.
 *
 * <p>Contexts: rank 0 reserves two per parent member; the group of a color takes the pair at the
 * parent rank of its first member, so groups of different colors never share a context, and a
 * context is never reused within a job.
 *
 * <p>Stateless; thread-safe (each call works on its own arrays).
 */
final class CommCreation {
    private CommCreation() {
    }

    /** The new communicator's members, its context and the caller's place in it. */
    record Result(Membership members, int index, int context, String name) {
    }

    /** What Open MPI's creation calls give a rank that is not a member: the null communicator. */
    static final Result NULL_COMMUNICATOR = new Result(Membership.NONE, 0, -1, "MPI_COMM_NULL");

    /** MPI_Comm_dup on {@code parent}: the same members in the same order, a context of its own. Collective. */
    static Result duplicate(Comm parent, String call) {
        Rank me = parent.rank(call);
        return split(parent, call, 0, parent.rankIn(me), "." + call + "()");
    }

    /**
     * MPI_Comm_split on {@code parent}: members of {@code color} ordered by {@code key}, ties by
     * parent rank. Returns null for a rank that passed {@code MPI.UNDEFINED}. Collective over the
     * parent; {@code name} describes the new communicator in reports (a suffix to the parent's).
     */
    static Result split(Comm parent, String call, int color, int key, String name) {
        if (color < 0 && color != MPI.UNDEFINED) {
            throw new MPIException(MPI.ERR_ARG, call + ": color " + color
                + " is negative (it must be >= 0, or MPI.UNDEFINED to get no communicator)");
        }
        Rank me = parent.rank(call);
        int size = parent.size(me);
        int rank = parent.rankIn(me);
        Job job = me.job();
        int[] mine = {color, key, rank == 0 ? job.allocateContexts(2 * size) : 0};
        int[] all = new int[3 * size];
        Collectives.allgather(parent.team(me), rank, mine, 0, all, 0, 3, BasicType.INT, false, null, call,
            "color=" + color + ", key=" + key);
        if (color == MPI.UNDEFINED) {
            return null;
        }
        Integer[] chosen = new Integer[size];
        int n = 0;
        for (int j = 0; j < size; j++) {
            if (all[3 * j] == color) {
                chosen[n++] = j;
            }
        }
        Integer[] order = Arrays.copyOf(chosen, n);
        Arrays.sort(order, Comparator.<Integer>comparingInt(j -> all[3 * j + 1]).thenComparingInt(j -> j));
        Rank[] members = new Rank[n];
        int index = -1;
        for (int i = 0; i < n; i++) {
            members[i] = parent.peer(me, order[i]);
            if (order[i] == rank) {
                index = i;
            }
        }
        int context = all[2] + 2 * chosen[0];
        String full = parent.label(me) + name;
        Membership membership = Membership.of(job, context, members);
        if (index == 0) {
            describe(job, context, full, membership);
        }
        return new Result(membership, index, context, full);
    }

    /** Tells reports about the two contexts of a new intracommunicator of {@code members}. */
    static void describe(Job job, int context, String name, Membership members) {
        job.describeContext(context, name, members);
        job.describeContext(context + 1, name + " (collectives)", members);
    }
}
