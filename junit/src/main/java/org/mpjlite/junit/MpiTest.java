package org.mpjlite.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mpjlite.smpdev.MatchingKind;

/**
 * Runs a test method as an MPI program, in-process, once per rank count: every rank is a thread
 * of the test's JVM and runs the method body with MPI initialized.
 *
 * <pre>{@code
 * @MpiTest(ranks = {1, 2, 3, 4})
 * void sumOfRanks(MpiContext mpi) {
 *     int[] sum = new int[1];
 *     MPI.COMM_WORLD.Allreduce(new int[] {mpi.rank()}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
 *     assertEquals(mpi.size() * (mpi.size() - 1) / 2, sum[0]);
 * }
 * }</pre>
 *
 * <p>Each rank count is a test of its own, named "1 rank", "4 ranks" (and the matching structure,
 * when {@link #matching} names several). For each, the extension starts a job of that many ranks
 * ({@link org.mpjlite.MpjLite#options()}); on every rank it calls {@code MPI.Init} (or
 * {@code MPI.Init_thread} with {@link #threadLevel}), the method, then {@code MPI.Finalize}. The
 * body uses {@code MPI.COMM_WORLD} in either dialect and must not call Init or Finalize itself.
 *
 * <p>Parameters: an {@code int} parameter receives the rank; an {@link MpiContext} parameter the
 * rank, the size, and {@link MpiContext#gather}/{@link MpiContext#allGather} to collect a value
 * from every rank and assert on the list. Other parameters are resolved by JUnit as usual (the
 * same object for every rank).
 *
 * <p>Outcome: the test passes when every rank returns. When a rank throws, the test fails with an
 * {@link AssertionError} whose message starts with {@code "rank N failed: "} and whose cause is
 * what the rank threw (an assumption failing on a rank aborts the test instead). A deadlock fails
 * it at once with the deadlock report of every rank; a job that runs past {@link #timeout} is
 * stopped and fails with the report of where every rank stood.
 *
 * <p>Shared state: the ranks run the same test instance and the same classes, so instance and
 * static fields are shared by all ranks of an invocation; keep per-rank state in local variables.
 * A new test instance is made per rank count (JUnit's default per-method lifecycle).
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(MpiTestExtension.class)
public @interface MpiTest {
    /** Value of {@link #threadLevel} that initializes with plain {@code MPI.Init}. */
    int PLAIN_INIT = -1;

    /** The rank counts to run the method with, each at least 1; one test per count. */
    int[] ranks() default {1, 2, 3, 4};

    /**
     * The job's time limit: a number and a unit, {@code ms}, {@code s}, {@code m} or {@code h}
     * ({@code "500ms"}, {@code "10 s"}; a bare number is seconds); {@code "0"} means no limit (a
     * deadlock still ends the job). Past it, the job is stopped and the test fails with the report
     * of every rank. Keep it below any JUnit timeout of the test (the default 30 s is below the
     * usual 60 s default), so that the report, not JUnit's interruption, ends a hung test.
     */
    String timeout() default "30s";

    /**
     * The matching structures to run with: one test per rank count and structure; empty (the
     * default) runs with the default structure only.
     */
    MatchingKind[] matching() default {};

    /**
     * The thread level to ask {@code MPI.Init_thread} for ({@code MPI.THREAD_MULTIPLE} ...), or
     * {@link #PLAIN_INIT} (the default) for {@code MPI.Init}.
     */
    int threadLevel() default PLAIN_INIT;

    /** Turns on the costly misuse checks, as {@code mpjrun --check}. */
    boolean check() default false;
}
