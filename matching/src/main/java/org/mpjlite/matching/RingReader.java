package org.mpjlite.matching;

/**
 * Makes the owner's message of a {@link MessageRing} cell: called on a thread of the owning rank,
 * under its mailbox's owner lock, after the cell was published; the cell is handed back to its
 * senders as soon as this returns, so the message must carry its own copy of the data. Never called
 * for a cell of kind {@link MessageRing#NO_MESSAGE} (nothing to match), nor for one that goes
 * straight into its receive ({@link MatchHandler#matchedInCell}).
 *
 * @param <M> message type
 */
@FunctionalInterface
public interface RingReader<M extends Envelope> {
    M read(MessageRing ring, long index);
}
