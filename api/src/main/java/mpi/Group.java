package mpi;

import org.mpjlite.smpdev.Rank;

/**
 * An ordered set of ranks of one job, as seen by one rank (the owner, for {@code Rank()}). Groups
 * are local objects: making one never communicates.
 *
 * <p>Immutable; thread-safe.
 */
public class Group {
    /** The members, in group rank order. */
    final Rank[] members;
    /** The rank that made this group, for {@link #Rank}; null for predefined groups. */
    private final Rank owner;

    Group(Rank[] members, Rank owner) {
        this.members = members;
        this.owner = owner;
    }

    public int Size() {
        return members.length;
    }

    public final int getSize() {
        return members.length;
    }

    /** The owner's rank in the group, or {@code MPI.UNDEFINED} if it is not a member. */
    public int Rank() {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == owner) {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    public final int getRank() {
        return Rank();
    }
}
