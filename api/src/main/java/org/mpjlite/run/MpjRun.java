package org.mpjlite.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Properties;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.JobResult;

/**
 * {@code mpjrun}: runs an MPI program as N ranks, each a thread of this JVM with its own copy of
 * the program's classes. See {@link LaunchOptions#USAGE} for the command line.
 *
 * <p>The exit code is 0 when every rank returns from {@code main}, the failure's exit code
 * otherwise (1 for an exception, the code given to {@code Abort}), 2 for usage and compile
 * errors, reported before any rank starts, and 128 plus the signal's number for a job stopped by
 * {@code SIGTERM}, {@code SIGINT} or {@code SIGHUP} ({@link StopSignal}).
 *
 * <p>{@code System.exit} in the program ends one rank, as it ends one process under mpirun: status 0
 * as if that rank's {@code main} returned, while the others go on; any other status ends the job
 * with that status (see {@link RankExit}).
 */
public final class MpjRun {
    private MpjRun() {
    }

    public static void main(String[] args) {
        // Rank threads are daemons: exiting here ends ranks that ignored the job's end, too.
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Does everything {@code mpjrun} does but exit: parses {@code args}, compiles or loads the
     * program, runs the job and reports a failure.
     *
     * @param out where help and version go (the program's own output goes to {@code System.out})
     * @param err where usage errors, compile errors and the failure report go
     * @return the exit code
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        LaunchOptions options;
        try {
            options = LaunchOptions.parse(args);
        } catch (UsageException e) {
            err.println("mpjrun: " + e.getMessage());
            err.println("Try 'mpjrun --help' for more information.");
            return UsageException.EXIT_CODE;
        }
        switch (options.action()) {
            case HELP:
                out.print(LaunchOptions.USAGE);
                return 0;
            case VERSION:
                out.println("MPJ Lite " + version() + " (Java " + Runtime.version() + ")");
                return 0;
            default:
                return launch(options, err);
        }
    }

    private static int launch(LaunchOptions options, PrintStream err) {
        UserProgram program;
        try {
            program = ProgramLoader.load(options, MpjRun.class.getClassLoader(), err);
        } catch (UsageException e) {
            err.println("mpjrun: " + e.getMessage());
            return UsageException.EXIT_CODE;
        }
        String[] args = options.programArgs().toArray(new String[0]);
        try (program) {
            JobConfig config = options.config().toBuilder().warnings(w -> err.println("mpjrun: warning: " + w)).build();
            Job job = Job.create(config);
            JobResult result;
            try (StatusSignal status = StatusSignal.install(job, err); StopSignal stop = StopSignal.install(job)) {
                result = job.run(rank -> program.runRank(rank, args));
            }
            if (!result.succeeded()) {
                FailureReport.print(result.failure(), err);
            }
            if (config.stats()) {
                printStats(job, options, err);
            }
            return result.exitCode();
        }
    }

    /** {@code --stats}: the summary on {@code err}, and the heat map when a file is given. */
    private static void printStats(Job job, LaunchOptions options, PrintStream err) {
        err.print(StatsReport.format(job));
        Path image = options.statsImage();
        if (image != null) {
            try {
                HeatMap.write(StatsReport.bytes(job), "point-to-point bytes between ranks", image);
                err.println("mpjrun: heat map of the bytes between ranks written to " + image);
            } catch (IOException | RuntimeException e) {
                err.println("mpjrun: cannot write the heat map " + image + ": " + e.getMessage());
            }
        }
    }

    private static String version() {
        Properties p = new Properties();
        try (InputStream in = MpjRun.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // fall through to "unknown": a version line is not worth failing for
        }
        return p.getProperty("version", "(unknown version)");
    }
}
