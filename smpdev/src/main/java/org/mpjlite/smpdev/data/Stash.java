package org.mpjlite.smpdev.data;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import mpjbuf.BufferFactory;

/**
 * The eager protocol's copy of a message: the sender's data written into a pooled
 * {@link mpjbuf.Buffer} as one typed section, so the sender can reuse its buffer at once; the
 * receiver reads it out and frees it.
 *
 * <p>Stateless; thread-safe (the pooled buffer is owned by one message at a time).
 */
public final class Stash {
    private Stash() {
    }

    public static mpjbuf.Buffer fill(BufferFactory pool, Object src, int index, int n, BasicType type) {
        mpjbuf.Buffer b = pool.getBuffer(mpjbuf.Buffer.sectionBytes(type.bufType(), n));
        b.putSectionHeader(type.bufType());
        put(b, src, index, n, type);
        b.commit();
        return b;
    }

    /**
     * As {@link #fill}, for elements in two places: the first {@code n1} elements of {@code first},
     * then the first {@code n2} of {@code second} (an array or a NIO buffer each; {@code second} is
     * not read when {@code n2} is 0).
     */
    public static mpjbuf.Buffer fill(BufferFactory pool, Object first, int n1, Object second, int n2, BasicType type) {
        mpjbuf.Buffer b = pool.getBuffer(mpjbuf.Buffer.sectionBytes(type.bufType(), n1 + n2));
        b.putSectionHeader(type.bufType());
        put(b, first, 0, n1, type);
        if (n2 > 0) {
            put(b, second, 0, n2, type);
        }
        b.commit();
        return b;
    }

    /**
     * Reads the first {@code n} elements of the stash into the user's buffer; objects resolve their
     * classes in {@code loader} (the receiving rank's).
     */
    public static void drain(mpjbuf.Buffer b, Object dst, int index, int n, BasicType type, ClassLoader loader) {
        b.getSectionHeader();
        get(b, dst, index, n, type, loader);
    }

    /** Appends {@code n} elements of {@code target} (an array or a NIO buffer) from {@code index}. */
    static void put(mpjbuf.Buffer b, Object target, int index, int n, BasicType type) {
        if (target instanceof Buffer) {
            write(b, Copier.view((Buffer) target, type), index, n, type);
        } else {
            write(b, target, index, n);
        }
    }

    /** Reads the next {@code n} elements into {@code target} (an array or a NIO buffer) from {@code index}. */
    static void get(mpjbuf.Buffer b, Object target, int index, int n, BasicType type, ClassLoader loader) {
        if (target instanceof Buffer) {
            read(b, Copier.view((Buffer) target, type), index, n, type);
        } else if (target instanceof Object[]) {
            b.read((Object[]) target, index, n, loader);
        } else {
            read(b, target, index, n);
        }
    }

    private static void write(mpjbuf.Buffer b, Object src, int off, int n) {
        if (src instanceof byte[]) {
            b.write((byte[]) src, off, n);
        } else if (src instanceof char[]) {
            b.write((char[]) src, off, n);
        } else if (src instanceof short[]) {
            b.write((short[]) src, off, n);
        } else if (src instanceof boolean[]) {
            b.write((boolean[]) src, off, n);
        } else if (src instanceof int[]) {
            b.write((int[]) src, off, n);
        } else if (src instanceof long[]) {
            b.write((long[]) src, off, n);
        } else if (src instanceof float[]) {
            b.write((float[]) src, off, n);
        } else if (src instanceof Object[]) {
            b.write((Object[]) src, off, n);
        } else {
            b.write((double[]) src, off, n);
        }
    }

    private static void write(mpjbuf.Buffer b, Buffer view, int index, int n, BasicType type) {
        if (type == BasicType.BOOLEAN) {
            boolean[] tmp = new boolean[n];
            Copier.copy(view, index, tmp, 0, n, type);
            b.write(tmp, 0, n);
        } else if (view instanceof ByteBuffer) {
            b.write((ByteBuffer) view, index, n);
        } else if (view instanceof CharBuffer) {
            b.write((CharBuffer) view, index, n);
        } else if (view instanceof ShortBuffer) {
            b.write((ShortBuffer) view, index, n);
        } else if (view instanceof IntBuffer) {
            b.write((IntBuffer) view, index, n);
        } else if (view instanceof LongBuffer) {
            b.write((LongBuffer) view, index, n);
        } else if (view instanceof FloatBuffer) {
            b.write((FloatBuffer) view, index, n);
        } else {
            b.write((DoubleBuffer) view, index, n);
        }
    }

    private static void read(mpjbuf.Buffer b, Object dst, int off, int n) {
        if (dst instanceof byte[]) {
            b.read((byte[]) dst, off, n);
        } else if (dst instanceof char[]) {
            b.read((char[]) dst, off, n);
        } else if (dst instanceof short[]) {
            b.read((short[]) dst, off, n);
        } else if (dst instanceof boolean[]) {
            b.read((boolean[]) dst, off, n);
        } else if (dst instanceof int[]) {
            b.read((int[]) dst, off, n);
        } else if (dst instanceof long[]) {
            b.read((long[]) dst, off, n);
        } else if (dst instanceof float[]) {
            b.read((float[]) dst, off, n);
        } else {
            b.read((double[]) dst, off, n);
        }
    }

    private static void read(mpjbuf.Buffer b, Buffer view, int index, int n, BasicType type) {
        if (type == BasicType.BOOLEAN) {
            boolean[] tmp = new boolean[n];
            b.read(tmp, 0, n);
            Copier.copy(tmp, 0, view, index, n, type);
        } else if (view instanceof ByteBuffer) {
            b.read((ByteBuffer) view, index, n);
        } else if (view instanceof CharBuffer) {
            b.read((CharBuffer) view, index, n);
        } else if (view instanceof ShortBuffer) {
            b.read((ShortBuffer) view, index, n);
        } else if (view instanceof IntBuffer) {
            b.read((IntBuffer) view, index, n);
        } else if (view instanceof LongBuffer) {
            b.read((LongBuffer) view, index, n);
        } else if (view instanceof FloatBuffer) {
            b.read((FloatBuffer) view, index, n);
        } else {
            b.read((DoubleBuffer) view, index, n);
        }
    }
}
