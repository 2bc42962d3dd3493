package org.mpjlite.compat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code javap -public} listing of an {@code mpi} package (a test resource), checked against the
 * classes of this build by reflection: every class, constructor, method and field it lists must
 * exist with the same static-ness and parameter types, or parameters that accept them (ours take
 * {@code Object} where Open MPI takes a {@code Buffer}: a program compiles the same); a field or
 * method return type must be assignable to the listed one (covariant returns compile the same),
 * and a method listed as {@code void} may return something here; a field the listing
 * declares final must be final here (programs use it in constant expressions and {@code case}
 * labels), while one that is final here but not in the listing is accepted (only a program that
 * assigns to MPI's constants would notice). Inherited public members count: a program compiles the
 * same whether a member is declared in the class or in its superclass.
 *
 * <p>Types are resolved as javap prints them: qualified, or simple in {@code mpi}, {@code java.lang},
 * {@code java.nio} or {@code java.util}; a type that does not resolve (an MPJ Express internal such
 * as {@code mpjdev.Group}) makes its member missing.
 */
final class ApiListing {
    private static final Pattern CLASS = Pattern.compile(
        "public (?:final |abstract )*(?:class|interface) ([\\w.$]+)(?: extends ([\\w.$]+))?(?: implements .*)? \\{");
    private static final Pattern MEMBER = Pattern.compile(
        "public ((?:(?:static|final|abstract|native|synchronized|transient|volatile) )*)"
            + "(?:<(\\w+) extends ([\\w.$]+)> )?(?:([\\w.$\\[\\]]+) )?([\\w.$]+)(?:\\(([^)]*)\\))?(?: throws .*)?;");
    private static final String[] PACKAGES = {"mpi.", "java.lang.", "java.nio.", "java.util."};

    private ApiListing() {
    }

    /**
     * A listed member (or {@code class Name}) missing here or different.
     *
     * @param member the member as listed ({@link #describe}), without {@code public} and packages
     * @param problem how ours differs, or empty when it is missing
     * @param types the listed types (as listed, without array brackets) that do not exist here
     */
    record Gap(String member, String problem, List<String> types) {
        @Override
        public String toString() {
            return problem.isEmpty() ? member : member + " (" + problem + ")";
        }
    }

    /** The gap: per listed class (simple name), what is missing or differs. */
    static Map<String, List<Gap>> gaps(String resource) throws IOException {
        Map<String, List<Gap>> gaps = new java.util.TreeMap<>();
        String text;
        try (InputStream in = ApiListing.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("no test resource " + resource);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Class<?> current = null;
        String currentName = null;
        for (String raw : text.split("\n")) {
            String line = raw.trim();
            Matcher c = CLASS.matcher(line);
            if (c.matches()) {
                currentName = simple(c.group(1));
                current = resolve(c.group(1));
                List<Gap> gap = gaps.computeIfAbsent(currentName, k -> new ArrayList<>());
                if (current == null) {
                    gap.add(new Gap("class " + currentName, "", List.of(c.group(1))));
                } else if (c.group(2) != null) {
                    Class<?> sup = resolve(c.group(2));
                    if (sup != null && !sup.isAssignableFrom(current)) {
                        gap.add(new Gap("class " + currentName, "does not extend " + c.group(2), List.of()));
                    }
                }
                continue;
            }
            if (currentName == null || !line.startsWith("public ")) {
                continue;
            }
            Matcher m = MEMBER.matcher(line);
            if (!m.matches()) {
                throw new IOException(resource + ": cannot read the member " + line);
            }
            List<String> unknown = unknownTypes(m);
            if (current == null) {
                gaps.get(currentName).add(new Gap(describe(m), "", unknown));
                continue;
            }
            String problem = check(current, currentName, m);
            if (problem != null) {
                gaps.get(currentName).add(new Gap(describe(m), problem, unknown));
            }
        }
        gaps.values().removeIf(List::isEmpty);
        return gaps;
    }

    /** Null when {@code current} has the member; empty when it is missing; else how it differs. */
    private static String check(Class<?> current, String className, Matcher m) {
        String modifiers = m.group(1);
        boolean isStatic = modifiers.contains("static");
        boolean isFinal = modifiers.contains("final");
        Map<String, String> typeVars = new HashMap<>();
        if (m.group(2) != null) {
            typeVars.put(m.group(2), m.group(3));
        }
        String type = m.group(4);
        String name = simple(m.group(5));
        String params = m.group(6);
        if (params == null) {
            Class<?> t = resolve(type);
            Field f;
            try {
                f = current.getField(name);
            } catch (NoSuchFieldException e) {
                return "";
            }
            if (t == null || !t.isAssignableFrom(f.getType())) {
                return "here: " + f.getType().getSimpleName();
            }
            int mod = f.getModifiers();
            if (Modifier.isStatic(mod) != isStatic || isFinal && !Modifier.isFinal(mod)) {
                return "here: " + Modifier.toString(mod);
            }
            return null;
        }
        List<Class<?>> ps = new ArrayList<>();
        for (String p : params.isBlank() ? new String[0] : params.split(",")) {
            Class<?> pc = resolve(typeVars.getOrDefault(p.trim(), p.trim()));
            if (pc == null) {
                return "";
            }
            ps.add(pc);
        }
        boolean constructor = type == null && name.equals(className);
        Class<?> want = constructor || type.equals("void") ? null : resolve(typeVars.getOrDefault(type, type));
        if (!constructor && !type.equals("void") && want == null) {
            return "";
        }
        List<Executable> found = find(constructor ? current.getConstructors() : current.getMethods(), name,
            constructor, ps);
        if (found.isEmpty()) {
            return "";
        }
        // javap lists the bridge methods of covariant overrides too: any overload that returns a
        // subtype of the listed type will do.
        Executable e = found.stream().filter(x -> want == null || want.isAssignableFrom(((Method) x).getReturnType()))
            .findFirst().orElse(null);
        if (e == null) {
            return "here returns " + ((Method) found.get(0)).getReturnType().getSimpleName();
        }
        if (Modifier.isStatic(e.getModifiers()) != isStatic) {
            return "here: " + Modifier.toString(e.getModifiers());
        }
        return null;
    }

    /**
     * The methods or constructors a call with arguments of the listed types could pick: the same
     * types, else (as {@code Object} for Open MPI's {@code Buffer}) parameters that accept them.
     */
    private static List<Executable> find(Executable[] candidates, String name, boolean constructor,
                                         List<Class<?>> ps) {
        List<Executable> same = new ArrayList<>();
        List<Executable> accepting = new ArrayList<>();
        for (Executable c : candidates) {
            if (!constructor && !c.getName().equals(name) || c.getParameterCount() != ps.size()) {
                continue;
            }
            Class<?>[] have = c.getParameterTypes();
            boolean exact = true;
            boolean accepts = true;
            for (int i = 0; i < have.length; i++) {
                exact &= have[i] == ps.get(i);
                accepts &= have[i] == ps.get(i) || !have[i].isPrimitive() && have[i].isAssignableFrom(ps.get(i));
            }
            if (exact) {
                same.add(c);
            } else if (accepts) {
                accepting.add(c);
            }
        }
        return same.isEmpty() ? accepting : same;
    }

    /** The member's types (generic bounds included) that do not exist here, as listed. */
    private static List<String> unknownTypes(Matcher m) {
        List<String> names = new ArrayList<>();
        if (m.group(3) != null) {
            names.add(m.group(3));
        }
        if (m.group(4) != null && !m.group(4).equals(m.group(2))) {
            names.add(m.group(4));
        }
        if (m.group(6) != null && !m.group(6).isBlank()) {
            for (String p : m.group(6).split(",")) {
                if (!p.trim().equals(m.group(2))) {
                    names.add(p.trim());
                }
            }
        }
        List<String> unknown = new ArrayList<>();
        for (String n : names) {
            String base = n.replace("[]", "").replace('$', '.');
            if (resolve(n) == null && !unknown.contains(base)) {
                unknown.add(base);
            }
        }
        return unknown;
    }

    /** The member as the listing gives it, without {@code public}, packages and {@code throws}. */
    private static String describe(Matcher m) {
        String mods = m.group(1).trim();
        StringBuilder s = new StringBuilder(mods.isEmpty() ? "" : mods + " ");
        if (m.group(4) != null) {
            s.append(simple(m.group(4))).append(' ');
        }
        s.append(simple(m.group(5)));
        if (m.group(6) != null) {
            List<String> ps = new ArrayList<>();
            for (String p : m.group(6).isBlank() ? new String[0] : m.group(6).split(",")) {
                ps.add(simple(p.trim()));
            }
            s.append('(').append(String.join(", ", ps)).append(')');
        }
        return s.toString();
    }

    private static String simple(String type) {
        String t = type.replace('$', '.');
        int dims = t.indexOf('[');
        String base = dims < 0 ? t : t.substring(0, dims);
        String suffix = dims < 0 ? "" : t.substring(dims);
        return base.substring(base.lastIndexOf('.') + 1) + suffix;
    }

    /** The class javap's {@code name} stands for, or null if there is none here. */
    static Class<?> resolve(String name) {
        if (name.endsWith("[]")) {
            Class<?> c = resolve(name.substring(0, name.length() - 2));
            return c == null ? null : c.arrayType();
        }
        switch (name) {
            case "boolean": return boolean.class;
            case "byte": return byte.class;
            case "char": return char.class;
            case "short": return short.class;
            case "int": return int.class;
            case "long": return long.class;
            case "float": return float.class;
            case "double": return double.class;
            case "void": return void.class;
            default: break;
        }
        List<String> candidates = new ArrayList<>();
        if (name.contains(".")) {
            candidates.add(name);
        }
        for (String p : PACKAGES) {
            candidates.add(p + name);
        }
        for (String c : candidates) {
            try {
                return Class.forName(c, false, ApiListing.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                // try the next package
            }
        }
        return null;
    }
}
