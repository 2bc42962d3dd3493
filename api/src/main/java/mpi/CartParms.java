package mpi;

/**
 * The shape of a Cartesian communicator and the caller's place in it: mpiJava's {@code Get()}
 * result (public fields) and Open MPI's {@code getTopo()} result (getters), one class for both.
 */
public class CartParms {
    /** The extent of each dimension. */
    public int[] dims;
    /** Whether each dimension wraps around. */
    public boolean[] periods;
    /** The caller's coordinates. */
    public int[] coords;

    CartParms(int[] dims, boolean[] periods, int[] coords) {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }

    public int getDimCount() {
        return dims.length;
    }

    public int getDim(int i) {
        return dims[i];
    }

    public boolean getPeriod(int i) {
        return periods[i];
    }

    public int getCoord(int i) {
        return coords[i];
    }
}
