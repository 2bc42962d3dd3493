package mpi;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import org.mpjlite.smpdev.Rank;

/**
 * An ordered set of ranks of one job, as seen by one rank (the owner, for {@code Rank()}). Groups
 * are local objects: making one never communicates. Both dialects: mpiJava's {@code Size},
 * {@code Incl}, {@code Union}... and Open MPI's {@code getSize}, {@code incl}, {@code union}...
 *
 * <p>As MPI says, the order of a new group's members comes from the first group, then the second
 * ({@code Union}); an operation whose result has no member returns {@link MPI#GROUP_EMPTY} itself.
 * A freed group ({@link #free}) is a null group: using it is an {@code MPI.ERR_GROUP} error.
 * {@code MPI.GROUP_EMPTY} is shared by every rank of every job, so freeing it does nothing.
 *
 * <p>Thread-safe: the members never change; the freed flag is volatile.
 */
public class Group implements Freeable {
    /** mpiJava's code of the empty group. The empty group itself is {@link MPI#GROUP_EMPTY}. */
    public static final int EMPTY = 0;

    private static final Group EMPTY_GROUP = new Group(new Rank[0], null);
    private static final Group NULL_GROUP = new Group(new Rank[0], null);

    static {
        NULL_GROUP.freed = true;
    }

    /** The members, in group rank order. */
    final Rank[] members;
    /** The owner's rank in the group, or {@code MPI.UNDEFINED}. */
    private final int ownerRank;
    /** The rank that made this group, passed on to the groups made from it; null for predefined groups. */
    private final Rank owner;
    private volatile boolean freed;

    Group(Rank[] members, Rank owner) {
        this.members = members;
        this.owner = owner;
        int r = MPI.UNDEFINED;
        for (int i = 0; i < members.length && owner != null; i++) {
            if (members[i] == owner) {
                r = i;
                break;
            }
        }
        this.ownerRank = r;
    }

    /** The empty group ({@code MPI.GROUP_EMPTY}), shared by every rank. For the MPI class. */
    public static Group empty() {
        return EMPTY_GROUP;
    }

    /** mpiJava's {@code MPI.GROUP_NULL}: a null group, shared by every rank. For the MPI class. */
    public static Group nullGroup() {
        return NULL_GROUP;
    }

    /** A group of {@code members} made by {@code owner}: {@code MPI.GROUP_EMPTY} when there is none. */
    private static Group of(Rank[] members, Rank owner) {
        return members.length == 0 ? EMPTY_GROUP : new Group(members, owner);
    }

    /** This group's members, for {@code call}; a freed group is an error. */
    private Rank[] live(String call) {
        if (freed) {
            throw new MPIException(MPI.ERR_GROUP, call + ": the group is a null group (MPI.GROUP_NULL, or freed)");
        }
        return members;
    }

    private static Rank[] live(String call, Group g, String name) {
        if (g == null) {
            throw new MPIException(MPI.ERR_GROUP, call + ": " + name + " is null");
        }
        return g.live(call + " (" + name + ")");
    }

    // ---- size and rank --------------------------------------------------------------------------

    public int Size() {
        return live("Size").length;
    }

    public final int getSize() {
        return live("getSize").length;
    }

    /** The owner's rank in the group, or {@code MPI.UNDEFINED} if it is not a member. */
    public int Rank() {
        live("Rank");
        return ownerRank;
    }

    public final int getRank() {
        live("getRank");
        return ownerRank;
    }

    // ---- free -----------------------------------------------------------------------------------

    /** Makes this a null group (does nothing to the shared {@code MPI.GROUP_EMPTY}). */
    @Override
    public void free() {
        if (this == EMPTY_GROUP) {
            return;
        }
        live("free");
        freed = true;
    }

    /** True for a null group: {@code MPI.GROUP_NULL} or a freed group. */
    public final boolean isNull() {
        return freed;
    }

    // ---- subsets --------------------------------------------------------------------------------

    /** The members at {@code ranks}, in that order (MPI_Group_incl); the ranks must be distinct. */
    public Group Incl(int[] ranks) {
        return include("Incl", ranks);
    }

    public final Group incl(int[] ranks) {
        return include("incl", ranks);
    }

    /** The members not at {@code ranks}, in group order (MPI_Group_excl); the ranks must be distinct. */
    public Group Excl(int[] ranks) {
        return exclude("Excl", ranks);
    }

    public final Group excl(int[] ranks) {
        return exclude("excl", ranks);
    }

