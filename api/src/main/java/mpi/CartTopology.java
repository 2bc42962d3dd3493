package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Cartesian grid: its extents and periodicity, and the arithmetic between a rank and its
 * coordinates (row-major, the last dimension varying fastest, as MPI numbers them). The two
 * dialects' communicators ({@code Cartcomm}, {@link CartComm}) delegate to it, each passing the name
 * of the call for error messages; {@link #dimsCreate} is MPI_Dims_create.
 *
 * <p>Ranks keep their place: rank {@code r} of the parent is rank {@code r} of the grid. All ranks
 * share one memory, so reordering them would gain nothing, and the {@code reorder} argument of the
 * creation calls is accepted and ignored, as MPI permits.
 *
 * <p>Immutable; thread-safe.
 */
final class CartTopology {
    private final int[] dims;
    private final boolean[] periods;
    /** The number of ranks in the grid: the product of {@link #dims}. */
    private final int size;

    private CartTopology(int[] dims, boolean[] periods, int size) {
        this.dims = dims;
        this.periods = periods;
        this.size = size;
    }

    /**
     * The grid {@code dims} x {@code periods} for {@code call} (Create_cart, Map...) on {@code comm}:
     * every extent at least 1, one period per dimension, and no more ranks than the communicator has.
     */
    static CartTopology of(String call, int[] dims, boolean[] periods, Comm comm) {
        int commSize = comm.size(comm.localRank(call));
        if (dims == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": dims is null");
        }
        if (periods == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": periods is null");
        }
        if (periods.length != dims.length) {
            throw new MPIException(MPI.ERR_ARG, call + ": periods has " + periods.length + " entries, dims "
                + dims.length + " (one per dimension)");
        }
        long product = 1;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] <= 0) {
                throw new MPIException(MPI.ERR_DIMS, call + ": dims[" + i + "] is " + dims[i]
                    + " (every dimension needs at least 1 rank)");
            }
            product = Math.min(product * dims[i], (long) Integer.MAX_VALUE + 1);
        }
        if (product > commSize) {
            throw new MPIException(MPI.ERR_ARG, call + ": the grid " + shape(dims) + " has "
                + (product > Integer.MAX_VALUE ? "more than " + Integer.MAX_VALUE : product)
                + " ranks, more than the communicator's " + commSize);
        }
        return new CartTopology(dims.clone(), periods.clone(), (int) product);
    }

    /** The number of dimensions. */
    int ndims() {
        return dims.length;
    }

    /**
     * Create_cart on {@code parent}: the new communicator of its ranks 0..size-1, each keeping its rank;
     * null for the ranks beyond the grid. Collective over {@code parent}.
     */
    CommCreation.Result communicator(Intracomm parent, String call) {
        int rank = parent.rankIn(parent.rank(call));
        return CommCreation.split(parent, call, rank < size ? 0 : MPI.UNDEFINED, rank, "." + call + "(" + this + ")");
    }

    /** Cart_map: the rank the caller, rank {@code rank} of the communicator, would have in the grid. */
    int map(int rank) {
        return rank < size ? rank : MPI.UNDEFINED;
    }

    /**
     * The rank at {@code coords}. A coordinate outside a periodic dimension wraps around; outside a
     * non-periodic one it is an error.
     */
    int rank(String call, int[] coords) {
        if (coords == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": coords is null");
        }
        if (coords.length != dims.length) {
            throw new MPIException(MPI.ERR_ARG, call + ": coords has " + coords.length + " entries, the grid "
                + dims.length + " dimensions (" + this + ")");
        }
        int rank = 0;
        for (int i = 0; i < dims.length; i++) {
            int c = coords[i];
            if (c < 0 || c >= dims[i]) {
                if (!periods[i]) {
                    throw new MPIException(MPI.ERR_ARG, call + ": coords[" + i + "] is " + c + ", outside 0.."
                        + (dims[i] - 1) + " of dimension " + i + ", which is not periodic (" + this + ")");
                }
                c = Math.floorMod(c, dims[i]);
            }
            rank = rank * dims[i] + c;
        }
        return rank;
    }

    /** The coordinates of {@code rank}. */
    int[] coords(String call, int rank) {
        if (rank < 0 || rank >= size) {
            throw new MPIException(MPI.ERR_RANK, call + ": rank " + rank + " is not in the grid (" + this
                + ": valid 0.." + (size - 1) + ")");
        }
        int[] coords = new int[dims.length];
        for (int i = dims.length - 1; i >= 0; i--) {
            coords[i] = rank % dims[i];
            rank /= dims[i];
        }
        return coords;
    }

    /**
     * Cart_shift from {@code rank}: the ranks {@code disp} steps back and forward along
     * {@code direction}; {@code MPI.PROC_NULL} for a step off the edge of a non-periodic dimension.
     */
    ShiftParms shift(String call, int rank, int direction, int disp) {
        if (direction < 0 || direction >= dims.length) {
            throw new MPIException(MPI.ERR_ARG, call + ": direction " + direction + " is not a dimension of the grid ("
                + this + (dims.length == 0 ? ", which has none)" : ": valid 0.." + (dims.length - 1) + ")"));
        }
        int[] coords = coords(call, rank);
        int here = coords[direction];
        coords[direction] = step(direction, here - (long) disp);
        int source = coords[direction] == MPI.PROC_NULL ? MPI.PROC_NULL : rank(call, coords);
        coords[direction] = step(direction, here + (long) disp);
        int dest = coords[direction] == MPI.PROC_NULL ? MPI.PROC_NULL : rank(call, coords);
        return new ShiftParms(source, dest);
    }

    /**
     * The neighbourhood of {@code rank} for neighbourhood collectives (MPI-3.1 §7.6): for each
     * dimension, the rank one step back, then one step forward ({@code PROC_NULL} off the edge of a
     * non-periodic dimension). The tags pair a send to the rank behind with that rank's receive from
     * the rank ahead, and the other way round, so that in a periodic dimension of one or two ranks,
     * where both neighbours are the same rank, each block still lands in its own place.
     */
    NeighborCollectives.Neighbors neighbors(String call, int rank) {
        int n = 2 * dims.length;
        int[] ranks = new int[n];
        int[] recvTags = new int[n];
        int[] sendTags = new int[n];
        for (int d = 0; d < dims.length; d++) {
            ShiftParms s = shift(call, rank, d, 1);
            ranks[2 * d] = s.rank_source;
            ranks[2 * d + 1] = s.rank_dest;
            recvTags[2 * d] = 2 * d;
            recvTags[2 * d + 1] = 2 * d + 1;
            sendTags[2 * d] = 2 * d + 1;
            sendTags[2 * d + 1] = 2 * d;
        }
        return new NeighborCollectives.Neighbors(ranks, recvTags, ranks, sendTags);
    }

    /** Coordinate {@code c} of {@code direction} brought into the grid, or PROC_NULL if it is off it. */
    private int step(int direction, long c) {
        if (periods[direction]) {
            return (int) Math.floorMod(c, (long) dims[direction]);
        }
        return c >= 0 && c < dims[direction] ? (int) c : MPI.PROC_NULL;
    }

    /** Cart_sub: the grid of the dimensions {@code remain} keeps. */
    CartTopology sub(String call, boolean[] remain) {
        checkRemain(call, remain);
        int kept = 0;
        for (int i = 0; i < dims.length; i++) {
            kept += remain[i] ? 1 : 0;
        }
        int[] d = new int[kept];
        boolean[] p = new boolean[kept];
        int product = 1;
        for (int i = 0, j = 0; i < dims.length; i++) {
            if (remain[i]) {
                d[j] = dims[i];
                p[j++] = periods[i];
                product *= dims[i];
            }
        }
        return new CartTopology(d, p, product);
    }

    /**
     * Cart_sub on {@code cart}, whose caller is rank {@code rank} of this grid: one communicator per
     * slice, the ranks with the same coordinates in the dropped dimensions, ordered row-major in the
     * kept ones. Collective over {@code cart}.
     */
    CommCreation.Result subCommunicator(Comm cart, String call, int rank, boolean[] remain) {
        checkRemain(call, remain);
        int[] coords = coords(call, rank);
        int slice = 0;
        int place = 0;
        List<Integer> dropped = new ArrayList<>();
        for (int i = 0; i < dims.length; i++) {
            if (remain[i]) {
                place = place * dims[i] + coords[i];
            } else {
                slice = slice * dims[i] + coords[i];
                dropped.add(coords[i]);
            }
        }
        return CommCreation.split(cart, call, slice, place, "." + call + "(" + Arrays.toString(remain)
            + ": slice at " + dropped + ")");
    }

    /**
     * {@code remain} has an entry per dimension. Open MPI's {@code sub} passes the array to C, which
     * reads the first ndims entries only, so there a longer array is accepted and its extra entries
     * ignored (Open MPI's own tests pass a fixed-size array); mpiJava's {@code Sub} wants exactly one
     * entry per dimension.
     */
    private void checkRemain(String call, boolean[] remain) {
        if (remain == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": remain_dims is null");
        }
        if (remain.length < dims.length || remain.length > dims.length && !Reinterpreted.openMpi(call)) {
            throw new MPIException(MPI.ERR_ARG, call + ": remain_dims has " + remain.length + " entries, the grid "
                + dims.length + " dimensions (" + this + ")");
        }
    }

    /** Cart_get: the grid and the coordinates of {@code rank}. */
    CartParms parms(String call, int rank) {
        return new CartParms(dims.clone(), periods.clone(), coords(call, rank));
    }

    /** "4x3, periods [true, false]": the grid in reports and messages. */
    @Override
    public String toString() {
        return shape(dims) + ", periods " + Arrays.toString(periods);
    }

    private static String shape(int[] dims) {
        if (dims.length == 0) {
            return "0-dimensional grid";
        }
        StringBuilder s = new StringBuilder();
        for (int d : dims) {
            s.append(s.length() == 0 ? "" : "x").append(d);
        }
        return s.toString();
    }

    // ---- Dims_create --------------------------------------------------------------------------

    /**
     * MPI_Dims_create: fills the zero entries of {@code dims} so that the product of all entries is
     * {@code nnodes}, with the filled-in extents as close to each other as possible (the smallest
     * difference between the largest and the smallest of them; among equals, the one with the smallest
     * extents first) and in non-increasing order. Positive entries are kept as they are.
     */
    static void dimsCreate(String call, int nnodes, int[] dims) {
        if (dims == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": dims is null");
        }
        if (nnodes < 1) {
            throw new MPIException(MPI.ERR_DIMS, call + ": nnodes is " + nnodes + " (a grid needs at least 1 node)");
        }
        long fixed = 1;
        int free = 0;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw new MPIException(MPI.ERR_DIMS, call + ": dims[" + i + "] is " + dims[i]
                    + " (an entry is 0, to be chosen, or the extent wanted, >= 1)");
            }
            if (dims[i] == 0) {
                free++;
            } else {
                fixed = Math.min(fixed * dims[i], (long) nnodes + 1);
            }
        }
        if (nnodes % fixed != 0 || free == 0 && fixed != nnodes) {
            throw new MPIException(MPI.ERR_DIMS, call + ": no grid of " + nnodes + " nodes has the extents given in "
                + Arrays.toString(dims) + (free == 0 ? " (their product must be " + nnodes + ")"
                : " (their product must divide " + nnodes + ")"));
        }
        if (free == 0) {
            return;
        }
        int[] chosen = closestFactors((int) (nnodes / fixed), free);
        for (int i = 0, j = 0; i < dims.length; i++) {
            if (dims[i] == 0) {
                dims[i] = chosen[j++];
            }
        }
    }

    /**
     * The {@code k} factors of {@code n}, non-increasing, closest to each other (see {@link #dimsCreate}).
     * An int has at most 30 prime factors, so beyond 31 factors the rest are all 1, whatever the
     * choice: the search is over at most 31.
     */
    private static int[] closestFactors(int n, int k) {
        FactorSearch search = new FactorSearch(n, Math.min(k, 31));
        search.choose(0, n, n);
        int[] factors = Arrays.copyOf(search.best, k);
        Arrays.fill(factors, search.best.length, k, 1);
        return factors;
    }

    /**
     * Depth-first search over the non-increasing factorizations of {@code n} into {@code k} factors,
     * over the divisors of {@code n} only, each level trying its factors from the smallest possible up
     * (a factor below the {@code k}-th root of what remains could not be the largest of the rest).
     * The smallest of the factors still to choose is at most that root, so a branch whose first
     * factor exceeds the root by the best spread found or more cannot do better. Tuples come in
     * lexicographic order and only a strictly smaller spread replaces the best: among equals, the
     * first (the smallest extents first) wins.
     */
    private static final class FactorSearch {
        private final int[] divisors;
        private final int[] current;
        private int[] best;
        private long bestSpread = Long.MAX_VALUE;

        FactorSearch(int n, int k) {
            this.divisors = divisors(n);
            this.current = new int[k];
        }

        /** Chooses factor {@code depth} of {@code rest}, at most {@code max}. */
        void choose(int depth, int rest, int max) {
            int slots = current.length - depth;
            if (slots == 1) {
                if (rest <= max) {
                    current[depth] = rest;
                    long spread = (long) current[0] - rest;
                    if (spread < bestSpread) {
                        bestSpread = spread;
                        best = current.clone();
                    }
                }
                return;
            }
            int low = smallestRoot(rest, slots);
            for (int d : divisors) {
                long first = depth == 0 ? d : current[0];
                if (d > max || d > rest || first - low >= bestSpread) {
                    return;
                }
                if (d >= low && rest % d == 0) {
                    current[depth] = d;
                    choose(depth + 1, rest / d, d);
                }
            }
        }

        /** The divisors of {@code n}, ascending. */
        private static int[] divisors(int n) {
            List<Integer> small = new ArrayList<>();
            List<Integer> large = new ArrayList<>();
            for (int d = 1; (long) d * d <= n; d++) {
                if (n % d == 0) {
                    small.add(d);
                    if (d != n / d) {
                        large.add(n / d);
                    }
                }
            }
            int[] all = new int[small.size() + large.size()];
            int i = 0;
            for (int d : small) {
                all[i++] = d;
            }
            for (int j = large.size() - 1; j >= 0; j--) {
                all[i++] = large.get(j);
            }
            return all;
        }

        /** The smallest {@code d} with {@code d^k >= n}. */
        private static int smallestRoot(int n, int k) {
            int d = Math.max(1, (int) Math.floor(Math.pow(n, 1.0 / k)) - 1);
            while (!powerReaches(d, k, n)) {
                d++;
            }
            return d;
        }

        private static boolean powerReaches(long d, int k, long n) {
            long p = 1;
            for (int i = 0; i < k && p < n; i++) {
                p *= d;
            }
            return p >= n;
        }
    }
}
