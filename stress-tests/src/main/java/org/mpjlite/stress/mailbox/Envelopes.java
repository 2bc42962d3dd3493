package org.mpjlite.stress.mailbox;

import org.mpjlite.matching.Envelope;
import org.mpjlite.matching.MatchHandler;
import org.mpjlite.matching.RingReader;
import org.mpjlite.matching.SentEnvelope;

/**
 * Test envelopes for driving a {@link org.mpjlite.matching.Mailbox} directly: a message carrying an int
 * payload (which may keep a place in its sender's {@link org.mpjlite.matching.MessageRing} order),
 * and a receive that records what it matched and how many times.
 */
public final class Envelopes {
    /** The handler every test mailbox gets: records the match in the receive. */
    public static final MatchHandler<Msg, Recv> HANDLER = (r, m) -> r.matched(m);
    /** The owner's message of a ring's cell: its envelope, and the payload from the cell's first int. */
    public static final RingReader<Msg> RING_READER = (ring, index) ->
        new Msg(ring.context(index), ring.source(index), ring.tag(index), ring.data(index).getInt(0));

    private Envelopes() {
    }

    /** A message with a payload. */
    public static final class Msg extends SentEnvelope {
        final int payload;

        public Msg(int context, int source, int tag, int payload) {
            super(context, source, tag);
            this.payload = payload;
        }
    }

    /** A receive pattern; the handler records its payload and counts its matches. */
    public static final class Recv extends Envelope {
        private int payload;
        private int matches;

        public Recv(int context, int source, int tag) {
            super(context, source, tag);
        }

        synchronized void matched(Msg m) {
            payload = m.payload;
            matches++;
        }

        /** The payload, or 0 if never matched, or -1 if matched more than once. */
        synchronized int result() {
            return matches == 0 ? 0 : matches == 1 ? payload : -1;
        }
    }
}
