package org.mpjlite.stress;

import java.util.Arrays;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.RecvRequest;
import org.mpjlite.smpdev.WaitMode;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Non-overtaking across a fast box and the mailbox: rank 0 sends three messages to rank 1, each
 * small enough for the box or too long for it, while rank 1 concurrently posts three wildcard
 * receives. Boxes open at once ({@link Device#jobWithFastBoxes}). Whatever the interleaving (a
 * small message finds the box free or must take the mailbox because an earlier one is still in the
 * inbox; the receiver takes the box before an inbox message, or drains the box on its own), the
 * receives must get 1, 2, 3 in that order. The arbiter lets rank 1 match what arrived and reports
 * (first two in order: 12 or 21 or 0 when one is missing, the third, leftovers).
 *
 * <p>Variants: box, mailbox, box ({@link BoxInboxBox}: a box message before an inbox one, which the
 * receiver must not let overtake); mailbox, box, box ({@link InboxBoxBox}: a box message after an
 * inbox one, which the sender must not put in the box before the inbox one is drained).
 *
 * <p>Only {@code 12, 3, 0} is acceptable. Anything else is overtaking, a lost message (a receive
 * never completed) or a message left unreceived: FORBIDDEN.
 */
@Outcome(id = "12, 3, 0", expect = Expect.ACCEPTABLE, desc = "All three received, in the order sent.")
@Outcome(id = "21, 3, 0", expect = Expect.FORBIDDEN, desc = "The second message overtook the first.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Overtaking, a message lost (0), duplicated or left unreceived.")
public abstract class FastBoxOrder {
    private static final int TAG = 4;
    private static final int LONG = Device.BOX_INTS + 1;

    private final Job job = Device.jobWithFastBoxes(2, WaitMode.AUTO);
    private final int[][] buffers = {new int[LONG], new int[LONG], new int[LONG]};
    private final RecvRequest[] receives = new RecvRequest[3];

    /** Sends 1, 2 and 3, each as one int (box) or {@link #LONG} ints (mailbox). */
    void send(boolean... small) {
        for (int i = 0; i < 3; i++) {
            int[] data = new int[small[i] ? 1 : LONG];
            Arrays.fill(data, i + 1);
            Device.send(job, 0, 1, TAG, data);
        }
    }

    void receive() {
        for (int i = 0; i < 3; i++) {
            receives[i] = Device.recv(job, 1, Device.ANY, Device.ANY, buffers[i]);
        }
    }

    void check(III_Result r) {
        Device.progress(job, 1);
        int[] got = new int[3];
        for (int i = 0; i < 3; i++) {
            got[i] = receives[i].isComplete() ? buffers[i][0] : 0;
        }
        r.r1 = got[0] * 10 + got[1];
        r.r2 = got[2];
        r.r3 = Device.unexpected(job, 1) + Device.posted(job, 1);
    }

    /** Box, mailbox, box. */
    @JCStressTest
    @State
    public static class BoxInboxBox extends FastBoxOrder {
        @Actor
        public void sender() {
            send(true, false, true);
        }

        @Actor
        public void receiver() {
            receive();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }

    /** Mailbox, box, box. */
    @JCStressTest
    @State
    public static class InboxBoxBox extends FastBoxOrder {
        @Actor
        public void sender() {
            send(false, true, true);
        }

        @Actor
        public void receiver() {
            receive();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            check(r);
        }
    }
}
