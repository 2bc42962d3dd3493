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
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * The rings of one {@link LockFreeMailbox} share {@link MessageRing#OVERFLOW_BUDGET_BYTES} of cell
 * overflows, taken and given back with a compare-and-set by whichever sender makes or replaces a
 * cell's overflow: two senders of two rings (two ranks sending to one) race for it. Each state
 * opens two rings and takes the whole budget but {@code ROOM} bytes for cells of the first; the
 * arbiter then probes how much is left, making the overflows of further cells: exactly the room the
 * outcome of the actors leaves must be there (that much is taken, one byte more is refused), so a
 * lost update, bytes counted twice or a refusal with room left all show.
 *
 * <p>The arrays handed over are one empty array: the budget counts the bytes a sender declares, and
 * a state that held half a megabyte of real arrays would make jcstress's many states too heavy.
 */
public class RingOverflowBudget {
    private static final int ROOM = 4096;
    private static final Object ARRAY = new byte[0];

    /** Two rings of one mailbox, the budget taken but {@link #ROOM} bytes. */
    abstract static class TwoRings {
        final LockFreeMailbox<Msg, Recv> mailbox = new LockFreeMailbox<>(Envelopes.HANDLER, Envelopes.RING_READER);
        final MessageRing first = mailbox.openRing();
        final MessageRing second = mailbox.openRing();

        TwoRings() {
            int cells = 32;
            int each = (MessageRing.OVERFLOW_BUDGET_BYTES - ROOM) / cells;
            for (int cell = 0; cell < cells; cell++) {
                if (!first.overflow(cell, ARRAY, each)) {
                    throw new IllegalStateException("the budget refused " + each + " bytes for cell " + cell);
                }
            }
        }

        /**
         * Whether exactly {@code left} bytes are left: overflows of that many bytes are made for
         * cells of the second ring the actors did not use (a cell from 40 on), then one more byte is
         * refused. Run by the arbiter, alone.
         */
        boolean leaves(int left) {
            if (left > 0 && !second.overflow(40, ARRAY, left)) {
                return false;
            }
            return !second.overflow(41, ARRAY, 1);
        }
    }

    /**
     * Two senders ask for the last room at once, each a cell overflow of {@code ROOM} bytes: exactly
     * one gets it, and nothing is left after.
     */
    @JCStressTest
    @Outcome(id = {"true, false, true", "false, true, true"}, expect = Expect.ACCEPTABLE,
        desc = "One sender got the room, the other was refused (its message goes through the inbox); none left.")
    @Outcome(id = "true, true, .*", expect = Expect.FORBIDDEN, desc = "Both got the room: the budget overdrawn.")
    @Outcome(id = "false, false, .*", expect = Expect.FORBIDDEN, desc = "Both refused while the room was there.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "The bytes left differ from the room minus what was taken.")
    @State
    public static class LastRoom extends TwoRings {
        @Actor
        public void firstRing(ZZZ_Result r) {
            r.r1 = first.overflow(32, ARRAY, ROOM);
        }

        @Actor
        public void secondRing(ZZZ_Result r) {
            r.r2 = second.overflow(0, ARRAY, ROOM);
        }

        @Arbiter
        public void arbiter(ZZZ_Result r) {
            r.r3 = leaves(0);
        }
    }

    /**
     * One sender gives bytes back (its cell's overflow replaced by a shorter one, {@code ROOM}
     * bytes less) while another asks for twice the room: the ask succeeds only if it comes after the
     * give-back, and either way the bytes left are what the two moves leave.
     */
    @JCStressTest
    @Outcome(id = "true, true, true", expect = Expect.ACCEPTABLE,
        desc = "The give-back came first and the ask took it all.")
    @Outcome(id = "true, false, true", expect = Expect.ACCEPTABLE,
        desc = "The ask came first and was refused; the given-back bytes are left.")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A shrink refused, or the bytes left differ from what the moves leave.")
    @State
    public static class GiveBackWhileAsking extends TwoRings {
        private static final int SHRUNK = (MessageRing.OVERFLOW_BUDGET_BYTES - ROOM) / 32 - ROOM;

        @Actor
        public void shrinks(ZZZ_Result r) {
            r.r1 = first.overflow(0, ARRAY, SHRUNK);
        }

        @Actor
        public void asks(ZZZ_Result r) {
            r.r2 = second.overflow(0, ARRAY, 2 * ROOM);
        }

        @Arbiter
        public void arbiter(ZZZ_Result r) {
            r.r3 = leaves(r.r2 ? 0 : 2 * ROOM);
        }
    }
}
