package org.mpjlite.topo;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.Tunables;

/** The job shapes of the topology tests, and the row-major grid numbering they check against. */
final class Topologies {
    private Topologies() {
    }

    static Stream<World> worlds() {
        return Jobs.worlds(IntStream.of(1, 2, 3, 4, 6, 7, 8), Tunables.DEFAULT_EAGER_THRESHOLD);
    }

    /** 1, 2, 3, 4, 6, 7 and 8 ranks (prime, square and rectangular grids), both matching structures. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.topo.Topologies#worlds")
    @interface Sizes {
    }

    /** The coordinates of {@code rank} in {@code dims}, the last dimension varying fastest. */
    static int[] coordsOf(int rank, int[] dims) {
        int[] c = new int[dims.length];
        int stride = 1;
        for (int d : dims) {
            stride *= d;
        }
        for (int i = 0; i < dims.length; i++) {
            stride /= dims[i];
            c[i] = rank / stride;
            rank %= stride;
        }
        return c;
    }

    /** The rank at {@code coords} in {@code dims}, or -1 if they are outside the grid. */
    static int rankOf(int[] coords, int[] dims) {
        int rank = 0;
        for (int i = 0; i < dims.length; i++) {
            if (coords[i] < 0 || coords[i] >= dims[i]) {
                return -1;
            }
            rank = rank * dims[i] + coords[i];
        }
        return rank;
    }
}
