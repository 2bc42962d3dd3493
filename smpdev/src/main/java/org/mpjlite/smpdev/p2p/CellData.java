package org.mpjlite.smpdev.p2p;

import org.mpjlite.matching.MessageRing;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.Copier;

/**
 * Copies the elements of a small message into and out of a {@link MessageRing}'s cell: the first
 * {@link MessageRing#CELL_BYTES} bytes in the cell, the rest in its spill (native memory beside
 * the cells) or, for a message longer than the spill takes, in its overflow, an array of the
 * message's element type ({@code System.arraycopy} from and to an array buffer, as the inbox's
 * messages copy). Every part holds whole elements, since every basic type's size divides
 * {@code CELL_BYTES}. Stateless.
 */
final class CellData {
    /** The bytes of a message beyond its cell's own: what an overflow holds. */
    private static final int OVERFLOW_BYTES = MessageRing.DATA_BYTES - MessageRing.CELL_BYTES;

    private CellData() {
    }

    /** The sender: {@code n} elements of {@code type} from element {@code index} of its buffer into the cell. */
    static void write(Object buffer, int index, MessageRing ring, long cell, int n, BasicType type) {
        int inCell = inCell(n, type);
        Copier.copy(buffer, index, ring.data(cell), 0, inCell, type);
        int rest = n - inCell;
        if (rest == 0) {
            return;
        }
        Object to = fitsSpill(rest, type) ? ring.spill(cell) : overflowFor(ring, cell, type);
        Copier.copy(buffer, index + inCell, to, 0, rest, type);
    }

    /** The owner: {@code n} elements of {@code type} from the cell into element {@code index} of {@code buffer}. */
    static void read(MessageRing ring, long cell, Object buffer, int index, int n, BasicType type) {
        int inCell = inCell(n, type);
        Copier.copy(ring.data(cell), 0, buffer, index, inCell, type);
        int rest = n - inCell;
        if (rest == 0) {
            return;
        }
        Object from = fitsSpill(rest, type) ? ring.spill(cell) : ring.overflow(cell);
        Copier.copy(from, 0, buffer, index + inCell, rest, type);
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
     * The claimer's overflow of the cell for elements of {@code type}: the one there if it is an
     * array of that type (every overflow holds the longest message's elements), else a new one. So
     * a stream allocates once per cell and element type, and nothing after.
     */
    private static Object overflowFor(MessageRing ring, long cell, BasicType type) {
        Object overflow = ring.overflow(cell);
        if (overflow == null || overflow.getClass() != type.arrayClass()) {
            overflow = type.newArray(OVERFLOW_BYTES / type.size());
            ring.overflow(cell, overflow);
        }
        return overflow;
    }
}
