package org.mpjlite.run;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The constant pool of a class file, as offsets into its bytes: what {@link ExitRedirect} rewrites
 * and what {@link ProgramClasses} reads the types a class's member references name from.
 *
 * <p>Not thread-safe: use on one thread (it only reads the bytes, which must not change meanwhile).
 */
final class ClassFilePool {
    static final int UTF8 = 1;
    static final int LONG = 5;
    static final int DOUBLE = 6;
    static final int CLASS = 7;
    static final int FIELDREF = 9;
    static final int METHODREF = 10;
    static final int INTERFACE_METHODREF = 11;
    static final int NAME_AND_TYPE = 12;

    final byte[] bytes;
    final ByteBuffer in;
    /** Entries, counting the unused index 0 (the class file's {@code constant_pool_count}). */
    final int count;
    /** Where the pool ends in {@link #bytes}: entries appended here keep every other offset. */
    final int end;
    /** Offset of each entry's tag, by index; 0 for index 0 and the slot after a long or double. */
    private final int[] offsets;

    /**
     * @throws IllegalArgumentException if the bytes are not a class file; a malformed one may throw
     *         other runtime exceptions (an index out of bounds)
     */
    ClassFilePool(byte[] classFile) {
        bytes = classFile;
        in = ByteBuffer.wrap(classFile);
        if (in.getInt(0) != 0xCAFEBABE) {
            throw new IllegalArgumentException("not a class file");
        }
        count = in.getChar(8);
        offsets = new int[count];
        int pos = 10;
        for (int i = 1; i < count; i++) {
            offsets[i] = pos;
            int tag = classFile[pos] & 0xFF;
            pos += entrySize(pos, tag);
            if (tag == LONG || tag == DOUBLE) {
                i++;
            }
        }
        end = pos;
    }

    private int entrySize(int pos, int tag) {
        switch (tag) {
            case UTF8:
                return 3 + in.getChar(pos + 1);
            case 3: case 4: case FIELDREF: case METHODREF: case INTERFACE_METHODREF: case NAME_AND_TYPE: case 17: case 18:
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

    /** Offset of entry {@code index}'s tag in {@link #bytes}; 0 for an unused index. */
    int offset(int index) {
        return offsets[index];
    }

    /** The tag of entry {@code index}; 0 for an unused index. */
    int tag(int index) {
        int at = offsets[index];
        return at == 0 ? 0 : bytes[at] & 0xFF;
    }

    /** The {@code n}th two-byte index of entry {@code index} (a member reference's class is 0, its name and type 1). */
    int ref(int index, int n) {
        return in.getChar(offsets[index] + 1 + 2 * n);
    }

    /** Whether entry {@code index} is the UTF-8 constant {@code ascii}. */
    boolean utf8Is(int index, String ascii) {
        int at = offsets[index];
        if (bytes[at] != UTF8 || in.getChar(at + 1) != ascii.length()) {
            return false;
        }
        byte[] expected = ascii.getBytes(StandardCharsets.US_ASCII);
        return Arrays.equals(bytes, at + 3, at + 3 + expected.length, expected, 0, expected.length);
    }

    /**
     * The binary names ({@code java.lang.String}) of the classes named in the descriptors of the
     * fields and methods this class refers to: the types the JVM checks loader constraints on when
     * it links a reference to a class of another loader.
     */
    Set<String> memberDescriptorTypes() {
        Set<String> types = new LinkedHashSet<>();
        for (int i = 1; i < count; i++) {
            int tag = tag(i);
            if (tag == FIELDREF || tag == METHODREF || tag == INTERFACE_METHODREF) {
                int nat = ref(i, 1);
                if (tag(nat) == NAME_AND_TYPE) {
                    addDescriptorTypes(ref(nat, 1), types);
                }
            }
        }
        return types;
    }

    private void addDescriptorTypes(int utf8, Set<String> types) {
        int at = offsets[utf8];
        if (bytes[at] != UTF8) {
            return;
        }
        int from = at + 3;
        int to = from + in.getChar(at + 1);
        for (int i = from; i < to; i++) {
            if (bytes[i] == 'L') {
                int semicolon = i + 1;
                while (semicolon < to && bytes[semicolon] != ';') {
                    semicolon++;
                }
                // Class names in descriptors are modified UTF-8, which is UTF-8 for every name javac writes.
                types.add(new String(bytes, i + 1, semicolon - i - 1, StandardCharsets.UTF_8).replace('/', '.'));
                i = semicolon;
            }
        }
    }
}
