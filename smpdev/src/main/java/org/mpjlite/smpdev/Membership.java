package org.mpjlite.smpdev;

import java.util.Arrays;

/**
 * The members of one communicator (or of one group of an intercommunicator) in communicator rank
 * order, with their world ranks: made once per communicator and shared by everything that needs
 * them, the API layer's communicator, the collective team of its members ({@code Team}) and the
 * job's context table that reports read ({@link Job#describeContext}).
 *
 * <p>Immutable; thread-safe. The instances handed out by {@link #of(Job, int, Rank[])} and
 * {@link #self} are published through the job's shared table.
 */
public final class Membership {
    private final Rank[] ranks;
    private final int[] worldRanks;

    /** Takes {@code ranks} as they are: the caller never changes them. */
    Membership(Rank[] ranks) {
        this.ranks = ranks;
        this.worldRanks = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            worldRanks[i] = ranks[i].id();
        }
    }

    private record Key(int context) {
    }

    private record SelfKey(int rank) {
    }

    /** The members of a null communicator: none. */
    public static final Membership NONE = new Membership(new Rank[0]);

    /**
     * The membership of the communicator (or group) that receives on matching context
     * {@code context}: made by the first caller from {@code ranks}, in rank order, and shared with
     * every later caller (all pass the same ranks).
     */
    public static Membership of(Job job, int context, Rank[] ranks) {
        return job.shared(new Key(context), k -> new Membership(ranks.clone()));
    }

    /**
     * One holder's release of the membership {@link #of} made for {@code context}, which
     * {@code holders} ranks looked up (a freed communicator's members; for an intercommunicator,
     * both groups'): the last release drops it from the job.
     */
    public static void release(Job job, int context, int holders) {
        job.release(new Key(context), holders);
    }

    /** The membership of {@code me}'s self communicator: {@code me} alone. */
    public static Membership self(Rank me) {
        return me.job().shared(new SelfKey(me.id()), k -> new Membership(new Rank[] {me}));
    }

    /**
     * The members of both groups of an intercommunicator, {@code first}'s then {@code second}'s (its
     * collective team's members). A new instance: callers share it through the team they make of it.
     */
    public static Membership union(Membership first, Membership second) {
        Rank[] both = Arrays.copyOf(first.ranks, first.ranks.length + second.ranks.length);
        System.arraycopy(second.ranks, 0, both, first.ranks.length, second.ranks.length);
        return new Membership(both);
    }

    public int size() {
        return ranks.length;
    }

    /** The member of communicator rank {@code index}. */
    public Rank rank(int index) {
        return ranks[index];
    }

    /** The world rank of the member of communicator rank {@code index}. */
    public int worldRank(int index) {
        return worldRanks[index];
    }

    /** The communicator rank of {@code r}, or -1 if it is not a member. */
    public int indexOf(Rank r) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == r) {
                return i;
            }
        }
        return -1;
    }

    /** The members in rank order (a copy). */
    public Rank[] ranks() {
        return ranks.clone();
    }

    /** The members' world ranks in rank order (a copy). */
    public int[] worldRanks() {
        return worldRanks.clone();
    }

    /** {@code [0, 2, 5]}: the members' world ranks. */
    @Override
    public String toString() {
        return Arrays.toString(worldRanks);
    }
}
