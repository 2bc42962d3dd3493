package org.mpjlite.smpdev.collective;

import java.nio.Buffer;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.Copier;

/**
 * Combines the contributions of a range of members into one result, in rank order:
 * {@code x[from] op (x[from+1] op (... op x[to-1]))}. Works block by block, so the accumulator stays
 * in cache whatever the number of members, and stages NIO buffers through arrays (a {@link Reduction}
 * only sees arrays). The destination must not overlap a contribution (in-place callers snapshot
 * theirs), except that it may be the last contribution itself, at the same index (Reduce_local's
 * {@code inout}): each block reads it before writing it. The one rank-order reduction of the
 * engine: the general path, the split Allreduce and the epoch lines all reduce here, so their
 * results are bitwise the same. Thread-safe: its only state is each thread's own accumulator.
 */
final class Reducer {
    /** The most bytes of an accumulator a thread keeps for its next reductions into NIO buffers. */
    private static final int KEPT_ACCUMULATOR_BYTES = Tunables.COLLECTIVE_EAGER_BYTES;
    /** Per thread, per basic type: the accumulator of its small reductions into NIO buffers, or null. */
    private static final ThreadLocal<Object[]> ACCUMULATORS =
        ThreadLocal.withInitial(() -> new Object[BasicType.values().length]);

    private Reducer() {
    }

    /**
     * An array of at least {@code units} of {@code type} to accumulate in: for a small reduction the
     * calling thread's own, kept for its next ones (a reduction runs on one thread and does not nest),
     * so that a small Reduce or Allreduce into a ByteBuffer allocates nothing; else a new one of
     * exactly {@code units}, which is also what a user's operation gets (its code may read the
     * array's length).
     */
    private static Object accumulator(BasicType type, int units, Reduction op) {
        if ((long) units * type.size() > KEPT_ACCUMULATOR_BYTES || op.builtin() == null) {
            return type.newArray(units);
        }
        Object[] kept = ACCUMULATORS.get();
        Object a = kept[type.ordinal()];
        if (a == null) {
            a = type.newArray(KEPT_ACCUMULATOR_BYTES / type.size());
            kept[type.ordinal()] = a;
        }
        return a;
    }

    /**
     * Writes the reduction of elements {@code [offset, offset + units)} of the contributions of
     * members {@code from..to-1} into {@code dst} at {@code dstIndex}.
     */
    static void reduce(Part[] parts, int from, int to, int offset, int units, Object dst, int dstIndex,
                       BasicType type, Reduction op) {
        reduce(parts, from, to, offset, units, dst, dstIndex, type, op, null);
    }

    /**
     * As {@link #reduce(Part[], int, int, int, int, Object, int, BasicType, Reduction)}, reading only
     * the parts' {@code send} and {@code sendIndex}, and accumulating in {@code accumulator} (an
     * array of {@code type} of at least {@code units} units, or null to allocate one) when
     * {@code dst} is not an array: the epoch lines' path does not allocate.
     */
    static void reduce(Part[] parts, int from, int to, int offset, int units, Object dst, int dstIndex,
                       BasicType type, Reduction op, Object accumulator) {
        if (units == 0) {
            return;
        }
        Part last = parts[to - 1];
        if (from == to - 1) {
            Copier.copy(last.send, last.sendIndex + offset, dst, dstIndex, units, type);
            return;
        }
        int perItem = op.unitsPerItem();
        int block = Math.max(perItem, Tunables.REDUCTION_BLOCK_UNITS / perItem * perItem);
        boolean dstArray = !(dst instanceof Buffer);
        Object acc = dstArray ? dst : accumulator != null ? accumulator : accumulator(type, Math.min(block, units), op);
        Object staging = null;
        for (int pos = 0; pos < units; pos += block) {
            int len = Math.min(block, units - pos);
            int accIndex = dstArray ? dstIndex + pos : 0;
            Copier.copy(last.send, last.sendIndex + offset + pos, acc, accIndex, len, type);
            for (int j = to - 2; j >= from; j--) {
                Object in = parts[j].send;
                int inIndex = parts[j].sendIndex + offset + pos;
                if (in instanceof Buffer) {
                    if (staging == null) {
                        staging = type.newArray(Math.min(block, units));
                    }
                    Copier.copy(in, inIndex, staging, 0, len, type);
                    in = staging;
                    inIndex = 0;
                }
                op.combine(in, inIndex, acc, accIndex, len);
            }
            if (!dstArray) {
                Copier.copy(acc, 0, dst, dstIndex + pos, len, type);
            }
        }
    }
}
