package org.mpjlite.run;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.mpjlite.smpdev.Rank;

/**
 * The program an MPI spawn names ({@code Intracomm.spawn(command, argv, ...)}), resolved as
 * {@code mpjrun} resolves its program, relative to the spawning rank's program:
 * <ul>
 *   <li>{@code MainClass}: a class on the spawning program's class path (the class path its rank
 *       loader searches, and the classes it compiled in memory from a {@code .java} file); for a
 *       program run from a shared class loader (an embedded lambda), a class that loader finds,
 *       loaded anew per rank from where it was found;</li>
 *   <li>{@code File.java} or {@code app.jar}: compiled in memory, or run from its manifest's
 *       {@code Main-Class}, with the spawning program's class path;</li>
 *   <li>{@code java [-cp PATH] (MainClass | File.java | app.jar) [args...]}: the command line
 *       form; its words are split at white space (no quoting), the arguments come before
 *       {@code argv}, and {@code -cp} (also {@code -classpath}, {@code --class-path}) replaces the
 *       spawning program's class path. No other java option is taken. As in Open MPI, the command
 *       may also be just {@code java} with the rest of that line as the first entries of the spawn's
 *       {@code argv} ({@code spawn("java", {"MainClass", "arg"}, ...)}, see {@link #javaWords}).</li>
 * </ul>
 * Every spawned rank gets a class loader of its own, so its statics are its own.
 *
 * <p>Thread safety: {@link #runRank} is called by all spawned ranks at once (see
 * {@link UserProgram#runRank}); {@link #close()} once, after the last of them.
 */
public final class SpawnCommand implements AutoCloseable {
    private static final Set<String> CLASSPATH_OPTIONS = Set.of("-cp", "-classpath", "--class-path");
    private final UserProgram program;
    private final List<String> commandArgs;

    private SpawnCommand(UserProgram program, List<String> commandArgs) {
        this.program = program;
        this.commandArgs = commandArgs;
    }

    /**
     * Resolves {@code command} for a rank whose program classes come from {@code caller} (its
     * thread's context class loader): its main class is loaded and checked, none of its code runs.
     *
     * @throws IllegalArgumentException if the command names no program that can run, with a
     *         message fit for the user (compiler diagnostics included)
     */
    public static SpawnCommand resolve(String command, ClassLoader caller) {
        try {
            return load(command, caller);
        } catch (UsageException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /**
     * How many leading entries of {@code argv} belong to the java command line when
     * {@code command} is just {@code java}: Open MPI's Java programs spawn {@code "java"} with java's
     * {@code -cp PATH} and the main class as the first arguments, as the java launcher reads them.
     * 0 when the command names its program itself (or there is no argument to name it).
     */
    public static int javaWords(String command, String[] argv) {
        if (command == null || !command.strip().equals("java") || argv == null) {
            return 0;
        }
        int n = 0;
        while (n + 1 < argv.length && CLASSPATH_OPTIONS.contains(argv[n])) {
            n += 2;
        }
        return n < argv.length ? n + 1 : 0;
    }

    private static SpawnCommand load(String command, ClassLoader caller) throws UsageException {
        if (command == null || command.isBlank()) {
            throw new UsageException("the command is empty");
        }
        String trimmed = command.strip();
        List<String> words = trimmed.equals("java") || trimmed.startsWith("java ")
            ? Arrays.asList(trimmed.substring(4).strip().split("\\s+")) : List.of(trimmed);
        if (words.get(0).isEmpty()) {
            throw new UsageException("'" + command + "' names no program");
        }
        boolean ownClasspath = CLASSPATH_OPTIONS.contains(words.get(0));
        if (!ownClasspath && words.get(0).startsWith("-")) {
            throw new UsageException("'" + words.get(0) + "' in '" + command + "': the only java option a spawn"
                + " command takes is -cp PATH");
        }
        RankClassLoader parent = rankLoader(caller);
        List<String> line = new ArrayList<>();
        if (!ownClasspath && parent != null) {
            line.add("-cp");
            line.add(classpathOf(parent));
        }
        line.addAll(words);
        LaunchOptions options = LaunchOptions.parse(line.toArray(new String[0]));
        if (options.program() == null) {
            throw new UsageException("'" + command + "' names no program");
        }
        String name = options.program();
        boolean className = !name.endsWith(".java") && !name.endsWith(".jar");
        UserProgram loaded;
        if (className && parent != null && parent.compiledClasses().containsKey(name)) {
            loaded = new UserProgram(name, options.classpath().orElseThrow(), parent.compiledClasses(),
                parent.getParent());
            loaded.checkMain();
        } else if (className && parent == null && !ownClasspath) {
            try {
                loaded = UserProgram.forMainClass(Class.forName(name, false, caller));
            } catch (ClassNotFoundException | LinkageError e) {
                throw new UsageException("cannot find main class " + name + " with the class loader of the spawning"
                    + " program", e);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage(), e);
            }
        } else {
            ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
            try (PrintStream out = new PrintStream(diagnostics, true, StandardCharsets.UTF_8)) {
                ClassLoader runtime = parent != null ? parent.getParent() : SpawnCommand.class.getClassLoader();
                loaded = ProgramLoader.load(options, runtime, out);
            } catch (UsageException e) {
                String compiler = diagnostics.toString(StandardCharsets.UTF_8).strip();
                throw compiler.isEmpty() ? e : new UsageException(e.getMessage() + ":\n" + compiler, e);
            }
        }
        return new SpawnCommand(loaded, options.programArgs());
    }

    private static RankClassLoader rankLoader(ClassLoader loader) {
        for (ClassLoader l = loader; l != null; l = l.getParent()) {
            if (l instanceof RankClassLoader r) {
                return r;
            }
        }
        return null;
    }

    private static String classpathOf(RankClassLoader loader) throws UsageException {
        List<String> entries = new ArrayList<>();
        for (URL url : loader.getURLs()) {
            try {
                entries.add(Path.of(url.toURI()).toString());
            } catch (URISyntaxException | IllegalArgumentException e) {
                throw new UsageException("the spawning program's class path entry " + url + " is not a file", e);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /** Runs the program's {@code main} as {@code rank} with the command's arguments, then {@code argv}. */
    public Object runRank(Rank rank, String[] argv) throws Throwable {
        List<String> args = new ArrayList<>(commandArgs);
        if (argv != null) {
            args.addAll(Arrays.asList(argv));
        }
        return program.runRank(rank, args.toArray(new String[0]));
    }

    /** Closes the spawned ranks' class loaders (their jar files). */
    @Override
    public void close() {
        program.close();
    }
}
