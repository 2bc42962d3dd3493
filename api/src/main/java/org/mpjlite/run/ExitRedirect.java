package org.mpjlite.run;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites a class file of the program so that its calls of {@code System.exit(int)} call
 * {@link RankExit#exit(int)} instead: under a real MPI, {@code System.exit} ends one process, and
 * programs call it on some ranks only (ranks a test does not need, after {@code MPI.Finalize});
 * with every rank a thread of one JVM it would end all of them.
 *
 * <p>Only the constant pool changes: a class entry for {@code RankExit} is appended, and every
 * method reference to {@code java/lang/System.exit:(I)V} points at it. No instruction moves, so
 * stack maps and offsets stay valid. Method handles ({@code System::exit}) go through the same
 * method reference and are redirected too. {@code Runtime.exit} and {@code Runtime.halt} are not.
 *
 * <p>Stateless; thread-safe.
 */
final class ExitRedirect {
    private static final byte[] TARGET = RankExit.class.getName().replace('.', '/').getBytes(StandardCharsets.UTF_8);

    private ExitRedirect() {
    }

    /**
     * The class file with {@code System.exit} redirected, or {@code classFile} itself when the class
     * does not call it (or is not a class file this reads: left for the JVM to judge).
     */
    static byte[] transform(byte[] classFile) {
        try {
            return redirect(new ClassFilePool(classFile));
        } catch (RuntimeException malformed) {
            return classFile;
        }
    }

    private static byte[] redirect(ClassFilePool pool) {
        byte[] b = pool.bytes;
        List<Integer> exitRefs = new ArrayList<>();
        for (int i = 1; i < pool.count; i++) {
            if (pool.tag(i) == ClassFilePool.METHODREF && isSystemExit(pool, pool.ref(i, 0), pool.ref(i, 1))) {
                exitRefs.add(pool.offset(i));
            }
        }
        if (exitRefs.isEmpty()) {
            return b;
        }
        int count = pool.count;
        int poolEnd = pool.end;
        ByteArrayOutputStream out = new ByteArrayOutputStream(b.length + TARGET.length + 6);
        out.write(b, 0, poolEnd);
        out.write(ClassFilePool.UTF8);
        out.write(TARGET.length >> 8);
        out.write(TARGET.length);
        out.write(TARGET, 0, TARGET.length);
        out.write(ClassFilePool.CLASS);
        out.write(count >> 8);
        out.write(count);
        out.write(b, poolEnd, b.length - poolEnd);
        byte[] result = out.toByteArray();
        int added = count + 2;
        result[8] = (byte) (added >> 8);
        result[9] = (byte) added;
        int classIndex = count + 1;
        for (int at : exitRefs) {
            result[at + 1] = (byte) (classIndex >> 8);
            result[at + 2] = (byte) classIndex;
        }
        return result;
    }

    private static boolean isSystemExit(ClassFilePool pool, int classIndex, int natIndex) {
        return pool.tag(classIndex) == ClassFilePool.CLASS && pool.tag(natIndex) == ClassFilePool.NAME_AND_TYPE
            && pool.utf8Is(pool.ref(classIndex, 0), "java/lang/System")
            && pool.utf8Is(pool.ref(natIndex, 0), "exit")
            && pool.utf8Is(pool.ref(natIndex, 1), "(I)V");
    }
}
