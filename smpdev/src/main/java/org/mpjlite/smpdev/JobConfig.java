package org.mpjlite.smpdev;

import java.time.Duration;
import java.util.Objects;
import mpjbuf.PoolStrategy;
import mpjbuf.StorageKind;
import org.mpjlite.smpdev.wait.WaitMode;

/**
 * How a job runs: rank count, matching structure, eager threshold, buffer pool, wait mode.
 * Defaults and the fixed thresholds are in {@link Tunables}. Immutable; build with {@link #builder()}.
 */
public final class JobConfig {
    private final int ranks;
    private final MatchingKind matching;
    private final int eagerThreshold;
    private final PoolStrategy poolStrategy;
    private final StorageKind storageKind;
    private final WaitMode waitMode;
    private final Duration shutdownGrace;
    private final boolean deadlockDetection;
    private final Duration timeout;
    private final boolean check;
    private final long stackSize;
    private final ThreadKind threads;
    /** The kind set on the builder, or null: {@link #toBuilder} keeps the default a default. */
    private final ThreadKind threadsAsked;
    private final java.util.function.Consumer<String> warnings;
    private final java.nio.file.Path trace;
    private final int traceLimit;
    private final boolean stats;

    private JobConfig(Builder b) {
        this.ranks = b.ranks;
        this.matching = b.matching;
        this.eagerThreshold = b.eagerThreshold;
        this.poolStrategy = b.poolStrategy;
        this.storageKind = b.storageKind;
        this.waitMode = b.waitMode;
        this.shutdownGrace = b.shutdownGrace;
        this.deadlockDetection = b.deadlockDetection;
        this.timeout = b.timeout;
        this.check = b.check;
        this.stackSize = b.stackSize;
        this.threadsAsked = b.threads;
        this.threads = b.threads != null ? b.threads : ThreadKind.defaultFor(b.ranks, b.stackSize);
        this.warnings = b.warnings;
        this.trace = b.trace;
        this.traceLimit = b.traceLimit;
        this.stats = b.stats;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder().ranks(ranks).matching(matching).eagerThreshold(eagerThreshold)
            .pool(poolStrategy, storageKind).waitMode(waitMode).shutdownGrace(shutdownGrace)
            .deadlockDetection(deadlockDetection).timeout(timeout).check(check)
            .stackSize(stackSize).warnings(warnings).trace(trace).traceLimit(traceLimit).stats(stats);
        if (threadsAsked != null) {
            b.threads(threadsAsked);
        }
        return b;
    }

    public int ranks() {
        return ranks;
    }

    public MatchingKind matching() {
        return matching;
    }

    public int eagerThreshold() {
        return eagerThreshold;
    }

    public PoolStrategy poolStrategy() {
        return poolStrategy;
    }

    public StorageKind storageKind() {
        return storageKind;
    }

    public WaitMode waitMode() {
        return waitMode;
    }

    /** How long a failing job waits for the other ranks to stop before giving up on them. */
    public Duration shutdownGrace() {
        return shutdownGrace;
    }

    /** Whether a job that {@link Job#run runs} its ranks stops with a report when they deadlock. */
    public boolean deadlockDetection() {
        return deadlockDetection;
    }

    /** How long a job may run before it is stopped with a report of every rank; null: no limit. */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Whether the costly misuse checks are on ({@code mpjrun --check}): the user's line of every
     * non-blocking call and send is recorded for reports, send buffers of non-blocking sends are
     * checksummed to find writes while the send is pending, requests never completed are listed at
     * Finalize, and Finalize with operations still pending is an error instead of a warning.
     */
    public boolean check() {
        return check;
    }

    /**
     * The stack size of each rank's main thread, in bytes ({@link Tunables#DEFAULT_STACK_SIZE} unless set);
     * 0: the JVM's default for new threads ({@code -Xss}). As for any thread, the JVM may round it
     * or, on some platforms, ignore it.
     */
    public long stackSize() {
        return stackSize;
    }

    /**
     * The kind of thread each rank's main runs on: as set, else {@link ThreadKind#defaultFor} the
     * job's ranks and stack size.
     */
    public ThreadKind threads() {
        return threads;
    }

    /** Where warnings about a misused job go (one message per call); standard error by default. */
    public java.util.function.Consumer<String> warnings() {
        return warnings;
    }

    /**
     * Where the job's timeline goes when it ends ({@code mpjrun --trace}), as Chrome Trace Event JSON
     * (see {@link org.mpjlite.smpdev.diag.TraceFile}); null: no trace, and no cost.
     */
    public java.nio.file.Path trace() {
        return trace;
    }

    /** Events a trace keeps per rank, the most recent ones ({@code --trace-limit}). */
    public int traceLimit() {
        return traceLimit;
    }

