package org.mpjlite.run;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.RankBound;

/**
 * The class loader of one rank: it gives each rank its own copy of the user's classes, so that
 * static fields of the program are per rank, as they are per process under a real MPI.
 *
 * <p>Where a class comes from:
 * <ul>
 *   <li>Classes of the platform ({@code java.*} and the rest of the JDK): the platform loader,
 *       as for any Java program; a user class path cannot shadow them.</li>
 *   <li>{@code mpi.MPI} and its nested classes: defined here, once per rank, from the bytes the
 *       parent has for them. {@code MPI} holds a rank's MPI state ({@code COMM_WORLD}...), so it
 *       must be per rank; its bytes come from MPJ Lite even if the user class path holds another
 *       MPI for Java (an old {@code mpj.jar}, say).</li>
 *   <li>The rest of the MPJ Lite runtime (the other {@code mpi} classes, the device, buffers,
 *       JCTools): the parent, shared by all ranks. These classes hold no per-rank state, and
 *       sharing them is what lets ranks exchange messages and catch the same
 *       {@code MPIException}.</li>
 *   <li>A class of a runtime package that the runtime does not have (a program of the user's own
 *       in package {@code mpi}, as MPJ Express test programs are): from the program, as below.</li>
 *   <li>Anything else: child first. Classes in the in-memory compiled sources or on the user class
 *       path are defined here even if the parent could load them too (as in tests, where the
 *       program sits on the test class path); only what neither has goes to the parent.</li>
 * </ul>
 * Resources are child first as well. The program's own classes call {@link RankExit} where they call
 * {@code System.exit} ({@link ExitRedirect}), so that exiting ends one rank, not the JVM.
 *
 * <p>Thread safety: parallel capable, like {@link URLClassLoader}; class loading is locked per
 * class name.
 */
final class RankClassLoader extends URLClassLoader implements RankBound {
    static {
        registerAsParallelCapable();
    }

    private static final String MPI_CLASS = "mpi.MPI";

    /** Packages of the MPJ Lite runtime, loaded once by the parent for all ranks. */
    private static final Set<String> RUNTIME_PACKAGES = Set.of(
        "mpi", "mpjbuf", "org.mpjlite", "org.mpjlite.run", "org.mpjlite.smpdev", "org.mpjlite.matching",
        "org.mpjlite.smpdev.collective", "org.mpjlite.smpdev.data", "org.mpjlite.smpdev.diag",
        "org.mpjlite.smpdev.error", "org.mpjlite.smpdev.p2p", "org.mpjlite.smpdev.wait");

    /** Libraries the runtime uses, shared with all their subpackages. */
    private static final String[] RUNTIME_LIBRARIES = {"org.jctools."};

    private final Rank rank;
    private final Map<String, byte[]> compiledClasses;
    /** The bytes of the per-rank runtime classes ({@code mpi.MPI}), read from the parent once for all ranks. */
    private final Map<String, byte[]> runtimeClasses;

    /**
     * @param rank the rank this loader belongs to; null for a loader that only inspects the
     *        program before the job starts
     * @param classpath the user class path, searched before the parent
     * @param compiledClasses class files compiled in memory, by binary name, searched first
     * @param runtimeClasses a thread-safe cache of the per-rank runtime classes' bytes, shared by the
     *        loaders of one program (read from the parent's jar once, not once per rank)
     * @param parent the loader of the MPJ Lite runtime
     */
    RankClassLoader(Rank rank, URL[] classpath, Map<String, byte[]> compiledClasses,
                    Map<String, byte[]> runtimeClasses, ClassLoader parent) {
        // Unnamed: a named loader prefixes every stack frame of the program with its name.
        super(classpath, parent);
        this.rank = rank;
        this.compiledClasses = compiledClasses;
        this.runtimeClasses = runtimeClasses;
    }

    @Override
    public Rank rank() {
        return rank;
    }

    /** The classes compiled in memory that this loader defines, by binary name. */
    Map<String, byte[]> compiledClasses() {
        return compiledClasses;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                c = loadUnloaded(name);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    private Class<?> loadUnloaded(String name) throws ClassNotFoundException {
        if (isPerRankMpi(name)) {
            return defineFromParent(name);
        }
        if (isRuntime(name)) {
            try {
                return getParent().loadClass(name);
            } catch (ClassNotFoundException notRuntime) {
                // a program's own class in a runtime package (MPJ Express test programs are in package mpi)
            }
        } else {
            try {
                return getPlatformClassLoader().loadClass(name);
            } catch (ClassNotFoundException notPlatform) {
                // a class of the program, or of a library it uses
            }
        }
        byte[] compiled = compiledClasses.get(name);
        if (compiled != null) {
            byte[] bytes = ExitRedirect.transform(compiled);
            return defineClass(name, bytes, 0, bytes.length);
        }
        try {
            return findClass(name);
        } catch (ClassNotFoundException notOnUserClasspath) {
            return getParent().loadClass(name);
        }
    }

    /** A class of the user class path, with its {@code System.exit} calls redirected (see {@link RankExit}). */
    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        URL url = findResource(name.replace('.', '/') + ".class");
        if (url != null) {
            byte[] bytes;
            try (InputStream in = url.openStream()) {
                bytes = in.readAllBytes();
            } catch (IOException e) {
                throw new ClassNotFoundException(name + " (cannot read " + url + ")", e);
            }
            byte[] redirected = ExitRedirect.transform(bytes);
            if (redirected != bytes) {
                return defineClass(name, redirected, 0, redirected.length);
            }
        }
        return super.findClass(name);
    }

    private static boolean isPerRankMpi(String name) {
        return name.equals(MPI_CLASS) || name.startsWith(MPI_CLASS + "$");
    }

    private static boolean isRuntime(String name) {
        int dot = name.lastIndexOf('.');
        if (dot > 0 && RUNTIME_PACKAGES.contains(name.substring(0, dot))) {
            return true;
        }
        for (String prefix : RUNTIME_LIBRARIES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private Class<?> defineFromParent(String name) throws ClassNotFoundException {
        byte[] bytes = runtimeClasses.get(name);
        if (bytes == null) {
            bytes = readFromParent(name);
            runtimeClasses.putIfAbsent(name, bytes);
        }
        return defineClass(name, bytes, 0, bytes.length);
    }

    private byte[] readFromParent(String name) throws ClassNotFoundException {
        String resource = name.replace('.', '/') + ".class";
        URL url = getParent().getResource(resource);
        if (url == null) {
            throw new ClassNotFoundException(name + " (not found in the MPJ Lite runtime)");
        }
        try (InputStream in = url.openStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new ClassNotFoundException(name + " (cannot read " + url + ")", e);
        }
    }

    @Override
    public URL getResource(String name) {
        URL url = findResource(name);
        return url != null ? url : super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        // Keyed by external form: the user class path may also be on the parent's (tests), and a
        // resource found twice would be read twice (ServiceLoader, say).
        Map<String, URL> urls = new LinkedHashMap<>();
        for (URL url : Collections.list(findResources(name))) {
            urls.putIfAbsent(url.toExternalForm(), url);
        }
        for (URL url : Collections.list(super.getResources(name))) {
            urls.putIfAbsent(url.toExternalForm(), url);
        }
        return Collections.enumeration(urls.values());
    }
}
