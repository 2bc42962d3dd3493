package org.mpjlite.run;

import java.io.File;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mpjbuf.PoolStrategy;
import mpjbuf.StorageKind;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.ThreadKind;
import org.mpjlite.smpdev.wait.WaitMode;

/**
 * The parsed {@code mpjrun} command line:
 * {@code mpjrun [options] (MainClass | File.java | app.jar) [args...]}.
 *
 * <p>Options come before the program; everything after the program is handed to the program's
 * {@code main} unchanged, so a program can take options that look like ours. Long options accept
 * both {@code --name value} and {@code --name=value}. Immutable.
 */
final class LaunchOptions {
    /** What the command line asks for. */
    enum Action { RUN, HELP, VERSION }

    static final String USAGE = String.join("\n",
        "Usage: mpjrun [options] <MainClass | File.java | app.jar> [args...]",
        "",
        "Runs an MPI program (MPJ Express / mpiJava 1.2 or Open MPI Java API) with every rank",
        "a thread of this JVM. The program is given as:",
        "  MainClass        a class with public static void main(String[]) on the class path",
        "  File.java        a source file, compiled in memory (like 'java File.java'); its first",
        "                   top-level class is the main class",
        "  app.jar          a jar whose manifest names the Main-Class",
        "Arguments after the program are passed to main(String[]) of every rank.",
        "",
        "Options:",
        "  -np N, -n N                  number of ranks (default 1)",
        "  -cp, -classpath, --class-path PATH",
        "                               class path of the program, entries separated by '"
            + File.pathSeparator + "'",
        "                               (default '.'; with app.jar, the jar plus PATH)",
        "  --matching locked|lockfree   message matching structure (default lockfree)",
        "  --eager-threshold BYTES      largest message sent eagerly; larger ones wait for the",
        "                               receiver (rendezvous). Suffixes k, m, g; default 16k",
        "  --pool buddy1|buddy2|unpooled",
        "                               message buffer pool (default buddy1)",
        "  --storage heap|direct        memory of pooled buffers (default heap)",
        "  --wait auto|spin|park        how a waiting rank waits: spin then park when ranks have",
        "                               a core each, else yield the core (twice, and for 20 us",
        "                               on platform threads) then park (auto, default); always",
        "                               spin first; or park at once",
        "  --sync-sends                 unsafe-program mode: every send waits for its receive",
        "                               (same as --eager-threshold 0), so a program that only works",
        "                               because small sends are buffered deadlocks, and is reported",
        "  --timeout SECONDS            stop the job after SECONDS with a report of every rank",
        "  --threads platform|virtual   what each rank runs on: a platform thread or a virtual",
        "                               thread (JDK 21 and later). Default: virtual when the ranks",
        "                               outnumber the cores on JDK 24 and later (waits park, and a",
        "                               virtual rank wakes several times faster), else platform.",
        "                               Platform ranks cost an OS thread each: a few thousand fit",
        "                               well, about 10,000 at most (about 180 KB of memory each,",
        "                               and the OS's limits on threads); that is all JDK 17 to 20",
        "                               offer. Virtual ranks cost about 40 KB: 10,000 start in a",
        "                               few seconds within 0.6 GB, and 100,000 in 20 to 45 s",
        "                               within about 4 GB (default heap, 2 cores, 24 GB)",
        "  --stack-size BYTES           stack of each rank's main thread (default 8m, what a",
        "                               program's main thread typically has); suffixes k, m, g.",
        "                               A virtual rank's stack is the JVM's -Xss, which mpjrun",
        "                               sets to it (within the 1m to 1g the JVM takes)",
        "  --check                      costly misuse checks: a send buffer changed while its",
        "                               non-blocking send is pending is an error; requests never",
        "                               completed are listed at Finalize; reports name the line of",
        "                               every non-blocking call and of the send of a mismatched message",
        "  --trace FILE                 write a timeline of every rank's MPI calls and messages to",
        "                               FILE when the job ends (Chrome Trace Event JSON: open it in",
        "                               ui.perfetto.dev or chrome://tracing); off by default",
        "  --trace-limit N              events kept per rank, the most recent (default 1000000)",
        "  --stats[=FILE.png]           at the end print per rank the time in MPI and outside it, its",
        "                               collectives, and the messages and bytes between ranks;",
        "                               with FILE.png also draw the bytes as a heat map",
        "  --no-deadlock-detection      do not stop the job when every rank is blocked in MPI",
        "                               (detection is on by default and costs a look ten times a",
        "                               second; without it a deadlocked job waits for --timeout)",
        "  -h, --help                   print this help and exit",
        "  --version                    print the MPJ Lite version and exit",
        "",
        "Exit status: 0 if every rank returned from main; 1 if a rank threw; the code given to",
        "Abort if a rank called it; 2 for a usage or compile error; 86 for a deadlock (every rank",
        "blocked in MPI: a report says where); 124 when --timeout stopped the job; 128 + the",
        "signal's number when SIGTERM, SIGINT or SIGHUP (Ctrl-C) stopped it, with the same report.",
        "System.exit(0) in a rank ends that rank only; System.exit(n), n not 0, ends the job with n.",
        "");

