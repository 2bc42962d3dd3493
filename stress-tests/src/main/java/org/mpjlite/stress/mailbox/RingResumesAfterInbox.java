package org.mpjlite.stress.mailbox;

import org.mpjlite.matching.LockFreeMailbox;
import org.mpjlite.matching.MessageRing;
import org.mpjlite.stress.mailbox.Envelopes.Msg;
import org.mpjlite.stress.mailbox.Envelopes.Recv;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A {@link MessageRing}'s message that follows one its sender sent through the inbox is found by
 * the owner's next round of matching, whichever owner thread matched the inbox message. A
 * {@link LockFreeMailbox} whose sender has a ring (64 cells): the receiver posted a receive for tag
 * {@code WAITED} first (it waits throughout); then the sender filled the ring's cells (tag
 * {@code FILLER}, kept as unexpected messages by the owner's next round), claimed index 64 when
 * the ring was full and sent that message (tag {@code LATE}) through the inbox carrying the index,
 * and put the next one (tag {@code WAITED}) in a cell. Each payload is the message's index. Then
 * two owner threads (a rank at {@code THREAD_MULTIPLE}) meet: one posts a receive for
 * {@code LATE}, which, since a receive waits, drains only the inbox and matches the late message;
 * the other makes a round of matching, as a waiter does, which looks at the rings only where
 * their next cell is published. The arbiter makes one more round and reports (the waited
 * receive's payload, the late receive's, messages or receives left over beyond the fillers).
 *
 * <p>Only {@code 65, 64, 0} is acceptable. FORBIDDEN: {@code 0} for the waited receive (the cell's
 * message hidden from every round of matching: a matching of the inbox message that moved the
 * owner's place in the ring without telling the rounds where the next cell is, so that a waiter
 * neither finds the message nor parks); a message lost, matched twice (-1) or left over.
 */
@JCStressTest
@Outcome(id = "65, 64, 0", expect = Expect.ACCEPTABLE, desc = "Both matched once; the cell found after the inbox message.")
@Outcome(expect = Expect.FORBIDDEN, desc = "The cell's message hidden from the rounds of matching, or a message lost, duplicated or left over.")
@State
public class RingResumesAfterInbox {
    private static final int CONTEXT = 0;
    private static final int SOURCE = 0;
    private static final int FILLER = 1;
    private static final int LATE = 2;
    private static final int WAITED = 3;

    private final LockFreeMailbox<Msg, Recv> mailbox = new LockFreeMailbox<>(Envelopes.HANDLER, Envelopes.RING_READER);
    private final Recv waited = new Recv(CONTEXT, SOURCE, WAITED);
    private final Recv late = new Recv(CONTEXT, SOURCE, LATE);
    /** The messages that filled the ring, left unexpected. */
    private int fillers;

    public RingResumesAfterInbox() {
        MessageRing ring = mailbox.openRing();
        mailbox.post(waited);
        long full = ring.claim();
        for (; ring.hasCell(full); full = ring.claim()) {
            inCell(ring, full, FILLER, (int) full);
            fillers++;
        }
        mailbox.progress();
        Msg m = new Msg(CONTEXT, SOURCE, LATE, (int) full);
        m.takesIndex(ring, full);
        mailbox.deliver(m);
        long next = ring.claim();
        if (!ring.hasCell(next)) {
            throw new IllegalStateException("the owner's round should have freed the cells");
        }
        inCell(ring, next, WAITED, (int) next);
    }

    private static void inCell(MessageRing ring, long index, int tag, int payload) {
        ring.data(index).putInt(0, payload);
        ring.publish(index, CONTEXT, SOURCE, tag, 1, 1, Integer.BYTES, "Send");
    }

    @Actor
    public void poster() {
        mailbox.post(late);
    }

    @Actor
    public void waiter() {
        mailbox.progress();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        mailbox.progress();
        r.r1 = waited.result();
        r.r2 = late.result();
        r.r3 = mailbox.unexpectedSnapshot().size() - fillers + mailbox.postedSnapshot().size();
    }
}
