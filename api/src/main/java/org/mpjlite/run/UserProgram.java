package org.mpjlite.run;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.mpjlite.smpdev.Rank;

/**
 * A user's MPI program, ready to run as N ranks: its main class, where its classes come from, and
 * a way to run its {@code main} on one rank with a class loader of that rank's own
 * ({@link RankClassLoader}), so that every rank has its own copy of the program's static fields.
 *
 * <p>Thread safety: {@link #runRank} is called by all rank threads at once; each call creates its
 * own loader. {@link #close()} is for after the job, and closes the loaders' jar files.
 */
public final class UserProgram implements AutoCloseable {
    private final String mainClass;
    private final URL[] classpath;
    private final List<String> classpathNames;
    /** What the rank loaders share: the classes found once for all ranks. */
    private final ProgramClasses classes;
    private final Queue<RankClassLoader> loaders = new ConcurrentLinkedQueue<>();

    /**
     * @param mainClass binary name of the class whose {@code main} each rank runs
     * @param classpath the user class path
     * @param compiledClasses classes compiled in memory, by binary name (empty if none)
     * @param runtime the loader of the MPJ Lite runtime, parent of the rank loaders
     */
    UserProgram(String mainClass, List<Path> classpath, Map<String, byte[]> compiledClasses, ClassLoader runtime) {
        this.mainClass = mainClass;
        this.classpath = classpath.stream().map(UserProgram::toUrl).toArray(URL[]::new);
        this.classpathNames = classpath.stream().map(Path::toString).toList();
        this.classes = new ProgramClasses(runtime, compiledClasses, this.classpath);
    }

    /**
     * The program whose main class is {@code mainClass}: its classes are those found where
     * {@code mainClass} was loaded from (its code source: a classes directory or a jar), loaded
     * anew for each rank; everything else comes from {@code mainClass}'s own loader.
     *
     * @throws IllegalArgumentException if the class has no code source, no
     *         {@code public static void main(String[])}, or belongs to the MPJ Lite runtime
     */
    public static UserProgram forMainClass(Class<?> mainClass) {
        CodeSource source = mainClass.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            throw new IllegalArgumentException(mainClass.getName() + " has no code source to load it again from");
        }
        Path location;
        try {
            location = Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IllegalArgumentException(mainClass.getName() + " was not loaded from a file or directory: "
                + source.getLocation(), e);
        }
        UserProgram program = new UserProgram(mainClass.getName(), List.of(location), Map.of(),
            mainClass.getClassLoader());
        try {
            program.checkMain();
        } catch (UsageException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return program;
    }

    private static URL toUrl(Path path) {
        try {
            return path.toAbsolutePath().toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("bad class path entry " + path, e);
        }
    }

    /**
     * Checks, before any rank starts, that the main class loads per rank and has a
     * {@code public static void main(String[])}. The class is loaded but not initialized: none of
     * the program's code runs.
     */
    void checkMain() throws UsageException {
        RankClassLoader loader = newLoader(null);
        try {
            Class<?> c = Class.forName(mainClass, false, loader);
            if (c.getClassLoader() != loader) {
                throw new UsageException(mainClass + " is not on the program's class path but in the MPJ Lite"
                    + " runtime or the JDK: its static fields would be shared by all ranks");
            }
            mainMethod(c);
        } catch (ClassNotFoundException e) {
            throw new UsageException("cannot find main class " + mainClass + " on the class path "
                + String.join(File.pathSeparator, classpathNames));
        } catch (LinkageError e) {
            throw new UsageException("cannot load main class " + mainClass + ": " + e, e);
        } finally {
            closeQuietly(loader);
        }
    }

    private static Method mainMethod(Class<?> c) throws UsageException {
        try {
            Method main = c.getMethod("main", String[].class);
            if (Modifier.isStatic(main.getModifiers()) && main.getReturnType() == void.class) {
                // The class itself need not be public (java runs it too), but reflection then needs this.
                main.setAccessible(true);
                return main;
            }
        } catch (NoSuchMethodException e) {
            // reported below
        }
        throw new UsageException(c.getName() + " has no method public static void main(String[] args)");
    }

    /**
     * Runs {@code main} on the calling thread, which must be the thread of {@code rank}, with a
     * class loader of the rank's own (also the thread's context class loader meanwhile).
     *
     * @return null: main returns nothing (or called {@code System.exit(0)}, which ends the rank)
     * @throws Throwable whatever {@code main} threw, unwrapped
     */
    public Object runRank(Rank rank, String[] args) throws Throwable {
        RankClassLoader loader = newLoader(rank);
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            Method main = mainMethod(Class.forName(mainClass, false, loader));
            // A copy per rank: a program may write into its args.
            main.invoke(null, (Object) args.clone());
            return null;
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RankExit.Finished) {
                return null;
            }
            throw e.getCause();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private RankClassLoader newLoader(Rank rank) {
        RankClassLoader loader = new RankClassLoader(rank, classes);
        if (rank != null) {
            loaders.add(loader);
        }
        return loader;
    }

    /** Closes the rank loaders and the user class path (its open jar files); classes already loaded stay usable. */
    @Override
    public void close() {
        for (RankClassLoader loader; (loader = loaders.poll()) != null; ) {
            closeQuietly(loader);
        }
        closeQuietly(classes);
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException e) {
            // at worst a jar file stays open until the JVM exits: nothing the user could act on
        }
    }
}
