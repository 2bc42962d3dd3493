package org.mpjlite.run;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.URLConnection;
import java.security.CodeSigner;
import java.security.CodeSource;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.Manifest;

/**
 * What the class loaders of one program's ranks ({@link RankClassLoader}) share, so that the work
 * of finding a class is done once per program rather than once per rank: which names the runtime
 * or the JDK serves (and which they do not, a question answered by an exception each time it is
 * asked), the bytes each rank defines its own copy from ({@code mpi.MPI}, the classes compiled in
 * memory with {@code System.exit} redirected), and the types each such class's member references
 * name. The program's classes on the user class path are read once, through one loader of that
 * path that defines nothing, rather than through each rank's own (which would open the jars and
 * parse their manifests again for every rank).
 *
 * <p>Thread safety: thread-safe; every cache is a concurrent map whose values depend only on the
 * name, so two ranks racing for the same name compute the same value and either is kept.
 */
final class ProgramClasses implements Closeable {
    private static final String MPI_CLASS = "mpi.MPI";

    /** Packages of the MPJ Lite runtime, loaded once by the parent for all ranks. */
    private static final Set<String> RUNTIME_PACKAGES = Set.of(
        "mpi", "mpjbuf", "org.mpjlite", "org.mpjlite.run", "org.mpjlite.smpdev", "org.mpjlite.matching",
        "org.mpjlite.smpdev.collective", "org.mpjlite.smpdev.data", "org.mpjlite.smpdev.diag",
        "org.mpjlite.smpdev.error", "org.mpjlite.smpdev.p2p", "org.mpjlite.smpdev.wait");

    /** Libraries the runtime uses, shared with all their subpackages. */
    private static final String[] RUNTIME_LIBRARIES = {"org.jctools."};

    /** The value of {@link #shared} for a name that neither the runtime nor the JDK has. */
    private static final Object NOT_SHARED = new Object();

    private final ClassLoader runtime;
    private final Map<String, byte[]> compiled;
    private final URL[] classpath;
    /** Finds and reads the program's classes and resources on {@link #classpath}; defines no class. */
    private final URLClassLoader finder;
    /** By name: the class file on the user class path, or {@link #NOT_SHARED} when there is none. */
    private final Map<String, Object> classFiles = new ConcurrentHashMap<>();
    /** By name: the runtime's or the JDK's class, or {@link #NOT_SHARED}. */
    private final Map<String, Object> shared = new ConcurrentHashMap<>();
    /** By name: the bytes a rank defines, redirected ({@link ExitRedirect}) where they are the program's. */
    private final Map<String, byte[]> definitions = new ConcurrentHashMap<>();
    private final Map<String, String[]> sharedTypes = new ConcurrentHashMap<>();

    /**
     * @param runtime the loader of the MPJ Lite runtime, parent of the rank loaders
     * @param compiled class files compiled in memory, by binary name (empty if none)
     * @param classpath the user class path
     */
    ProgramClasses(ClassLoader runtime, Map<String, byte[]> compiled, URL[] classpath) {
        this.runtime = runtime;
        this.compiled = Map.copyOf(compiled);
        this.classpath = classpath.clone();
        this.finder = new URLClassLoader(classpath, null);
    }

    /** A class of the user class path: its bytes (redirected), where it came from, and its jar's manifest (or null). */
    record ClassFile(byte[] bytes, CodeSource source, Manifest manifest) {
    }

    /** The user class path. */
    URL[] classpath() {
        return classpath.clone();
    }

    /** Resource {@code name} on the user class path, or null. */
    URL findResource(String name) {
        return finder.findResource(name);
    }

    /** Every resource {@code name} on the user class path. */
    java.util.Enumeration<URL> findResources(String name) throws IOException {
        return finder.findResources(name);
    }

    /**
     * Class {@code name} as the user class path has it, with its {@code System.exit} calls
     * redirected ({@link ExitRedirect}), read once for all ranks; null when it is not there.
     */
    ClassFile classFile(String name) throws ClassNotFoundException {
        Object file = classFiles.get(name);
        if (file == null) {
            file = read(name);
            classFiles.putIfAbsent(name, file);
        }
        return file == NOT_SHARED ? null : (ClassFile) file;
    }

