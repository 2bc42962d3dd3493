package org.mpjlite.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Turns the program named on the command line into a {@link UserProgram}:
 * <ul>
 *   <li>{@code File.java}: compiled in memory; the user class path is -cp (default {@code .});</li>
 *   <li>{@code app.jar}: main class from the manifest's {@code Main-Class}; the class path is the
 *       jar, then -cp (and the jar's own {@code Class-Path} entries);</li>
 *   <li>anything else: a class name, looked up on -cp (default {@code .}).</li>
 * </ul>
 * The main method is checked before any rank starts.
 */
final class ProgramLoader {
    private static final List<Path> DEFAULT_CLASSPATH = List.of(Path.of("."));

    private ProgramLoader() {
    }

    /**
     * @param runtime the loader of the MPJ Lite runtime, parent of the rank loaders
     * @param diagnostics where compiler warnings and errors go
     */
    static UserProgram load(LaunchOptions options, ClassLoader runtime, PrintStream diagnostics)
            throws UsageException {
        String program = options.program();
        List<Path> classpath = options.classpath().orElse(DEFAULT_CLASSPATH);
        UserProgram loaded;
        if (program.endsWith(".java")) {
            Path source = existingFile(program);
            SourceCompiler.CompiledSource compiled = SourceCompiler.compile(source, classpath, diagnostics);
            loaded = new UserProgram(compiled.mainClass(), classpath, compiled.classes(), runtime);
        } else if (program.endsWith(".jar")) {
            Path jar = existingFile(program);
            List<Path> jarClasspath = new ArrayList<>();
            jarClasspath.add(jar);
            jarClasspath.addAll(options.classpath().orElse(List.of()));
            loaded = new UserProgram(mainClassOf(jar), jarClasspath, Map.of(), runtime);
        } else {
            loaded = new UserProgram(className(program), classpath, Map.of(), runtime);
        }
        loaded.checkMain();
        return loaded;
    }

    private static Path existingFile(String name) throws UsageException {
        try {
            Path path = Path.of(name);
            if (Files.isRegularFile(path)) {
                return path;
            }
        } catch (InvalidPathException e) {
            // reported below
        }
        throw new UsageException("file not found: " + name);
    }

    private static String mainClassOf(Path jar) throws UsageException {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            String main = manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            if (main == null || main.isBlank()) {
                throw new UsageException(jar + " has no Main-Class in its manifest: name the main class with -cp "
                    + jar + " MainClass");
            }
            return main.trim();
        } catch (IOException e) {
            throw new UsageException("cannot read " + jar + ": " + e.getMessage(), e);
        }
    }

    /** Accepts what students type for a class: {@code Hello}, {@code pkg.Hello}, not {@code Hello.class}. */
    private static String className(String program) throws UsageException {
        if (program.endsWith(".class") || program.contains("/") || program.contains("\\")) {
            throw new UsageException("'" + program + "' is not a class name: give the class with its package,"
                + " like pkg.Hello, and its root directory with -cp");
        }
        return program;
    }
}
