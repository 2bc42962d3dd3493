package mpi;

import org.mpjlite.smpdev.Rank;

/**
 * A communicator whose ranks form a Cartesian grid (made by {@link Intracomm#createCart}), with Open
 * MPI Java's names. mpiJava programs use {@code Cartcomm}, the same thing with mpiJava's names: the
 * two APIs chose class names that differ only in case, so both exist (the build keeps their class
 * files in separate directories for case-insensitive file systems). The grid arithmetic is
 * {@link CartTopology}'s.
 *
 * <p>Thread-safe as {@link Comm}.
 */
public final class CartComm extends Intracomm {
    private final CartTopology topology;

    private CartComm(CommCreation.Result r, CartTopology topology) {
        super(r);
        this.topology = topology;
    }

    /** createCart on {@code parent}; a null communicator for the ranks beyond the grid. Collective. */
    static CartComm create(Intracomm parent, int[] dims, boolean[] periods) {
        CartTopology t = CartTopology.of("createCart", dims, periods, parent);
        CommCreation.Result r = t.communicator(parent, "createCart");
        return parent.inheriting(new CartComm(r == null ? CommCreation.NULL_COMMUNICATOR : r, t));
    }

    @Override
    int topology() {
        return MPI.CART;
    }

    /** The grid and the caller's coordinates. */
    public CartParms getTopo() {
        Rank me = localRank("getTopo");
        return raising(() -> topology.parms("getTopo", rankIn(me)));
    }

    /** The rank at {@code coords}; coordinates wrap around in periodic dimensions. */
    public int getRank(int[] coords) {
        localRank("getRank");
        try {
            return topology.rank("getRank", coords);
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** The coordinates of {@code rank}. */
    public int[] getCoords(int rank) {
        localRank("getCoords");
        try {
            return topology.coords("getCoords", rank);
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** The ranks {@code disp} steps back (source) and forward (destination) along {@code direction}. */
    public ShiftParms shift(int direction, int disp) {
        int me = rankIn(localRank("shift"));
        return raising(() -> topology.shift("shift", me, direction, disp));
    }

    /** The slice through the caller that keeps the dimensions marked true. Collective. */
    public CartComm sub(boolean[] remainDims) {
        return raising(() -> {
            CartTopology kept = topology.sub("sub", remainDims);
            return inheriting(new CartComm(topology.subCommunicator(this, "sub", rankIn(rank("sub")), remainDims),
                kept));
        });
    }

    /** The caller's rank in the grid {@code dims}, {@code periods}, or {@code MPI.UNDEFINED} if beyond it. */
    public int map(int[] dims, boolean[] periods) {
        return raising(() -> CartTopology.of("map", dims, periods, this).map(rankIn(localRank("map"))));
    }

    /** MPI_Dims_create: fills the zero entries of {@code dims}, non-increasing (see {@link CartTopology}). */
    public static void createDims(int nnodes, int[] dims) {
        CartTopology.dimsCreate("createDims", nnodes, dims);
    }

    /** A duplicate with the same grid. Collective. */
    @Override
    public CartComm dup() {
        return raising(() -> withAttributesOf(rank("dup"), new CartComm(CommCreation.duplicate(this, "dup"),
            topology)));
    }

    /** A duplicate with the same grid. Collective. */
    @Override
    public CartComm Dup() {
        return raising(() -> withAttributesOf(rank("Dup"), new CartComm(CommCreation.duplicate(this, "Dup"),
            topology)));
    }

    /** A duplicate whose hints are those of {@code info} (MPI_Comm_dup_with_info). Collective. */
    @Override
    public CartComm dupWithInfo(Info info) {
        return (CartComm) super.dupWithInfo(info);
    }

    /** A duplicate with the same grid. Collective. */
    @Override
    public CartComm clone() {
        return raising(() -> withAttributesOf(rank("clone"), new CartComm(CommCreation.duplicate(this, "clone"),
            topology)));
    }

    // ---- neighbourhood collectives ----------------------------------------------------------

    @Override
    NeighborCollectives.Neighbors neighbors(String call, Rank me) {
        return topology.neighbors(call, rankIn(me));
    }

    /** MPI_Comm_idup (see {@link Comm#iDup}): a duplicate with the same topology, at once. */
    @Override
    public CartComm iDup() {
        try {
            Rank me = rank("iDup");
            return withAttributesOf(me, new CartComm(ContextAgreement.duplicate(this, me, "iDup"), topology));
        } catch (MPIException e) {
            throw raise(e);
        }
    }
}