    /**
     * The members at the ranks of the triplets {@code {first, last, stride}}, in order
     * (MPI_Group_range_incl): {@code first, first + stride, ...} up to {@code last}; the stride may be
     * negative but not zero, and every rank must be distinct.
     */
    public Group Range_incl(int[][] ranges) {
        return include("Range_incl", expand("Range_incl", ranges));
    }

    public final Group rangeIncl(int[][] ranges) {
        return include("rangeIncl", expand("rangeIncl", ranges));
    }

    /** The members not at the ranks of the triplets, in group order (MPI_Group_range_excl). */
    public Group Range_excl(int[][] ranges) {
        return exclude("Range_excl", expand("Range_excl", ranges));
    }

    public final Group rangeExcl(int[][] ranges) {
        return exclude("rangeExcl", expand("rangeExcl", ranges));
    }

    private Group include(String call, int[] ranks) {
        Rank[] from = live(call);
        checkDistinct(call, ranks, from.length);
        Rank[] chosen = new Rank[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            chosen[i] = from[ranks[i]];
        }
        return of(chosen, owner);
    }

    private Group exclude(String call, int[] ranks) {
        Rank[] from = live(call);
        boolean[] excluded = checkDistinct(call, ranks, from.length);
        Rank[] kept = new Rank[from.length - ranks.length];
        int n = 0;
        for (int i = 0; i < from.length; i++) {
            if (!excluded[i]) {
                kept[n++] = from[i];
            }
        }
        return of(kept, owner);
    }

