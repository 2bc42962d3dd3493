package mpi;

import org.mpjlite.smpdev.Rank;

/**
 * A communicator whose ranks form a Cartesian grid (made by {@link Intracomm#Create_cart}), with
 * mpiJava 1.2's names. Open MPI programs use {@link CartComm}, the same thing with Open MPI's names:
 * the two APIs chose class names that differ only in case, so this class lives in a source
 * directory of its own and compiles to a class directory of its own, so that no directory holds
 * both on a case-insensitive file system. The grid arithmetic is {@link CartTopology}'s.
 *
 * <p>Thread-safe as {@link Comm}.
 */
public class Cartcomm extends Intracomm {
    private final CartTopology topology;

    Cartcomm(CommCreation.Result r, CartTopology topology) {
        super(r);
        this.topology = topology;
    }

    /** Create_cart on {@code parent}; null for the ranks beyond the grid. Collective. */
    static Cartcomm create(Intracomm parent, int[] dims, boolean[] periods) {
        CartTopology t = CartTopology.of("Create_cart", dims, periods, parent);
        CommCreation.Result r = t.communicator(parent, "Create_cart");
        return r == null ? null : parent.inheriting(new Cartcomm(r, t));
    }

    @Override
    int topology() {
        return MPI.CART;
    }

    /** The grid and the caller's coordinates. */
    public CartParms Get() {
        Rank me = localRank("Get");
        return raising(() -> topology.parms("Get", rankIn(me)));
    }

    /** The rank at {@code coords}; coordinates wrap around in periodic dimensions. */
    public int Rank(int[] coords) {
        localRank("Rank");
        try {
            return topology.rank("Rank", coords);
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /** The coordinates of {@code rank}. */
    public int[] Coords(int rank) {
        localRank("Coords");
        try {
            return topology.coords("Coords", rank);
        } catch (MPIException e) {
            throw raise(e);
        }
    }

    /**
     * The ranks {@code disp} steps back ({@code rank_source}) and forward ({@code rank_dest}) along
     * {@code direction}; {@code MPI.PROC_NULL} off the edge of a non-periodic dimension.
     */
    public ShiftParms Shift(int direction, int disp) {
        int me = rankIn(localRank("Shift"));
        return raising(() -> topology.shift("Shift", me, direction, disp));
    }

    /** The slice through the caller that keeps the dimensions marked true. Collective. */
    public Cartcomm Sub(boolean[] remainDims) {
        return raising(() -> {
            CartTopology kept = topology.sub("Sub", remainDims);
            return inheriting(new Cartcomm(topology.subCommunicator(this, "Sub", rankIn(rank("Sub")), remainDims),
                kept));
        });
    }

    /** The caller's rank in the grid {@code dims}, {@code periods}, or {@code MPI.UNDEFINED} if beyond it. */
    public int Map(int[] dims, boolean[] periods) {
        return raising(() -> CartTopology.of("Map", dims, periods, this).map(rankIn(localRank("Map"))));
    }

    /**
     * MPI_Dims_create: fills the zero entries of {@code dims} so that their product with the others is
     * {@code nnodes}, as close to each other as possible and in non-increasing order (see
     * {@link CartTopology}).
     */
    public static void Dims_create(int nnodes, int[] dims) {
        CartTopology.dimsCreate("Dims_create", nnodes, dims);
    }

    /** A duplicate with the same grid. Collective. */
    @Override
    public Cartcomm Dup() {
        return raising(() -> withAttributesOf(rank("Dup"), new Cartcomm(CommCreation.duplicate(this, "Dup"),
            topology)));
    }

    /** A duplicate with the same grid. Collective. */
    @Override
    public Cartcomm dup() {
        return raising(() -> withAttributesOf(rank("dup"), new Cartcomm(CommCreation.duplicate(this, "dup"),
            topology)));
    }

    /** A duplicate with the same grid. Collective. */
    @Override
    public Cartcomm clone() {
        return raising(() -> withAttributesOf(rank("clone"), new Cartcomm(CommCreation.duplicate(this, "clone"),
            topology)));
    }

    // ---- neighbourhood collectives ----------------------------------------------------------

    @Override
    NeighborCollectives.Neighbors neighbors(String call, Rank me) {
        return topology.neighbors(call, rankIn(me));
    }

    /** MPI_Comm_idup (see {@link Comm#iDup}): a duplicate with the same topology, at once. */
    @Override
    public Cartcomm iDup() {
        try {
            Rank me = rank("iDup");
            return withAttributesOf(me, new Cartcomm(ContextAgreement.duplicate(this, me, "iDup"), topology));
        } catch (MPIException e) {
            throw raise(e);
        }
    }
}