    /** Whether ranks count their time in MPI and the messages they send ({@code mpjrun --stats}). */
    public boolean stats() {
        return stats;
    }

    /** Whether ranks record what they do: a trace or statistics is asked for. */
    public boolean recording() {
        return trace != null || stats;
    }

    @Override
    public String toString() {
        return "JobConfig{ranks=" + ranks + ", matching=" + matching + ", eagerThreshold=" + eagerThreshold
            + ", pool=" + poolStrategy + "/" + storageKind + ", wait=" + waitMode + ", threads=" + threads + '}';
    }

    /** Builder; every setting has a default ({@code ranks}: 1). */
    public static final class Builder {
        private int ranks = 1;
        private MatchingKind matching = MatchingKind.LOCK_FREE;
        private int eagerThreshold = Tunables.DEFAULT_EAGER_THRESHOLD;
        private PoolStrategy poolStrategy = PoolStrategy.BUDDY1;
        private StorageKind storageKind = StorageKind.HEAP;
        private WaitMode waitMode = WaitMode.AUTO;
        private Duration shutdownGrace = Tunables.DEFAULT_SHUTDOWN_GRACE;
        private boolean deadlockDetection = true;
        private Duration timeout;
        private boolean check;
        private long stackSize = Tunables.DEFAULT_STACK_SIZE;
        /** Null: {@link ThreadKind#defaultFor} the ranks and stack size, decided when the config is built. */
        private ThreadKind threads;
        private java.util.function.Consumer<String> warnings = w -> System.err.println("mpjrun: warning: " + w);
        private java.nio.file.Path trace;
        private int traceLimit = org.mpjlite.smpdev.diag.Tracer.DEFAULT_LIMIT;
        private boolean stats;

        private Builder() {
        }

        public Builder ranks(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("rank count must be at least 1, was " + n);
            }
            this.ranks = n;
            return this;
        }

        public Builder matching(MatchingKind kind) {
            this.matching = Objects.requireNonNull(kind);
            return this;
        }

        /** Messages of at most this many bytes are copied eagerly; 0 makes every send rendezvous. */
        public Builder eagerThreshold(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("eager threshold must be >= 0, was " + bytes);
            }
            this.eagerThreshold = bytes;
            return this;
        }

        public Builder pool(PoolStrategy strategy, StorageKind storage) {
            this.poolStrategy = Objects.requireNonNull(strategy);
            this.storageKind = Objects.requireNonNull(storage);
            return this;
        }

        public Builder waitMode(WaitMode mode) {
            this.waitMode = Objects.requireNonNull(mode);
            return this;
        }

        public Builder shutdownGrace(Duration grace) {
            this.shutdownGrace = Objects.requireNonNull(grace);
            return this;
        }

        public Builder deadlockDetection(boolean on) {
            this.deadlockDetection = on;
            return this;
        }

        /** A time limit for the whole job; null or zero for none. */
        public Builder timeout(Duration limit) {
            this.timeout = limit == null || limit.isZero() ? null : limit;
            return this;
        }

        /** Turns the costly misuse checks on (see {@link JobConfig#check()}); off by default. */
        public Builder check(boolean on) {
            this.check = on;
            return this;
        }

        /** The stack of each rank's main thread, in bytes; 0 for the JVM's default (see {@link JobConfig#stackSize()}). */
        public Builder stackSize(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("stack size must be >= 0, was " + bytes);
            }
            this.stackSize = bytes;
            return this;
        }

        /**
         * The kind of thread each rank runs on.
         *
         * @throws IllegalArgumentException for {@link ThreadKind#VIRTUAL} on a JDK before 21
         */
        public Builder threads(ThreadKind kind) {
            if (!kind.available()) {
                throw new IllegalArgumentException("virtual threads need JDK 21 or later; this is JDK "
                    + Runtime.version() + " (use platform threads)");
            }
            this.threads = kind;
            return this;
        }

        /** Where warnings go: each is one message, without a prefix. */
        public Builder warnings(java.util.function.Consumer<String> sink) {
            this.warnings = Objects.requireNonNull(sink);
            return this;
        }

        /** Writes a timeline of the job to {@code file} when it ends (see {@link JobConfig#trace()}); null: none. */
        public Builder trace(java.nio.file.Path file) {
            this.trace = file;
            return this;
        }

        /** Events a trace keeps per rank, the most recent; at least 1. */
        public Builder traceLimit(int events) {
            if (events < 1) {
                throw new IllegalArgumentException("trace limit must be at least 1 event, was " + events);
            }
            this.traceLimit = events;
            return this;
        }

        /** Counts time in MPI and messages per rank (see {@link JobConfig#stats()}). */
        public Builder stats(boolean on) {
            this.stats = on;
            return this;
        }

        public JobConfig build() {
            return new JobConfig(this);
        }
    }
}