    /** Checks that {@code ranks} are distinct ranks of a group of {@code size}; returns which are named. */
    private static boolean[] checkDistinct(String call, int[] ranks, int size) {
        if (ranks == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": ranks is null");
        }
        boolean[] named = new boolean[size];
        for (int i = 0; i < ranks.length; i++) {
            int r = ranks[i];
            if (r < 0 || r >= size) {
                throw new MPIException(MPI.ERR_RANK, call + ": ranks[" + i + "] = " + r + " is not a rank of the group"
                    + validRanks(size));
            }
            if (named[r]) {
                throw new MPIException(MPI.ERR_RANK, call + ": ranks[" + i + "] = " + r + " appears twice in ranks "
                    + Arrays.toString(ranks) + " (the ranks must be distinct)");
            }
            named[r] = true;
        }
        return named;
    }

    /** The ranks the triplets stand for, in order: valid and distinct. */
    private int[] expand(String call, int[][] ranges) {
        int size = live(call).length;
        if (ranges == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": ranges is null");
        }
        boolean[] named = new boolean[size];
        int[] ranks = new int[size];
        int n = 0;
        for (int i = 0; i < ranges.length; i++) {
            int[] t = ranges[i];
            if (t == null || t.length < 3) {
                throw new MPIException(MPI.ERR_ARG, call + ": ranges[" + i + "] is "
                    + (t == null ? "null" : Arrays.toString(t)) + "; each range is a triplet {first, last, stride}");
            }
            int first = t[0];
            int last = t[1];
            int stride = t[2];
            String range = "ranges[" + i + "] = {" + first + ", " + last + ", " + stride + "}";
            if (stride == 0) {
                throw new MPIException(MPI.ERR_ARG, call + ": " + range + " has stride 0");
            }
            if (stride > 0 ? first > last : first < last) {
                throw new MPIException(MPI.ERR_ARG, call + ": " + range + " never reaches " + last + " from " + first
                    + " (the stride must go from first towards last)");
            }
            for (long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
                if (r < 0 || r >= size) {
                    throw new MPIException(MPI.ERR_RANK, call + ": " + range + " gives rank " + r
                        + ", not a rank of the group" + validRanks(size));
                }
                if (named[(int) r]) {
                    throw new MPIException(MPI.ERR_RANK, call + ": " + range + " gives rank " + r
                        + " again (the ranges must give distinct ranks)");
                }
                named[(int) r] = true;
                ranks[n++] = (int) r;
            }
        }
        return Arrays.copyOf(ranks, n);
    }

    private static String validRanks(int size) {
        return size == 0 ? " (the group is empty)" : " (size " + size + ", valid 0.." + (size - 1) + ")";
    }

    // ---- set operations -------------------------------------------------------------------------

    /** The members of {@code group1}, then those of {@code group2} not in {@code group1} (MPI_Group_union). */
    public static Group Union(Group group1, Group group2) {
        return union("Union", group1, group2);
    }

    public static Group union(Group group1, Group group2) {
        return union("union", group1, group2);
    }

    /** The members of {@code group1} also in {@code group2}, in {@code group1}'s order (MPI_Group_intersection). */
    public static Group Intersection(Group group1, Group group2) {
        return select("Intersection", group1, group2, true);
    }

    public static Group intersection(Group group1, Group group2) {
        return select("intersection", group1, group2, true);
    }

    /** The members of {@code group1} not in {@code group2}, in {@code group1}'s order (MPI_Group_difference). */
    public static Group Difference(Group group1, Group group2) {
        return select("Difference", group1, group2, false);
    }

    public static Group difference(Group group1, Group group2) {
        return select("difference", group1, group2, false);
    }

    private static Group union(String call, Group group1, Group group2) {
        Rank[] a = live(call, group1, "group1");
        Rank[] b = live(call, group2, "group2");
        Map<Rank, Integer> inA = positions(a);
        Rank[] all = Arrays.copyOf(a, a.length + b.length);
        int n = a.length;
        for (Rank r : b) {
            if (!inA.containsKey(r)) {
                all[n++] = r;
            }
        }
        return of(Arrays.copyOf(all, n), ownerOf(group1, group2));
    }

    private static Group select(String call, Group group1, Group group2, boolean inBoth) {
        Rank[] a = live(call, group1, "group1");
        Map<Rank, Integer> inB = positions(live(call, group2, "group2"));
        Rank[] chosen = new Rank[a.length];
        int n = 0;
        for (Rank r : a) {
            if (inB.containsKey(r) == inBoth) {
                chosen[n++] = r;
            }
        }
        return of(Arrays.copyOf(chosen, n), ownerOf(group1, group2));
    }

    private static Rank ownerOf(Group group1, Group group2) {
        return group1.owner != null ? group1.owner : group2.owner;
    }

    /** Each member's rank in {@code members}. */
    private static Map<Rank, Integer> positions(Rank[] members) {
        Map<Rank, Integer> p = new IdentityHashMap<>(2 * members.length);
        for (int i = 0; i < members.length; i++) {
            p.put(members[i], i);
        }
        return p;
    }

    // ---- translation and comparison -------------------------------------------------------------

    /**
     * The ranks in {@code group2} of the members at {@code ranks1} of {@code group1}: {@code MPI.UNDEFINED}
     * for a member not in {@code group2}, {@code MPI.PROC_NULL} for {@code MPI.PROC_NULL}.
     */
    public static int[] Translate_ranks(Group group1, int[] ranks1, Group group2) {
        return translate("Translate_ranks", group1, ranks1, group2);
    }

    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) {
        return translate("translateRanks", group1, ranks1, group2);
    }

    private static int[] translate(String call, Group group1, int[] ranks1, Group group2) {
        Rank[] a = live(call, group1, "group1");
        Map<Rank, Integer> inB = positions(live(call, group2, "group2"));
        if (ranks1 == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": ranks1 is null");
        }
        int[] out = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            int r = ranks1[i];
            if (r == MPI.PROC_NULL) {
                out[i] = MPI.PROC_NULL;
            } else if (r < 0 || r >= a.length) {
                throw new MPIException(MPI.ERR_RANK, call + ": ranks1[" + i + "] = " + r + " is not a rank of group1"
                    + validRanks(a.length));
            } else {
                out[i] = inB.getOrDefault(a[r], MPI.UNDEFINED);
            }
        }
        return out;
    }

    /**
     * {@code MPI.IDENT} if the groups have the same members in the same order, {@code MPI.SIMILAR} if
     * the same members in another order, {@code MPI.UNEQUAL} otherwise.
     */
    public static int Compare(Group group1, Group group2) {
        return compare(live("Compare", group1, "group1"), live("Compare", group2, "group2"));
    }

    public static int compare(Group group1, Group group2) {
        return compare(live("compare", group1, "group1"), live("compare", group2, "group2"));
    }

    /** MPI_Group_compare of two member lists. */
    static int compare(Rank[] a, Rank[] b) {
        if (a.length != b.length) {
            return MPI.UNEQUAL;
        }
        if (Arrays.equals(a, b)) {
            return MPI.IDENT;
        }
        Map<Rank, Integer> inB = positions(b);
        for (Rank r : a) {
            if (!inB.containsKey(r)) {
                return MPI.UNEQUAL;
            }
        }
        return MPI.SIMILAR;
    }

    @Override
    public String toString() {
        if (this == EMPTY_GROUP) {
            return "MPI.GROUP_EMPTY";
        }
        if (freed) {
            return "MPI.GROUP_NULL";
        }
        return "Group(world ranks " + Arrays.toString(Arrays.stream(members).mapToInt(Rank::id).toArray()) + ")";
    }
}
