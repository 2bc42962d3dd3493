package org.mpjlite.smpdev.p2p;

import mpjbuf.BufferFactory;
import org.mpjlite.matching.MessageRing;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.Copier;
import org.mpjlite.smpdev.data.Stash;

/**
 * Copies the elements of a small message into and out of a {@link MessageRing}'s cell: the first
 * {@link MessageRing#CELL_BYTES} bytes in the cell, the rest in its spill (native memory beside
 * the cells) or, for a message longer than the spill takes, in its overflow, an array of the
 * message's element type ({@code System.arraycopy} from and to an array buffer, as the inbox's
 * messages copy). Every part holds whole elements, since every basic type's size divides
 * {@code CELL_BYTES}. Stateless.
 */
final class CellData {
    /**
     * The least bytes of an overflow: what the rest of a 1 KB message needs, so that a stream of
     * messages of up to 1 KB makes each cell's overflow once.
     */
    private static final int MIN_OVERFLOW_BYTES = 1024;

    private CellData() {
    }

    /**
     * The sender: {@code n} elements of {@code type} from element {@code index} of its buffer into
     * the cell. False, with nothing written, if the message needs an overflow the cell does not
     * have and its mailbox's rings have no room for ({@link MessageRing#OVERFLOW_BUDGET_BYTES}).
     */
    static boolean write(Object buffer, int index, MessageRing ring, long cell, int n, BasicType type) {
        int inCell = inCell(n, type);
        int rest = n - inCell;
        Object to = null;
        if (rest > 0) {
            to = fitsSpill(rest, type) ? ring.spill(cell) : overflowFor(ring, cell, rest, type);
            if (to == null) {
                return false;
            }
        }
        Copier.copy(buffer, index, ring.data(cell), 0, inCell, type);
        if (rest > 0) {
            Copier.copy(buffer, index + inCell, to, 0, rest, type);
        }
        return true;
    }

    /** The owner: {@code n} elements of {@code type} from the cell into element {@code index} of {@code buffer}. */
    static void read(MessageRing ring, long cell, Object buffer, int index, int n, BasicType type) {
        int inCell = inCell(n, type);
        Copier.copy(ring.data(cell), 0, buffer, index, inCell, type);
        int rest = n - inCell;
        if (rest == 0) {
            return;
        }
        Copier.copy(restOf(ring, cell, rest, type), 0, buffer, index + inCell, rest, type);
    }

    /**
     * The owner: the cell's {@code n} elements of {@code type} as a pooled copy ({@link Stash}), for
     * a message longer than a message's own array takes ({@link Tunables#SMALL_COPY_BYTES}).
     */
    static mpjbuf.Buffer stash(BufferFactory pool, MessageRing ring, long cell, int n, BasicType type) {
        int inCell = inCell(n, type);
        int rest = n - inCell;
        return Stash.fill(pool, ring.data(cell), inCell, rest == 0 ? null : restOf(ring, cell, rest, type), rest, type);
    }

    /** The owner: where the {@code rest} elements of a message past its cell are, its spill or its overflow. */
    private static Object restOf(MessageRing ring, long cell, int rest, BasicType type) {
        return fitsSpill(rest, type) ? ring.spill(cell) : ring.overflow(cell);
    }

    /**
     * How many of a message's {@code n} elements its cell holds: all of them when they fit, found
     * without the integer division (tens of cycles, on both sides of every message) that only a
     * message longer than the cell needs.
     */
    private static int inCell(int n, BasicType type) {
        return n * type.size() <= MessageRing.CELL_BYTES ? n : MessageRing.CELL_BYTES / type.size();
    }

    /** Whether the {@code rest} elements of a message past its cell go into the spill, not the overflow. */
    private static boolean fitsSpill(int rest, BasicType type) {
        return rest * type.size() <= MessageRing.SPILL_BYTES;
    }

    /**
     * The claimer's overflow of the cell for {@code rest} elements of {@code type}: the one there if
     * it is an array of that type long enough, else a new one of the rest's bytes rounded up to a
     * power of two (at least {@link #MIN_OVERFLOW_BYTES}), or null if the mailbox's rings have no
     * room for it. So a stream allocates once per cell and element type, or a few times as its
     * messages grow, and nothing after; a ring's overflows take as much memory as its longest
     * messages need (64 cells of 1-4 KB).
     */
    private static Object overflowFor(MessageRing ring, long cell, int rest, BasicType type) {
        Object overflow = ring.overflow(cell);
        if (overflow == null || overflow.getClass() != type.arrayClass()
            || java.lang.reflect.Array.getLength(overflow) < rest) {
            int bytes = Math.max(MIN_OVERFLOW_BYTES, Integer.highestOneBit(rest * type.size() - 1) << 1);
            overflow = type.newArray(bytes / type.size());
            if (!ring.overflow(cell, overflow, bytes)) {
                return null;
            }
        }
        return overflow;
    }
}
