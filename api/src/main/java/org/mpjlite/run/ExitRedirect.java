package org.mpjlite.run;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
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
    private static final int UTF8 = 1;
    private static final int LONG = 5;
    private static final int DOUBLE = 6;
    private static final int CLASS = 7;
    private static final int METHODREF = 10;
    private static final int NAME_AND_TYPE = 12;
    private static final byte[] TARGET = RankExit.class.getName().replace('.', '/').getBytes(StandardCharsets.UTF_8);

    private ExitRedirect() {
    }

    /**
     * The class file with {@code System.exit} redirected, or {@code classFile} itself when the class
     * does not call it (or is not a class file this reads: left for the JVM to judge).
     */
    static byte[] transform(byte[] classFile) {
        try {
            return redirect(classFile);
        } catch (RuntimeException malformed) {
            return classFile;
        }
    }

    private static byte[] redirect(byte[] b) {
        ByteBuffer in = ByteBuffer.wrap(b);
        if (in.getInt(0) != 0xCAFEBABE) {
            return b;
        }
        int count = in.getChar(8);
        int[] offsets = new int[count];
        int pos = 10;
        for (int i = 1; i < count; i++) {
            offsets[i] = pos;
            int tag = b[pos] & 0xFF;
            pos += entrySize(in, pos, tag);
            if (tag == LONG || tag == DOUBLE) {
                i++;
            }
        }
        int poolEnd = pos;
        List<Integer> exitRefs = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int at = offsets[i];
            if (at != 0 && b[at] == METHODREF && isSystemExit(b, in, offsets, in.getChar(at + 1), in.getChar(at + 3))) {
                exitRefs.add(at);
            }
        }
        if (exitRefs.isEmpty()) {
            return b;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(b.length + TARGET.length + 6);
        out.write(b, 0, poolEnd);
        out.write(UTF8);
        out.write(TARGET.length >> 8);
        out.write(TARGET.length);
        out.write(TARGET, 0, TARGET.length);
        out.write(CLASS);
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

    private static int entrySize(ByteBuffer in, int pos, int tag) {
        switch (tag) {
            case UTF8:
                return 3 + in.getChar(pos + 1);
            case 3: case 4: case 9: case METHODREF: case 11: case NAME_AND_TYPE: case 17: case 18:
                return 5;
            case LONG: case DOUBLE:
                return 9;
            case CLASS: case 8: case 16: case 19: case 20:
                return 3;
            case 15:
                return 4;
            default:
                throw new IllegalArgumentException("unknown constant pool tag " + tag);
        }
    }

    private static boolean isSystemExit(byte[] b, ByteBuffer in, int[] offsets, int classIndex, int natIndex) {
        int cls = offsets[classIndex];
        int nat = offsets[natIndex];
        return b[cls] == CLASS && b[nat] == NAME_AND_TYPE
            && utf8Is(b, in, offsets[in.getChar(cls + 1)], "java/lang/System")
            && utf8Is(b, in, offsets[in.getChar(nat + 1)], "exit")
            && utf8Is(b, in, offsets[in.getChar(nat + 3)], "(I)V");
    }

    private static boolean utf8Is(byte[] b, ByteBuffer in, int at, String ascii) {
        if (b[at] != UTF8 || in.getChar(at + 1) != ascii.length()) {
            return false;
        }
        byte[] expected = ascii.getBytes(StandardCharsets.US_ASCII);
        return Arrays.equals(b, at + 3, at + 3 + expected.length, expected, 0, expected.length);
    }
}
