package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.RecvRequest;
import org.mpjlite.smpdev.WaitMode;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A fast box that fills up: rank 0 sends {@link #MESSAGES} one-int messages to rank 1 (more than a
 * box's 16 slots, so the sender falls back to the mailbox when the receiver is behind, and returns to
 * the box once the mailbox is drained) while rank 1 concurrently receives them one by one with
 * wildcard receives, letting its mailbox match between receives. The arbiter reports how many
 * receives got their message in sending order, and what is left over.
 *
 * <p>Only {@code 40, 0} is acceptable; fewer in order means a message overtook another, was lost or
 * was duplicated; a leftover is a message nobody received: FORBIDDEN.
 */
@JCStressTest
@Outcome(id = "40, 0", expect = Expect.ACCEPTABLE, desc = "Every message received, in the order sent.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Overtaking, a message lost, duplicated or left unreceived.")
@State
public class FastBoxFull {
    private static final int MESSAGES = 40;
    private static final int TAG = 2;

    private final Job job = Device.jobWithFastBoxes(2, WaitMode.AUTO);
    private final int[][] buffers = new int[MESSAGES][1];
    private final RecvRequest[] receives = new RecvRequest[MESSAGES];

    @Actor
    public void sender() {
        for (int i = 1; i <= MESSAGES; i++) {
            Device.send(job, 0, 1, TAG, i);
        }
    }

    @Actor
    public void receiver() {
        for (int i = 0; i < MESSAGES; i++) {
            receives[i] = Device.recv(job, 1, Device.ANY, Device.ANY, buffers[i]);
            Device.progress(job, 1);
        }
    }

    @Arbiter
    public void arbiter(II_Result r) {
        Device.progress(job, 1);
        int inOrder = 0;
        for (int i = 0; i < MESSAGES; i++) {
            if (receives[i].isComplete() && buffers[i][0] == i + 1) {
                inOrder++;
            }
        }
        r.r1 = inOrder;
        r.r2 = Device.unexpected(job, 1) + Device.posted(job, 1);
    }
}