    private static final Pattern SIZE = Pattern.compile("(\\d+)([kmg]?)b?", Pattern.CASE_INSENSITIVE);

    private final Action action;
    private final JobConfig config;
    private final List<Path> classpath;
    private final String program;
    private final List<String> programArgs;
    private final Path statsImage;

    private LaunchOptions(Action action, JobConfig config, List<Path> classpath, String program,
                          List<String> programArgs) {
        this(action, config, classpath, program, programArgs, null);
    }

    private LaunchOptions(Action action, JobConfig config, List<Path> classpath, String program,
                          List<String> programArgs, Path statsImage) {
        this.statsImage = statsImage;
        this.action = action;
        this.config = config;
        this.classpath = classpath;
        this.program = program;
        this.programArgs = programArgs;
    }

    /** Parses a command line; the message of the exception is fit to show the user as is. */
    static LaunchOptions parse(String... args) throws UsageException {
        JobConfig.Builder config = JobConfig.builder();
        PoolStrategy pool = PoolStrategy.BUDDY1;
        StorageKind storage = StorageKind.HEAP;
        List<Path> classpath = null;
        Path statsImage = null;
        int i = 0;
        while (i < args.length && args[i].startsWith("-") && args[i].length() > 1) {
            String name = args[i++];
            String inlineValue = null;
            int eq = name.indexOf('=');
            if (name.startsWith("--") && eq > 0) {
                inlineValue = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            switch (name) {
                case "-h":
                case "--help":
                    return new LaunchOptions(Action.HELP, null, null, null, List.of());
                case "--version":
                    return new LaunchOptions(Action.VERSION, null, null, null, List.of());
                case "--sync-sends":
                    config.eagerThreshold(0);
                    continue;
                case "--check":
                    config.check(true);
                    continue;
                case "--stats":
                    config.stats(true);
                    if (inlineValue != null) {
                        statsImage = parseImage(name, inlineValue);
                    }
                    continue;
                case "--no-deadlock-detection":
                    if (inlineValue != null) {
                        throw new UsageException("option " + name + " takes no value");
                    }
                    config.deadlockDetection(false);
                    continue;
                default:
                    break;
            }
            if (!takesValue(name)) {
                throw new UsageException("unknown option '" + name + "'");
            }
            String value = inlineValue;
            if (value == null) {
                if (i == args.length) {
                    throw new UsageException("option " + name + " needs a value");
                }
                value = args[i++];
            }
            switch (name) {
                case "-np":
                case "-n":
                    config.ranks(parsePositive(name, value, "ranks"));
                    break;
                case "-cp":
                case "-classpath":
                case "--class-path":
                    classpath = parseClasspath(value);
                    break;
                case "--matching":
                    config.matching(parseChoice(name, value, MatchingKind::parse, "locked, lockfree"));
                    break;
                case "--eager-threshold":
                    config.eagerThreshold(parseSize(name, value));
                    break;
                case "--pool":
                    pool = parseChoice(name, value, v -> PoolStrategy.valueOf(upper(v)), "buddy1, buddy2, unpooled");
                    break;
                case "--storage":
                    storage = parseChoice(name, value, v -> StorageKind.valueOf(upper(v)), "heap, direct");
                    break;
                case "--wait":
                    config.waitMode(parseChoice(name, value, WaitMode::parse, "auto, spin, park"));
                    break;
                case "--timeout":
                    config.timeout(parseSeconds(name, value));
                    break;
                case "--stack-size":
                    config.stackSize(parseSize(name, value));
                    break;
                case "--threads":
                    config.threads(parseThreads(value));
                    break;
                case "--trace":
                    config.trace(parsePath(name, value));
                    break;
                case "--trace-limit":
                    config.traceLimit(parsePositive(name, value, "events"));
                    break;
                default:
                    throw new AssertionError(name);
            }
        }
        if (i == args.length) {
            throw new UsageException("no program given: name a main class, a .java file or a .jar");
        }
        String program = args[i++];
        List<String> programArgs = List.copyOf(Arrays.asList(args).subList(i, args.length));
        return new LaunchOptions(Action.RUN, config.pool(pool, storage).build(), classpath, program, programArgs,
            statsImage);
    }

    private static Path parsePath(String option, String value) throws UsageException {
        try {
            if (!value.isEmpty()) {
                return Path.of(value);
            }
        } catch (InvalidPathException e) {
            throw new UsageException(option + ": bad file name '" + value + "': " + e.getReason());
        }
        throw new UsageException("option " + option + " needs a file name");
    }

    private static Path parseImage(String option, String value) throws UsageException {
        if (!value.toLowerCase(Locale.ROOT).endsWith(".png")) {
            throw new UsageException(option + " draws a PNG image: the file name must end in .png, not '" + value + "'");
        }
        return parsePath(option, value);
    }

    private static java.time.Duration parseSeconds(String option, String value) throws UsageException {
        try {
            double seconds = Double.parseDouble(value);
            if (seconds > 0 && seconds < 1e9) {
                return java.time.Duration.ofNanos((long) (seconds * 1e9));
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("option " + option + " needs a positive number of seconds, not '" + value + "'");
    }

    /** Whether {@code option} takes a value (the next argument, or after {@code =}). */
    static boolean takesValue(String option) {
        switch (option) {
            case "-np":
            case "-n":
            case "-cp":
            case "-classpath":
            case "--class-path":
            case "--matching":
            case "--eager-threshold":
            case "--pool":
            case "--storage":
            case "--wait":
            case "--timeout":
            case "--stack-size":
            case "--threads":
            case "--trace":
            case "--trace-limit":
                return true;
            default:
                return false;
        }
    }

    private static ThreadKind parseThreads(String value) throws UsageException {
        ThreadKind kind = parseChoice("--threads", value, ThreadKind::parse, "virtual, platform");
        if (!kind.available()) {
            throw new UsageException("--threads virtual needs JDK 21 or later; this is JDK " + Runtime.version()
                + " (run with a newer JDK, set JAVA_HOME, or use --threads platform)");
        }
        return kind;
    }

    /** A count of at least 1 of {@code what} (ranks, events). */
    private static int parsePositive(String option, String value, String what) throws UsageException {
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below, with the same message as a number below 1
        }
        throw new UsageException(option + " needs a number of " + what + " of at least 1, not '" + value + "'");
    }

    private static List<Path> parseClasspath(String value) throws UsageException {
        List<Path> entries = new ArrayList<>();
        for (String entry : value.split(Pattern.quote(File.pathSeparator))) {
            if (entry.isEmpty()) {
                continue;
            }
            try {
                entries.add(Path.of(entry));
            } catch (InvalidPathException e) {
                throw new UsageException("bad class path entry '" + entry + "': " + e.getReason());
            }
        }
        return List.copyOf(entries);
    }

    /** Parses a byte count such as {@code 4096}, {@code 16k} or {@code 1m} (binary multiples). */
    static int parseSize(String option, String value) throws UsageException {
        Matcher m = SIZE.matcher(value.trim());
        if (m.matches()) {
            String unit = m.group(2).toLowerCase(Locale.ROOT);
            int shift = unit.isEmpty() ? 0 : 10 * ("kmg".indexOf(unit) + 1);
            try {
                long bytes = Math.multiplyExact(Long.parseLong(m.group(1)), 1L << shift);
                if (bytes <= Integer.MAX_VALUE) {
                    return (int) bytes;
                }
            } catch (NumberFormatException | ArithmeticException e) {
                // more than a long can hold: reported below
            }
            throw new UsageException(option + " '" + value + "' is too large (at most 2g - 1 bytes)");
        }
        throw new UsageException(option + " needs a byte count such as 4096, 16k or 1m, not '" + value + "'");
    }

    private static <T> T parseChoice(String option, String value, Function<String, T> parser, String choices)
            throws UsageException {
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + " must be one of " + choices + ", not '" + value + "'");
        }
    }

    private static String upper(String s) {
        return s.trim().toUpperCase(Locale.ROOT);
    }

    Action action() {
        return action;
    }

    /** The job settings, with the rank count; null unless {@link #action()} is RUN. */
    JobConfig config() {
        return config;
    }

    /** The user class path given with -cp, if any. */
    Optional<List<Path>> classpath() {
        return Optional.ofNullable(classpath);
    }

    /** The main class name, .java file or .jar file; null unless {@link #action()} is RUN. */
    String program() {
        return program;
    }

    List<String> programArgs() {
        return programArgs;
    }

    /** Where {@code --stats=FILE.png} draws the heat map of bytes between ranks; null: no image. */
    Path statsImage() {
        return statsImage;
    }
}
