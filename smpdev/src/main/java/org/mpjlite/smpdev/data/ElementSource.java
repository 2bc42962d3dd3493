package org.mpjlite.smpdev.data;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The elements of a message in signature order, taken out run by run by a receive that scatters
 * them through its datatype. Two kinds: the sender's contiguous memory (a rendezvous message, or
 * packed bytes in a user buffer), and a stash of typed sections (an eager or gathered message).
 *
 * <p>Not thread-safe: one receive consumes one source.
 */
public abstract class ElementSource {
    /**
     * Moves the next {@code n} elements, of {@code type}, to byte {@code pos} of {@code dst}
     * ({@code packed}: as packed native-order bytes).
     */
    public abstract void take(BasicType type, Object dst, long pos, boolean packed, int n);

    /** Contiguous elements of a user buffer from a byte position; packed bytes are read as any type. */
    public static ElementSource memory(Object buffer, long pos, boolean packed) {
        return new Memory(buffer, pos, packed);
    }

    /** The sections of a committed stash; objects resolve their classes in {@code loader}. */
    public static ElementSource stash(mpjbuf.Buffer stash, ClassLoader loader) {
        return new Stashed(stash, loader, null);
    }

    /**
     * The sections of a committed stash as {@link #stash} takes them, looked at without reading
     * ({@link mpjbuf.Buffer#lookahead}): {@link #take} moves no data and fails as the same take of
     * {@link #stash} would (a section of another type, too few elements), leaving the stash as it was.
     */
    public static ElementSource checking(mpjbuf.Buffer stash) {
        return new Stashed(stash, null, stash.lookahead());
    }

    private static final class Memory extends ElementSource {
        private final Object buffer;
        private final boolean packed;
        private long pos;

        Memory(Object buffer, long pos, boolean packed) {
            this.buffer = buffer;
            this.pos = pos;
            this.packed = packed;
        }

        @Override
        public void take(BasicType type, Object dst, long dstPos, boolean dstPacked, int n) {
            UserMemory.copy(UserMemory.at(buffer, pos, type, packed), UserMemory.at(dst, dstPos, type, dstPacked), n,
                type);
            pos += (long) n * type.size();
        }
    }

    private static final class Stashed extends ElementSource {
        private final mpjbuf.Buffer stash;
        private final ClassLoader loader;
        /** Set when this source only checks ({@link #checking}): the sections are looked at, not read. */
        private final mpjbuf.Buffer.Lookahead lookahead;
        /** Elements (bytes, for a byte section) left in the current section. */
        private long left;
        private mpjbuf.Type section;

        Stashed(mpjbuf.Buffer stash, ClassLoader loader, mpjbuf.Buffer.Lookahead lookahead) {
            this.stash = stash;
            this.loader = loader;
            this.lookahead = lookahead;
        }

        @Override
        public void take(BasicType type, Object dst, long dstPos, boolean dstPacked, int n) {
            int done = 0;
            while (done < n) {
                if (left == 0) {
                    if (lookahead == null) {
                        section = stash.getSectionHeader();
                        left = stash.getSectionSize();
                    } else {
                        section = lookahead.nextSection();
                        left = lookahead.sectionSize();
                    }
                }
                long at = dstPos + (long) done * type.size();
                if (section == type.bufType()) {
                    int k = (int) Math.min(n - done, left);
                    if (lookahead == null) {
                        UserMemory.Place p = UserMemory.at(dst, at, type, dstPacked);
                        Stash.get(stash, p.target(), p.index(), k, type, loader);
                    }
                    left -= k;
                    done += k;
                } else {
                    // Packed bytes received as a wider type: read the bytes, decode them in native order.
                    int k = (int) Math.min(n - done, left / type.size());
                    int length = k * type.size();
                    if (lookahead == null) {
                        byte[] bytes = new byte[length];
                        stash.read(bytes, 0, length);
                        UserMemory.copy(new UserMemory.Place(ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()), 0),
                            UserMemory.at(dst, at, type, dstPacked), k, type);
                    } else if (section != mpjbuf.Type.BYTE) {
                        // What the read of the bytes would find.
                        throw new IllegalStateException("cannot read " + mpjbuf.Type.BYTE + " elements: the current"
                            + " section holds " + section);
                    }
                    left -= length;
                    done += k;
                    if (k == 0) {
                        throw new IllegalStateException("packed data ends inside an element of " + type.mpiName());
                    }
                }
            }
        }
    }
}
