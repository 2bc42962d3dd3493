package org.mpjlite.benchmarks;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Two builds of the device side by side in one JVM: each build's classes in a class loader of its
 * own, the same {@link DeviceLoop} defined in both (a 2-rank ping-pong, Allreduce or Bcast loop),
 * the two run in alternating segments, and the ratio of each pair of segments reported. On a machine whose speed changes
 * from second to second (a shared host that moves the virtual cores), segments a few milliseconds
 * apart see the same machine, so the ratios are steadier than medians of separate runs.
 *
 * <p>Usage: {@code SideBySide A B [--size BYTES] [--segments N] [--round-trips N] [--warmup N]
 * [--matching LOCK_FREE|LOCKED] [--loop pingpong|allreduce|bcast|stream|stream-after-small|solo|solo-posted]
 * [--thread-level single|funneled|serialized|multiple]}, where A and B are class paths of a build (each the device's
 * modules' classes and JCTools), such as {@code benchmarks/side-by-side} assembles from two
 * checkouts. Prints one line: each build's median one-way time and its first quartile, and the
 * median and quartiles of the per-pair ratio B/A. Each pair runs A first or B first in turn.
 */
public final class SideBySide {
    private SideBySide() {
    }

    /** The settings of one comparison. */
    record Settings(int size, int segments, int roundTrips, int warmup, String matching, String loop,
                    boolean multiple) {
        static Settings parse(List<String> args) {
            int size = 8;
            int segments = 40;
            int roundTrips = 20_000;
            int warmup = 30;
            String matching = "LOCK_FREE";
            String loop = "pingpong";
            boolean multiple = false;
            for (int i = 0; i < args.size(); i += 2) {
                String value = i + 1 < args.size() ? args.get(i + 1) : null;
                if (value == null) {
                    throw new IllegalArgumentException(args.get(i) + " needs a value");
                }
                switch (args.get(i)) {
                    case "--size" -> size = Integer.parseInt(value);
                    case "--segments" -> segments = Integer.parseInt(value);
                    case "--round-trips" -> roundTrips = Integer.parseInt(value);
                    case "--warmup" -> warmup = Integer.parseInt(value);
                    case "--matching" -> matching = value;
                    case "--loop" -> loop = value;
                    case "--thread-level" -> multiple = threadLevel(value);
                    default -> throw new IllegalArgumentException("unknown option " + args.get(i));
                }
            }
            if (size < 0 || segments < 1 || roundTrips < 1 || warmup < 0) {
                throw new IllegalArgumentException("sizes and counts must be positive");
            }
            return new Settings(size, segments, roundTrips, warmup, matching, loop, multiple);
        }

        /** True for a level at which any thread of a rank may call MPI, so that its mailbox locks. */
        private static boolean threadLevel(String level) {
            return switch (level) {
                case "single", "funneled" -> false;
                case "serialized", "multiple" -> true;
                default -> throw new IllegalArgumentException("unknown thread level " + level
                    + ": single, funneled, serialized or multiple");
            };
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: SideBySide CLASSPATH_A CLASSPATH_B [--size BYTES] [--segments N]"
                + " [--round-trips N] [--warmup N] [--matching LOCK_FREE|LOCKED] [--loop pingpong|allreduce|bcast|stream|stream-after-small|solo|solo-posted]"
                + " [--thread-level single|funneled|serialized|multiple]");
            System.exit(2);
        }
        Settings settings = Settings.parse(Arrays.asList(args).subList(2, args.length));
        report(compare(args[0], args[1], settings), settings, System.out);
        System.exit(0); // the echo threads are daemons, but a job's supervisor may not be
    }

    /** Per segment: A's and B's one-way times in nanoseconds. */
    static double[][] compare(String classPathA, String classPathB, Settings settings) throws Exception {
        Segments a = Segments.load(classPathA, settings);
        Segments b = Segments.load(classPathB, settings);
        for (int i = 0; i < settings.warmup(); i++) {
            a.run(settings.roundTrips());
            b.run(settings.roundTrips());
        }
        double[][] times = new double[2][settings.segments()];
        for (int i = 0; i < settings.segments(); i++) {
            if (i % 2 == 0) {
                times[0][i] = a.run(settings.roundTrips());
                times[1][i] = b.run(settings.roundTrips());
            } else {
                times[1][i] = b.run(settings.roundTrips());
                times[0][i] = a.run(settings.roundTrips());
            }
        }
        return times;
    }

    static void report(double[][] times, Settings settings, PrintStream out) {
        double[] ratio = new double[times[0].length];
        for (int i = 0; i < ratio.length; i++) {
            ratio[i] = times[1][i] / times[0][i];
        }
        out.printf(Locale.ROOT, "%s%s, size %d B, %d segments of %d iterations: A %.1f ns (q1 %.1f), B %.1f ns (q1 %.1f),"
                + " B/A %.3f (q1 %.3f, q3 %.3f)%n", settings.loop(), settings.multiple() ? " (owner lock)" : "",
            settings.size(), ratio.length, settings.roundTrips(),
            quantile(times[0], 0.5), quantile(times[0], 0.25), quantile(times[1], 0.5), quantile(times[1], 0.25),
            quantile(ratio, 0.5), quantile(ratio, 0.25), quantile(ratio, 0.75));
    }

    static double quantile(double[] values, double q) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.round(q * (sorted.length - 1))];
    }

    /** One build's {@link DeviceLoop}, called by reflection across its class loader. */
    private record Segments(Object pingPong, Method segment) {
        static Segments load(String classPath, Settings settings) throws Exception {
            ClassLoader loader = new BuildLoader(urls(classPath));
            Class<?> c = loader.loadClass(DeviceLoop.class.getName());
            Object p = c.getConstructor(String.class, int.class, String.class, boolean.class)
                .newInstance(settings.loop(), settings.size(), settings.matching(), settings.multiple());
            return new Segments(p, c.getMethod("segment", int.class));
        }

        double run(int roundTrips) throws IllegalAccessException, InvocationTargetException {
            return (double) segment.invoke(pingPong, roundTrips);
        }
    }

    private static URL[] urls(String classPath) throws MalformedURLException {
        List<URL> urls = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                urls.add(new File(entry).toURI().toURL());
            }
        }
        return urls.toArray(URL[]::new);
    }

    /**
     * A build's classes over the platform loader (none of this JVM's application classes), plus
     * {@link DeviceLoop} and its nested classes defined from this class's own copies, so that each build runs the same
     * loop linked against its own device.
     */
    private static final class BuildLoader extends URLClassLoader {
        BuildLoader(URL[] build) {
            super(build, ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            String loop = DeviceLoop.class.getName();
            if (!name.equals(loop) && !name.startsWith(loop + "$")) {
                return super.findClass(name);
            }
            String resource = name.replace('.', '/') + ".class";
            try (InputStream in = SideBySide.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] bytes = in.readAllBytes();
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }
}
