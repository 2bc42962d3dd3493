package org.mpjlite.run;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.ForwardingJavaFileObject;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import mpjbuf.PoolStrategy;
import org.mpjlite.smpdev.Rank;

/**
 * Compiles one {@code .java} file in memory, as {@code java File.java} does: no class file is
 * written, the file may declare a package and several top-level classes, and the first top-level
 * class is the program's main class, whatever the file's name (a public class need not be named
 * after it). Only this file is compiled (the source path is empty), and
 * annotation processing is off. Diagnostics are printed in javac's own format, with the options
 * the java launcher uses ({@code -Xdiags:verbose -Xlint:deprecation}).
 *
 * <p>The compile class path is the MPJ Lite runtime (so {@code mpi.*} resolves) followed by the
 * user class path.
 */
final class SourceCompiler {
    private static final List<String> JAVAC_OPTIONS = List.of("-proc:none", "-Xdiags:verbose", "-Xlint:deprecation");

    /**
     * A compiled source file.
     *
     * @param mainClass binary name of the first top-level class
     * @param classes class files, by binary name
     */
    record CompiledSource(String mainClass, Map<String, byte[]> classes) {
    }

    private SourceCompiler() {
    }

    /**
     * Compiles {@code source}; warnings and errors go to {@code diagnostics}.
     *
     * @throws UsageException if the file does not compile or declares no class
     */
    static CompiledSource compile(Path source, List<Path> userClasspath, PrintStream diagnostics)
            throws UsageException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new UsageException("running " + source.getFileName() + " needs a JDK, but this Java ("
                + System.getProperty("java.home") + ") has no compiler: compile it with javac and name the class");
        }
        Map<String, byte[]> classes = new HashMap<>();
        PrintWriter out = new PrintWriter(diagnostics, true);
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null);
             MemoryFileManager memory = new MemoryFileManager(files, classes)) {
            List<Path> classpath = new ArrayList<>(runtimeClasspath());
            classpath.addAll(userClasspath);
            files.setLocationFromPaths(StandardLocation.CLASS_PATH, classpath);
            files.setLocationFromPaths(StandardLocation.SOURCE_PATH, List.of());
            List<JavaFileObject> units = new ArrayList<>();
            for (JavaFileObject unit : files.getJavaFileObjectsFromPaths(List.of(source))) {
                units.add(new AnyNameSource(unit));
            }
            JavacTask task = (JavacTask) javac.getTask(out, memory, null, JAVAC_OPTIONS, null, units);
            MainClassListener mainClass = new MainClassListener();
            task.addTaskListener(mainClass);
            boolean ok = task.call();
            out.flush();
            if (!ok) {
                throw new UsageException("compilation of " + source + " failed");
            }
            if (mainClass.name == null) {
                throw new UsageException(source + " declares no class to run");
            }
            return new CompiledSource(mainClass.name, Map.copyOf(classes));
        } catch (IOException e) {
            throw new UsageException("cannot compile " + source + ": " + e.getMessage(), e);
        }
    }

    /**
     * Where the MPJ Lite runtime's classes are: the JVM class path (the mpjlite.jar under
     * {@code mpjrun}) plus the code sources of the API and the device, for hosts whose class path
     * property does not name them (an IDE, a test runner with a manifest-only jar).
     */
    private static List<Path> runtimeClasspath() {
        Set<Path> roots = new LinkedHashSet<>();
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                roots.add(Path.of(entry));
            }
        }
        List<Class<?>> runtime = new ArrayList<>(List.of(SourceCompiler.class, Rank.class, PoolStrategy.class));
        try {
            // mpiJava's Cartcomm and Graphcomm have a class directory (or jar) of their own: see api/pom.xml.
            runtime.add(Class.forName("mpi.Cartcomm", false, SourceCompiler.class.getClassLoader()));
        } catch (ClassNotFoundException e) {
            // a runtime without them: the programs that use them cannot run here anyway
        }
        for (Class<?> c : runtime) {
            CodeSource source = c.getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation() != null) {
                try {
                    roots.add(Path.of(source.getLocation().toURI()));
                } catch (URISyntaxException | IllegalArgumentException e) {
                    // not a file system location (a custom loader's URL): javac could not use it anyway
                }
            }
        }
        roots.removeIf(p -> !Files.exists(p));
        return List.copyOf(roots);
    }

    /**
     * Records the first top-level class javac analyzes: the main class, as the java launcher's
     * source mode chooses it.
     */
    private static final class MainClassListener implements TaskListener {
        private String name;

        @Override
        public void started(TaskEvent e) {
            TypeElement type = e.getTypeElement();
            if (e.getKind() == TaskEvent.Kind.ANALYZE && name == null && type != null
                    && type.getNestingKind() == NestingKind.TOP_LEVEL) {
                name = type.getQualifiedName().toString();
            }
        }
    }

    /**
     * The source file as javac sees it: compatible with any class name, so a public class need not
     * be named after the file, as in the java launcher's source mode.
     */
    private static final class AnyNameSource extends ForwardingJavaFileObject<JavaFileObject> {
        AnyNameSource(JavaFileObject file) {
            super(file);
        }

        /** Any class name, but not package-info or module-info (not identifiers), as the java launcher. */
        @Override
        public boolean isNameCompatible(String simpleName, JavaFileObject.Kind kind) {
            return kind == JavaFileObject.Kind.SOURCE && SourceVersion.isIdentifier(simpleName);
        }
    }

    /** Keeps class files in a map instead of writing them. */
    private static final class MemoryFileManager extends ForwardingJavaFileManager<StandardJavaFileManager> {
        private final Map<String, byte[]> classes;

        MemoryFileManager(StandardJavaFileManager files, Map<String, byte[]> classes) {
            super(files);
            this.classes = classes;
        }

        @Override
        public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                                                   FileObject sibling) {
            URI uri = URI.create("memory:///" + className.replace('.', '/') + kind.extension);
            return new SimpleJavaFileObject(uri, kind) {
                @Override
                public OutputStream openOutputStream() {
                    return new ByteArrayOutputStream() {
                        @Override
                        public void close() {
                            classes.put(className, toByteArray());
                        }
                    };
                }
            };
        }
    }
}
