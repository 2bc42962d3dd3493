package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Writes test programs to disk, compiles them with javac and packs them into jars. */
final class Sources {
    /**
     * A program in which every rank increments a static counter, waits for the others, and fails
     * unless it reads 1. Self-contained: Send and Recv make the barrier.
     */
    static final String STATIC_COUNTER = String.join("\n",
        "import mpi.*;",
        "public class Counter {",
        "    static int counter;",
        "    public static void main(String[] args) throws Exception {",
        "        MPI.Init(args);",
        "        counter++;",
        "        int me = MPI.COMM_WORLD.Rank(), size = MPI.COMM_WORLD.Size();",
        "        int[] token = new int[1];",
        "        if (me == 0) {",
        "            for (int r = 1; r < size; r++) MPI.COMM_WORLD.Recv(token, 0, 1, MPI.INT, r, 0);",
        "            for (int r = 1; r < size; r++) MPI.COMM_WORLD.Send(token, 0, 1, MPI.INT, r, 1);",
        "        } else {",
        "            MPI.COMM_WORLD.Send(token, 0, 1, MPI.INT, 0, 0);",
        "            MPI.COMM_WORLD.Recv(token, 0, 1, MPI.INT, 0, 1);",
        "        }",
        "        if (counter != 1) throw new IllegalStateException(\"rank \" + me + \" saw counter \" + counter);",
        "        MPI.Finalize();",
        "    }",
        "}",
        "");

    /**
     * Two ranks that each receive from the other before sending: a deadlock, with both ranks in the
     * Recv on line 7. {@code firstLine} is the import or package line.
     */
    static String headToHead(String firstLine) {
        return String.join("\n",
            firstLine,
            "public class HeadToHead {",
            "    public static void main(String[] args) {",
            "        MPI.Init(args);",
            "        int other = 1 - MPI.COMM_WORLD.Rank();",
            "        int[] buf = new int[1];",
            "        MPI.COMM_WORLD.Recv(buf, 0, 1, MPI.INT, other, 5);",
            "        MPI.COMM_WORLD.Send(buf, 0, 1, MPI.INT, other, 5);",
            "        MPI.Finalize();",
            "    }",
            "}",
            "");
    }

    private Sources() {
    }

    static Path write(Path dir, String fileName, String source) throws IOException {
        Path file = dir.resolve(fileName);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, source);
    }

    /** Compiles {@code sources} into {@code outDir} against the MPJ Lite runtime. */
    static void compile(Path outDir, Path... sources) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("-d", outDir.toString(), "-cp", runtimeClasspath()));
        for (Path s : sources) {
            args.add(s.toString());
        }
        Files.createDirectories(outDir);
        assertTrue(javac.run(null, null, null, args.toArray(new String[0])) == 0, "javac failed on " + args);
    }

    /** Packs the files under {@code classesDir} into a jar; {@code mainClass} may be null. */
    static Path jar(Path jarFile, Path classesDir, String mainClass) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (mainClass != null) {
            manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        }
        try (OutputStream file = Files.newOutputStream(jarFile);
             JarOutputStream jar = new JarOutputStream(file, manifest);
             Stream<Path> files = Files.walk(classesDir)) {
            for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                jar.putNextEntry(new JarEntry(classesDir.relativize(p).toString().replace(File.separatorChar, '/')));
                jar.write(Files.readAllBytes(p));
                jar.closeEntry();
            }
        }
        return jarFile;
    }

    private static String runtimeClasspath() {
        try {
            Path api = Path.of(mpi.MPI.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return api + File.pathSeparator + System.getProperty("java.class.path");
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
