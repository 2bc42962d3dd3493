package org.mpjlite;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import mpjbuf.PoolStrategy;
import mpjbuf.StorageKind;
import org.mpjlite.run.UserProgram;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.JobResult;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.ThreadKind;
import org.mpjlite.smpdev.wait.WaitMode;

/**
 * Runs MPI ranks inside the calling JVM, for tests and teaching:
 *
 * <pre>{@code
 * List<Integer> ranks = MpjLite.run(4, () -> {
 *     MPI.Init(new String[0]);
 *     int me = MPI.COMM_WORLD.Rank();
 *     MPI.Finalize();
 *     return me;
 * });   // [0, 1, 2, 3]
 * }</pre>
 *
 * <p>A lambda runs on the rank's thread with the rank bound to it, but with the caller's classes:
 * all ranks share the lambda's captured state and the static fields of the caller's classes. To
 * give each rank its own statics, as {@code mpjrun} does, run a main class with
 * {@link Options#runMain}.
 *
 * <p>Thread safety: every method may be called from any thread; each call runs its own job.
 */
public final class MpjLite {
    private MpjLite() {
    }

    /**
     * Runs {@code program} as {@code ranks} ranks and waits for them.
     *
     * @return each rank's result, in rank order
     * @throws JobFailedException if a rank threw or called Abort
     */
    public static <T> List<T> run(int ranks, RankProgram<T> program) {
        return options().ranks(ranks).run(program);
    }

    /** Settings for a job, starting from the defaults of {@code mpjrun} (one rank). */
    public static Options options() {
        return new Options();
    }

    /**
     * Job settings, set fluently, then {@link #run} or {@link #runMain}. Not thread-safe; a job
     * started from it takes a snapshot of the settings.
     */
    public static final class Options {
        private final JobConfig.Builder config = JobConfig.builder();

        private Options() {
        }

        public Options ranks(int n) {
            config.ranks(n);
            return this;
        }

        public Options matching(MatchingKind kind) {
            config.matching(kind);
            return this;
        }

        /** Largest message, in bytes, sent eagerly; 0 makes every send wait for its receiver. */
        public Options eagerThreshold(int bytes) {
            config.eagerThreshold(bytes);
            return this;
        }

        public Options pool(PoolStrategy strategy, StorageKind storage) {
            config.pool(strategy, storage);
            return this;
        }

        public Options waitMode(WaitMode mode) {
            config.waitMode(mode);
            return this;
        }

        /** How long a failed job waits for its other ranks to stop before it returns anyway. */
        public Options shutdownGrace(Duration grace) {
            config.shutdownGrace(grace);
            return this;
        }

        /** Stops the job after {@code limit} with a report of every rank (JobTimeoutException). */
        public Options timeout(Duration limit) {
            config.timeout(limit);
            return this;
        }

        /**
         * Turns the costly misuse checks on, as {@code mpjrun --check}: the user's line of every
         * non-blocking call and send in reports, send buffers changed while their non-blocking
         * send is pending, requests never completed; off by default.
         */
        public Options check(boolean on) {
            config.check(on);
            return this;
        }

        /**
         * The stack of each rank's main thread, in bytes, as {@code mpjrun --stack-size}: 8 MiB by
         * default (what a main thread typically has), 0 for the JVM's default ({@code -Xss}).
         *
         * <p>Platform ranks only: a virtual rank ({@link #threads}) runs on the stack of its carrier
         * thread, which the JVM makes with its default thread stack, so the calling JVM's
         * {@code -Xss} (1 MiB unless it was started with more) bounds how deep a virtual rank
         * recurses, whatever is set here. {@code mpjrun} starts its JVM with {@code -Xss} set to
         * {@code --stack-size}; in-process, start the JVM with {@code -Xss} as large as the stack the
         * ranks need (say {@code -Xss8m}), or run platform ranks. A rank that overflows its stack
         * fails with the {@code StackOverflowError}, and the job's report ({@link JobFailedException}'s
         * message) says how large the rank's stack was, what bounds it and what gives it more.
         */
        public Options stackSize(long bytes) {
            config.stackSize(bytes);
            return this;
        }

        /**
         * What each rank runs on, as {@code mpjrun --threads}: {@link ThreadKind#PLATFORM} or
         * {@link ThreadKind#VIRTUAL} (JDK 21 and later). Unset, {@link ThreadKind#defaultFor} the
         * job's ranks and stack size: virtual for more ranks than cores on JDK 24 and later when
         * this JVM's {@code -Xss} holds the stack size, else platform (see there for how virtual
         * ranks differ, and {@link #stackSize} for their stack).
         *
         * @throws IllegalArgumentException for virtual threads on a JDK before 21
         */
        public Options threads(ThreadKind kind) {
            config.threads(kind);
            return this;
        }

        /**
         * Writes a timeline of the job to {@code file} when it ends, also when it fails or deadlocks,
         * as {@code mpjrun --trace}: Chrome Trace Event JSON for ui.perfetto.dev or
         * {@code chrome://tracing}. Null (the default) for none.
         */
        public Options trace(java.nio.file.Path file) {
            config.trace(file);
            return this;
        }

        /** Events a trace keeps per rank, the most recent ({@code mpjrun --trace-limit}; default 1,000,000). */
        public Options traceLimit(int events) {
            config.traceLimit(events);
            return this;
        }

        /** Turns the deadlock detector off (it is on by default). */
        public Options deadlockDetection(boolean on) {
            config.deadlockDetection(on);
            return this;
        }

        /**
         * Runs {@code program} on every rank and waits for them.
         *
         * @return each rank's result, in rank order
         * @throws JobFailedException if a rank threw or called Abort
         */
        @SuppressWarnings("unchecked")
        public <T> List<T> run(RankProgram<T> program) {
            Objects.requireNonNull(program, "program");
            JobResult result = Job.run(config.build(), rank -> program.run());
            if (!result.succeeded()) {
                throw new JobFailedException(result.failure());
            }
            // Every element was returned by program.run(), hence is a T.
            return (List<T>) (List<?>) result.results();
        }

        /**
         * Runs {@code mainClass.main(args)} on every rank, as {@code mpjrun} would: the classes
         * found where {@code mainClass} was loaded from (its classes directory or jar) are loaded
         * anew for each rank, so each rank has its own static fields. Failures are reported in the
         * result, not thrown.
         *
         * @throws IllegalArgumentException if {@code mainClass} has no
         *         {@code public static void main(String[])} or cannot be loaded per rank
         */
        public JobResult runMain(Class<?> mainClass, String... args) {
            try (UserProgram program = UserProgram.forMainClass(mainClass)) {
                return Job.run(config.build(), rank -> program.runRank(rank, args));
            }
        }
    }
}
