package org.mpjlite.smpdev.p2p;

import org.mpjlite.matching.MessageRing;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.Copier;

/**
 * Copies the elements of a small message into and out of a {@link MessageRing}'s cell: the first
 * {@link MessageRing#CELL_BYTES} bytes in the cell, the rest in its spill. Both parts hold whole
 * elements, since every basic type's size divides {@code CELL_BYTES}. Stateless.
 */
final class CellData {
    private CellData() {
    }

    /** The sender: {@code n} elements of {@code type} from element {@code index} of its buffer into the cell. */
    static void write(Object buffer, int index, MessageRing ring, long cell, int n, BasicType type) {
        int inCell = Math.min(n, MessageRing.CELL_BYTES / type.size());
        Copier.copy(buffer, index, ring.data(cell), 0, inCell, type);
        if (inCell < n) {
            Copier.copy(buffer, index + inCell, ring.spill(cell), 0, n - inCell, type);
        }
    }

    /** The owner: {@code n} elements of {@code type} from the cell into element {@code index} of {@code buffer}. */
    static void read(MessageRing ring, long cell, Object buffer, int index, int n, BasicType type) {
        int inCell = Math.min(n, MessageRing.CELL_BYTES / type.size());
        Copier.copy(ring.data(cell), 0, buffer, index, inCell, type);
        if (inCell < n) {
            Copier.copy(ring.spill(cell), 0, buffer, index + inCell, n - inCell, type);
        }
    }
}
