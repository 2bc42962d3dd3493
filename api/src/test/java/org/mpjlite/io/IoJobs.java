package org.mpjlite.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.MatchingKind;

/**
 * The job shapes of the I/O suite (1, 2, 3, 4 and 7 ranks: I/O does not depend on the matching
 * structure, so one is enough) and helpers that look at files with plain java.nio.
 */
final class IoJobs {
    private IoJobs() {
    }

    static Stream<World> ranks() {
        return IntStream.of(1, 2, 3, 4, 7).mapToObj(n -> new World(n, MatchingKind.LOCK_FREE,
            Tunables.DEFAULT_EAGER_THRESHOLD));
    }

    static Stream<World> multiRanks() {
        return ranks().filter(w -> w.size() > 1);
    }

    /** 1, 2, 3, 4 and 7 ranks. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.io.IoJobs#ranks")
    @interface IoRanks {
    }

    /** 2, 3, 4 and 7 ranks. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.io.IoJobs#multiRanks")
    @interface IoMultiRanks {
    }

    static byte[] bytesOf(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file's content as ints in native byte order (what "native" files hold). */
    static int[] intsOf(Path file) {
        ByteBuffer b = ByteBuffer.wrap(bytesOf(file)).order(ByteOrder.nativeOrder());
        int[] ints = new int[b.remaining() / Integer.BYTES];
        b.asIntBuffer().get(ints);
        return ints;
    }

    static void writeInts(Path file, int[] ints) {
        ByteBuffer b = ByteBuffer.allocate(ints.length * Integer.BYTES).order(ByteOrder.nativeOrder());
        b.asIntBuffer().put(ints);
        try {
            Files.write(file, b.array());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The value rank {@code rank} stores at index {@code i} of its data: unique across ranks. */
    static int value(int rank, int i) {
        return rank * 1_000 + i + 1;
    }

    static int[] values(int rank, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = value(rank, i);
        }
        return a;
    }
}
