package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.MpjLite;
import org.mpjlite.RankProgram;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.ThreadKind;
import org.mpjlite.smpdev.Tunables;

/**
 * The one test utility of the point-to-point suite: the job shapes tests are parameterized over
 * ({@link World}: rank count, matching structure, eager threshold), the annotations that select a
 * family of shapes, a runner that wraps each rank's body in {@code MPI.Init}/{@code MPI.Finalize},
 * and the assertion for MPI errors. Public so that other suites (collectives) reuse it.
 */
public final class Jobs {
    /** The eager threshold that makes every send a rendezvous. */
    static final int RENDEZVOUS_ONLY = 0;

    private Jobs() {
    }

    /**
     * The system property that sets what the ranks of every test job run on: {@code platform} or
     * {@code virtual} (JDK 21 and later), as {@code mpjrun --threads}; unset, the jobs get
     * {@link ThreadKind#defaultFor} their ranks. Maven passes it to the tests:
     * {@code mvn -pl api -am verify -Dmpjlite.test.threads=virtual}.
     */
    public static final String THREADS_PROPERTY = "mpjlite.test.threads";

    /** What the ranks of test jobs run on: {@link #THREADS_PROPERTY}, else null (the job's default). */
    public static ThreadKind threads() {
        String kind = System.getProperty(THREADS_PROPERTY, "");
        return kind.isBlank() ? null : ThreadKind.parse(kind);
    }

    /**
     * {@link MpjLite#options()} with the ranks on {@link #threads()}: every test job starts from it,
     * so that one property runs the whole suite on virtual ranks.
     */
    public static MpjLite.Options options() {
        ThreadKind kind = threads();
        return kind == null ? MpjLite.options() : MpjLite.options().threads(kind);
    }

    /**
     * A job shape.
     *
     * @param size number of ranks
     * @param matching the matching structure of every rank's mailbox
     * @param eagerThreshold largest message (bytes) sent eagerly
     */
    public record World(int size, MatchingKind matching, int eagerThreshold) {
        /** Runs {@code body} on every rank between {@code MPI.Init} and {@code MPI.Finalize}. */
        public <T> List<T> run(RankProgram<T> body) {
            return runRaw(() -> {
                MPI.Init(new String[0]);
                T result = body.run();
                MPI.Finalize();
                return result;
            });
        }

        /** Runs {@code program} on every rank as is: the program calls Init and Finalize itself. */
        public <T> List<T> runRaw(RankProgram<T> program) {
            return options().ranks(size).matching(matching).eagerThreshold(eagerThreshold).run(program);
        }

        /** The same shape with every send going by rendezvous. */
        World rendezvousOnly() {
            return new World(size, matching, RENDEZVOUS_ONLY);
        }

        @Override
        public String toString() {
            String s = size + (size == 1 ? " rank, " : " ranks, ") + matching;
            return eagerThreshold == Tunables.DEFAULT_EAGER_THRESHOLD ? s : s + ", eager threshold " + eagerThreshold;
        }
    }

    // ---- sources ---------------------------------------------------------------------------

    public static Stream<World> anyRanks() {
        return worlds(IntStream.of(1, 2, 3, 4, 8), Tunables.DEFAULT_EAGER_THRESHOLD);
    }

    public static Stream<World> multiRanks() {
        return worlds(IntStream.of(2, 3, 4, 8), Tunables.DEFAULT_EAGER_THRESHOLD);
    }

    public static Stream<World> multiRanksBothProtocols() {
        return Stream.concat(multiRanks(), worlds(IntStream.of(2, 3, 4, 8), RENDEZVOUS_ONLY));
    }

    public static Stream<World> pairs() {
        return worlds(IntStream.of(2), Tunables.DEFAULT_EAGER_THRESHOLD);
    }

    public static Stream<World> pairsBothProtocols() {
        return Stream.concat(pairs(), worlds(IntStream.of(2), RENDEZVOUS_ONLY));
    }

    public static Stream<World> worlds(IntStream sizes, int eagerThreshold) {
        return sizes.boxed().flatMap(n -> Stream.of(MatchingKind.values()).map(k -> new World(n, k, eagerThreshold)));
    }

    /** 1, 2, 3, 4 and 8 ranks, both matching structures. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.p2p.Jobs#anyRanks")
    public @interface AnyRanks {
    }

    /** 2, 3, 4 and 8 ranks, both matching structures. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.p2p.Jobs#multiRanks")
    public @interface MultiRanks {
    }

    /** 2, 3, 4 and 8 ranks, both matching structures, default eager threshold and rendezvous only. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.p2p.Jobs#multiRanksBothProtocols")
    public @interface MultiRanksBothProtocols {
    }

    /** 2 ranks, both matching structures. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.p2p.Jobs#pairs")
    public @interface Pairs {
    }

    /** 2 ranks, both matching structures, default eager threshold and rendezvous only. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.mpjlite.p2p.Jobs#pairsBothProtocols")
    public @interface PairsBothProtocols {
    }

    // ---- inside a rank ---------------------------------------------------------------------

    static int rank() {
        return MPI.COMM_WORLD.Rank();
    }

    static int size() {
        return MPI.COMM_WORLD.Size();
    }

    /** {@code n} bytes that differ with {@code seed}: the payload of byte-array tests. */
    static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed * 7 + 1);
        }
        return b;
    }

    /** {@code n} ints that differ with {@code seed}: the payload of int-array tests. */
    static int[] ints(int n, int seed) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = seed * 1_000_003 + i;
        }
        return a;
    }

    /** The next rank in the ring of all ranks. */
    static int right() {
        return (rank() + 1) % size();
    }

    /** The previous rank in the ring of all ranks. */
    static int left() {
        return (rank() + size() - 1) % size();
    }

    /**
     * Asserts that {@code call} throws an {@link MPIException} of {@code errorClass} whose message
     * mentions every one of {@code mentions} (case-insensitive; {@code "dest|rank"} accepts either).
     */
    public static MPIException assertMpiError(int errorClass, Executable call, String... mentions) {
        MPIException e = assertThrows(MPIException.class, call);
        assertEquals(errorClass, e.getErrorClass(), () -> "error class of: " + e.getMessage());
        assertMentions(e.getMessage(), mentions);
        return e;
    }

    /** Asserts that {@code text} mentions each of {@code mentions} as {@link #assertMpiError} does. */
    public static void assertMentions(String text, String... mentions) {
        String lower = String.valueOf(text).toLowerCase(Locale.ROOT);
        for (String m : mentions) {
            boolean found = Stream.of(m.split("\\|")).anyMatch(alt -> lower.contains(alt.toLowerCase(Locale.ROOT)));
            assertTrue(found, () -> "message should mention '" + m + "': " + text);
        }
    }
}