    private Object read(String name) throws ClassNotFoundException {
        String path = name.replace('.', '/') + ".class";
        URL url = finder.findResource(path);
        if (url == null) {
            return NOT_SHARED;
        }
        try {
            URLConnection connection = url.openConnection();
            // Not cached: the jar is closed with the stream, not kept open for the JVM's life.
            connection.setUseCaches(false);
            try (InputStream in = connection.getInputStream()) {
                byte[] bytes = ExitRedirect.transform(in.readAllBytes());
                if (connection instanceof JarURLConnection jar) {
                    // Signers are known once the entry is read; both before the stream closes the jar.
                    CodeSigner[] signers = jar.getJarEntry().getCodeSigners();
                    return new ClassFile(bytes, new CodeSource(jar.getJarFileURL(), signers), jar.getManifest());
                }
                String u = url.toExternalForm();
                URL root = URI.create(u.substring(0, u.length() - path.length())).toURL();
                return new ClassFile(bytes, new CodeSource(root, (CodeSigner[]) null), null);
            }
        } catch (IOException e) {
            throw new ClassNotFoundException(name + " (cannot read " + url + ")", e);
        }
    }

    /** Closes the jar files of the user class path. */
    @Override
    public void close() throws IOException {
        finder.close();
    }

    ClassLoader runtime() {
        return runtime;
    }

    /** The classes compiled in memory, by binary name, as they came from the compiler. */
    Map<String, byte[]> compiled() {
        return compiled;
    }

    /**
     * The class every rank shares for {@code name}: the runtime's, for a name in one of its packages
     * (bar {@code mpi.MPI}, which is per rank), else the JDK's; null when each rank loads its own
     * (the program's classes, and a program's own class in a runtime package, as MPJ Express test
     * programs in package {@code mpi} are).
     */
    Class<?> sharedClass(String name) {
        if (isPerRankMpi(name)) {
            return null;
        }
        Object c = shared.get(name);
        if (c == null) {
            // Not computeIfAbsent: loading may come back here for another name.
            c = lookUp(name);
            shared.putIfAbsent(name, c);
        }
        return c == NOT_SHARED ? null : (Class<?>) c;
    }

    private Object lookUp(String name) {
        try {
            return isRuntime(name) ? runtime.loadClass(name) : ClassLoader.getPlatformClassLoader().loadClass(name);
        } catch (ClassNotFoundException notShared) {
            return NOT_SHARED;
        }
    }

    /**
     * The bytes of a class each rank defines from shared bytes: {@code mpi.MPI} and its nested
     * classes from the runtime, or a class compiled in memory, redirected; null for any other
     * class (on the user class path, or unknown).
     */
    byte[] definition(String name) throws ClassNotFoundException {
        byte[] bytes = definitions.get(name);
        if (bytes == null) {
            if (isPerRankMpi(name)) {
                bytes = readFromRuntime(name);
            } else {
                byte[] raw = compiled.get(name);
                if (raw == null) {
                    return null;
                }
                bytes = ExitRedirect.transform(raw);
            }
            definitions.putIfAbsent(name, bytes);
        }
        return bytes;
    }

    private byte[] readFromRuntime(String name) throws ClassNotFoundException {
        String resource = name.replace('.', '/') + ".class";
        URL url = runtime.getResource(resource);
        if (url == null) {
            throw new ClassNotFoundException(name + " (not found in the MPJ Lite runtime)");
        }
        try (InputStream in = url.openStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new ClassNotFoundException(name + " (cannot read " + url + ")", e);
        }
    }

    /**
     * The shared classes ({@link #sharedClass}) named in the descriptors of the members that class
     * {@code name}, defined from {@code bytes}, refers to.
     *
     * <p>Why: when a rank's class links a reference to a member of a shared class, the JVM checks
     * that both loaders agree on every type in the member's descriptor; a type the rank's loader
     * has not loaded yet becomes a loader constraint, one list per type that every rank's loader
     * joins, and each join searches the list: quadratic in the number of ranks (at 100,000 ranks,
     * most of the start-up time). A type the rank's loader has already loaded, as the shared class,
     * needs no constraint, so each rank loads these first ({@link RankClassLoader}).
     */
    String[] sharedTypes(String name, byte[] bytes) {
        String[] types = sharedTypes.get(name);
        if (types == null) {
            Set<String> named;
            try {
                named = new ClassFilePool(bytes).memberDescriptorTypes();
            } catch (RuntimeException malformed) {
                named = Set.of();
            }
            types = named.stream().filter(t -> !t.equals(name) && sharedClass(t) != null).toArray(String[]::new);
            sharedTypes.putIfAbsent(name, types);
        }
        return types;
    }

    static boolean isPerRankMpi(String name) {
        return name.equals(MPI_CLASS) || name.startsWith(MPI_CLASS + "$");
    }

    static boolean isRuntime(String name) {
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
}
