package org.mpjlite.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpjlite.run.fixtures.StaticCounterMain;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.JobResult;
import org.mpjlite.smpdev.Rank;

/** Where a rank's classes come from; loads classes without initializing them (no MPI needed). */
class RankClassLoaderTest {
    private static final ClassLoader PARENT = RankClassLoaderTest.class.getClassLoader();

    @TempDir
    Path dir;

    private RankClassLoader loader(Path... classpath) throws Exception {
        URL[] urls = new URL[classpath.length];
        for (int i = 0; i < classpath.length; i++) {
            urls[i] = classpath[i].toUri().toURL();
        }
        return new RankClassLoader(null, new ProgramClasses(PARENT, Map.of(), urls));
    }

    private static Path testClasses() throws Exception {
        return Path.of(StaticCounterMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Test
    void userClassesAreChildFirstEvenWhenTheParentHasThem() throws Exception {
        try (RankClassLoader a = loader(testClasses()); RankClassLoader b = loader(testClasses())) {
            Class<?> inA = a.loadClass(StaticCounterMain.class.getName());
            Class<?> inB = b.loadClass(StaticCounterMain.class.getName());
            assertSame(a, inA.getClassLoader());
            assertSame(b, inB.getClassLoader());
            assertNotSame(StaticCounterMain.class, inA);
        }
    }

    @Test
    void mpiClassIsPerRankAndTheRestOfTheRuntimeIsShared() throws Exception {
        try (RankClassLoader a = loader(testClasses()); RankClassLoader b = loader(testClasses())) {
            Class<?> mpiA = a.loadClass("mpi.MPI");
            assertSame(a, mpiA.getClassLoader());
            assertNotSame(mpiA, b.loadClass("mpi.MPI"));
            assertSame(mpi.MPIException.class, a.loadClass("mpi.MPIException"));
            assertSame(mpi.Comm.class, a.loadClass("mpi.Comm"));
            assertSame(mpi.Int2.class, a.loadClass("mpi.Int2"), "MPI.int2 is one shared instance");
            assertSame(Job.class, a.loadClass(Job.class.getName()));
            assertSame(MpjRun.class, a.loadClass(MpjRun.class.getName()));
            assertSame(String.class, a.loadClass("java.lang.String"));
        }
    }

    @Test
    void mpiComesFromTheRuntimeEvenIfTheUserClasspathHasAnother(@TempDir Path oldMpj) throws Exception {
        Path fake = Sources.write(oldMpj.resolve("src"), "mpi/MPI.java",
            "package mpi; public class MPI { public static final String IMPL = \"old\"; }");
        Path fakeComm = Sources.write(oldMpj.resolve("src"), "mpi/Comm.java", "package mpi; public class Comm { }");
        Sources.compile(oldMpj.resolve("classes"), fake, fakeComm);
        Path jar = Sources.jar(oldMpj.resolve("mpj.jar"), oldMpj.resolve("classes"), null);
        try (RankClassLoader a = loader(jar)) {
            Class<?> mpi = a.loadClass("mpi.MPI");
            assertSame(a, mpi.getClassLoader());
            assertThrows(NoSuchFieldException.class, () -> mpi.getDeclaredField("IMPL"), "the jar's MPI was loaded");
            assertSame(mpi.Comm.class, a.loadClass("mpi.Comm"));
        }
    }

    @Test
    void compiledClassesComeFirst() throws Exception {
        Path src = Sources.write(dir, "p/Hello.java", "package p; public class Hello { }");
        Sources.compile(dir.resolve("out"), src);
        byte[] bytes = Files.readAllBytes(dir.resolve("out/p/Hello.class"));
        try (RankClassLoader l = new RankClassLoader(null,
                new ProgramClasses(PARENT, Map.of("p.Hello", bytes), new URL[0]))) {
            assertSame(l, l.loadClass("p.Hello").getClassLoader());
        }
    }

    /**
     * The shared types a rank's loader loads after defining a class, so that linking it records no
     * loader constraint: those its member references name (fields and methods of other classes),
     * the runtime's and the JDK's, not the program's own.
     */
    @Test
    void sharedTypesAreThoseTheMemberReferencesNameOutsideTheProgram() throws Exception {
        Path src = Sources.write(dir, "p/Uses.java", String.join("\n",
            "package p;",
            "public class Uses {",
            "    static Helper helper;",
            "    static void run() {",
            "        long[] s = new long[1];",
            "        mpi.MPI.COMM_WORLD.Allreduce(s, 0, s, 0, 1, mpi.MPI.LONG, mpi.MPI.SUM);",
            "        helper = new Helper();",
            "        helper.take(new Uses(), new StringBuilder());",
            "    }",
            "}",
            "class Helper { void take(Uses u, StringBuilder b) { } }",
            ""));
        Sources.compile(dir.resolve("out"), src);
        Map<String, byte[]> compiled = Map.of(
            "p.Uses", Files.readAllBytes(dir.resolve("out/p/Uses.class")),
            "p.Helper", Files.readAllBytes(dir.resolve("out/p/Helper.class")));
        ProgramClasses classes = new ProgramClasses(PARENT, compiled, new URL[0]);
        List<String> types = List.of(classes.sharedTypes("p.Uses", classes.definition("p.Uses")));
        assertTrue(types.containsAll(List.of("mpi.Intracomm", "mpi.Datatype", "mpi.Op", "java.lang.Object",
            "java.lang.StringBuilder")), types.toString());
        assertFalse(types.contains("p.Uses") || types.contains("p.Helper"), types.toString());
        try (RankClassLoader l = new RankClassLoader(null, classes)) {
            assertSame(l, l.loadClass("p.Uses").getClassLoader());
            assertSame(mpi.Datatype.class, Class.forName("mpi.Datatype", false, l));
        }
    }

    /** Read once for all ranks, a class of the user class path still comes with its code source and its jar's manifest. */
    @Test
    void classesOfTheClasspathKeepTheirCodeSourceAndPackageVersion() throws Exception {
        Path src = Sources.write(dir, "q/Versioned.java", "package q; public class Versioned { }");
        Sources.compile(dir.resolve("out"), src);
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, "4.2");
        Path jar = dir.resolve("versioned.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.putNextEntry(new JarEntry("q/Versioned.class"));
            out.write(Files.readAllBytes(dir.resolve("out/q/Versioned.class")));
            out.closeEntry();
        }
        URL[] classpath = {jar.toUri().toURL(), testClasses().toUri().toURL()};
        try (ProgramClasses shared = new ProgramClasses(PARENT, Map.of(), classpath);
             RankClassLoader a = new RankClassLoader(null, shared);
             RankClassLoader b = new RankClassLoader(null, shared)) {
            Class<?> inA = a.loadClass("q.Versioned");
            Class<?> inB = b.loadClass("q.Versioned");
            assertNotSame(inA, inB);
            for (Class<?> c : List.of(inA, inB)) {
                assertEquals("4.2", c.getPackage().getImplementationVersion());
                assertEquals(jar.toUri().toURL(), c.getProtectionDomain().getCodeSource().getLocation());
            }
            Class<?> fromDirectory = a.loadClass(StaticCounterMain.class.getName());
            assertEquals(testClasses().toUri().toURL(), fromDirectory.getProtectionDomain().getCodeSource().getLocation());
        }
    }

    @Test
    void resourcesAreChildFirst() throws Exception {
        Files.writeString(dir.resolve("junit-platform.properties"), "mine");
        try (RankClassLoader l = loader(dir)) {
            URL url = l.getResource("junit-platform.properties");
            assertEquals(dir.resolve("junit-platform.properties").toUri().toURL(), url);
            List<URL> all = Collections.list(l.getResources("junit-platform.properties"));
            assertEquals(url, all.get(0));
            assertTrue(all.size() >= 2, "the parent's copy follows: " + all);
        }
    }

    @Test
    void belongsToItsRank() {
        JobResult result = Job.run(JobConfig.builder().ranks(2).build(), rank -> {
            try (RankClassLoader l = new RankClassLoader(rank,
                    new ProgramClasses(PARENT, Map.of(), new URL[0]))) {
                return Rank.ofLoader(l) == rank;
            }
        });
        assertEquals(List.of(true, true), result.results());
    }
}
