package org.mpjlite.run;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
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
 *       MPI for Java (an old {@code mpj.jar}, say). Only the rank's own state is declared there;
 *       its superclass {@code mpi.MPICommon}, the constants and the rest, is shared.</li>
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
 * <p>What can be found out once for all ranks is, in {@link ProgramClasses}: which names are
 * shared classes, the bytes of the classes each rank defines (read from the user class path once,
 * with their code source and their jar's manifest, which defines their package as
 * {@link URLClassLoader} would), the user class path's resources. After defining a class, the loader
 * loads the shared classes named by the class's member references, which keeps the JVM from
 * recording a loader constraint per rank (see {@link ProgramClasses#sharedTypes}).
 *
 * <p>Thread safety: parallel capable, like {@link URLClassLoader}; loading a class defined here is
 * locked per class name, while a shared class is answered without a lock.
 */
final class RankClassLoader extends URLClassLoader implements RankBound {
    static {
        registerAsParallelCapable();
    }

    private final Rank rank;
    private final ProgramClasses classes;

    /**
     * @param rank the rank this loader belongs to; null for a loader that only inspects the
     *        program before the job starts
     * @param classes what the loaders of the program's ranks share: the parent (the loader of the
     *        MPJ Lite runtime), the user class path, the classes compiled in memory, and what was
     *        found out already
     */
    RankClassLoader(Rank rank, ProgramClasses classes) {
        // Unnamed: a named loader prefixes every stack frame of the program with its name. The
        // class path is the user's (getURLs); its classes and resources are read through classes.
        super(classes.classpath(), classes.runtime());
        this.rank = rank;
        this.classes = classes;
    }

    @Override
    public Rank rank() {
        return rank;
    }

    /** The classes compiled in memory that this loader defines, by binary name. */
    Map<String, byte[]> compiledClasses() {
        return classes.compiled();
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        // A shared class needs no lock: the runtime's loader and the JDK's have their own.
        Class<?> c = classes.sharedClass(name);
        if (c == null) {
            synchronized (getClassLoadingLock(name)) {
                c = findLoadedClass(name);
                if (c == null) {
                    c = defineOwn(name);
                }
            }
        }
        if (resolve) {
            resolveClass(c);
        }
        return c;
    }

    private Class<?> defineOwn(String name) throws ClassNotFoundException {
        byte[] bytes = classes.definition(name);
        if (bytes != null) {
            return withSharedTypes(defineClass(name, bytes, 0, bytes.length), bytes);
        }
        ProgramClasses.ClassFile file = classes.classFile(name);
        if (file == null) {
            return getParent().loadClass(name);
        }
        definePackageOf(name, file);
        return withSharedTypes(defineClass(name, file.bytes(), 0, file.bytes().length, file.source()), file.bytes());
    }

    /** Defines the package of a class from a jar with the jar's manifest (its versions), as URLClassLoader does. */
    private void definePackageOf(String name, ProgramClasses.ClassFile file) {
        int dot = name.lastIndexOf('.');
        if (dot < 0 || file.manifest() == null) {
            return; // defineClass defines it, without attributes
        }
        String pkg = name.substring(0, dot);
        if (getDefinedPackage(pkg) == null) {
            try {
                definePackage(pkg, file.manifest(), file.source().getLocation());
            } catch (IllegalArgumentException definedMeanwhile) {
                // another class of the package, loaded by another thread of this rank
            }
        }
    }

    /**
     * Loads, through this loader, the shared classes that the member references of {@code c}
     * (defined from {@code bytes}) name, so that linking them adds no loader constraint (see
     * {@link ProgramClasses#sharedTypes}).
     */
    private Class<?> withSharedTypes(Class<?> c, byte[] bytes) throws ClassNotFoundException {
        for (String type : classes.sharedTypes(c.getName(), bytes)) {
            // The JVM asks this loader, which answers from the shared cache, and records it as an
            // initiating loader of the class.
            Class.forName(type, false, this);
        }
        return c;
    }

    @Override
    public URL findResource(String name) {
        return classes.findResource(name);
    }

    @Override
    public Enumeration<URL> findResources(String name) throws IOException {
        return classes.findResources(name);
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
