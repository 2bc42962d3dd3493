package org.mpjlite.collective;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;

/**
 * The job shapes of the collective suite: 1, 2, 3, 4, 7, 8 and 16 ranks (16 ranks on a 2-core
 * machine park instead of spinning, which the suite also covers). Collectives do not depend on the
 * matching structure, so one is enough.
 */
final class Worlds {
    static final int[] SIZES = {1, 2, 3, 4, 7, 8, 16};

    private Worlds() {
    }

    static Stream<World> all() {
        return IntStream.of(SIZES).mapToObj(Worlds::of);
    }

    static Stream<World> multi() {
        return all().filter(w -> w.size() > 1);
    }

    static World of(int size) {
        return new World(size, MatchingKind.LOCK_FREE, Tunables.DEFAULT_EAGER_THRESHOLD);
    }

    /** 1, 2, 3, 4, 7, 8 and 16 ranks. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.collective.Worlds#all")
    @interface AllSizes {
    }

    /** 2, 3, 4, 7, 8 and 16 ranks. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.collective.Worlds#multi")
    @interface MultiSizes {
    }
}
