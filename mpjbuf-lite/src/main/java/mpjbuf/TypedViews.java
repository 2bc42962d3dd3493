package mpjbuf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * One typed NIO view per primitive type over the same bytes, all in one byte order.
 *
 * <p>Element {@code i} of a view is at byte {@code i * size} of the storage, so a byte offset aligned to the
 * element size converts to a view index with a shift. Bulk copies go through the JDK 16+ absolute bulk methods
 * ({@code put(int index, int[] src, int off, int len)} and the buffer-to-buffer variants), which copy with a single
 * {@code Unsafe.copyMemory} above a few bytes and element by element below, for heap and direct memory alike.
 * {@code org.mpjlite.benchmarks.CopyBenchmark} (benchmarks/jmh) measured them against per-element loops over the
 * view's absolute {@code put(int, int)} and over a {@code byteBufferViewVarHandle}: in native order the bulk
 * methods are the fastest from 16 elements up (3x the view loop and 5x the VarHandle loop at 64K ints) and within
 * noise below, so they are used. In swapped order the JDK's {@code copySwapMemory} is slower than the view loop
 * (about 2x at 256 and 64K ints); the default encoding is native, so swapped order keeps the same code path for
 * now.
 *
 * <p>Thread safety: only absolute operations are ever used, so position, limit and mark never change after
 * construction; the views belong to one {@link Buffer} and are used by whichever thread currently owns it.
 */
final class TypedViews
{
    final ByteBuffer bytes;
    final CharBuffer chars;
    final ShortBuffer shorts;
    final IntBuffer ints;
    final LongBuffer longs;
    final FloatBuffer floats;
    final DoubleBuffer doubles;

    TypedViews(final ByteBuffer memory, final ByteOrder order)
    {
        bytes = memory.duplicate().order(order);
        chars = bytes.asCharBuffer();
        shorts = bytes.asShortBuffer();
        ints = bytes.asIntBuffer();
        longs = bytes.asLongBuffer();
        floats = bytes.asFloatBuffer();
        doubles = bytes.asDoubleBuffer();
    }
}
