package org.mpjlite.rma;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import mpi.MPI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.MatchingKind;

/**
 * The job shapes of the one-sided suite, 1, 2, 3, 4 and 7 ranks (7 ranks on a small machine park
 * instead of spinning; windows do not depend on the matching structure, so one is enough), and the
 * rank and size of the world inside a rank.
 */
final class Sizes {
    private Sizes() {
    }

    /** The calling rank in {@code MPI.COMM_WORLD}. */
    static int rank() {
        return MPI.COMM_WORLD.getRank();
    }

    /** The number of ranks of {@code MPI.COMM_WORLD}. */
    static int size() {
        return MPI.COMM_WORLD.getSize();
    }

    static Stream<World> all() {
        return IntStream.of(1, 2, 3, 4, 7).mapToObj(n -> new World(n, MatchingKind.LOCK_FREE,
            Tunables.DEFAULT_EAGER_THRESHOLD));
    }

    /** 1, 2, 3, 4 and 7 ranks. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.rma.Sizes#all")
    @interface AllSizes {
    }
}
