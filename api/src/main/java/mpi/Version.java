package mpi;

/**
 * The version of the MPI standard implemented (Open MPI's {@code MPI.getVersion()}, MPI_Get_version):
 * MPJ Lite reports MPI 3.1, as Open MPI 5 does, the standard its Java API follows.
 *
 * <p>Immutable.
 */
public final class Version {
    private final int version;
    private final int subVersion;

    public Version(int version, int subVersion) {
        this.version = version;
        this.subVersion = subVersion;
    }

    public int getVersion() {
        return version;
    }

    public int getSubVersion() {
        return subVersion;
    }

    @Override
    public String toString() {
        return version + "." + subVersion;
    }
}
