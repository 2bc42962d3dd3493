package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.MatchingKind;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Recycled messages going back to the rank that made them: each rank sends {@value #PER_ROUND}
 * small messages to the other, then receives the other's, {@value #ROUNDS} times. A receiver keeps
 * 64 messages and hands the rest back to their sender in batches, which the sender takes when its
 * own list is empty and sends again, possibly while the receiver still returns others of the same
 * batch stack. A message reused by its home while its receiver still reads it, or handed out twice,
 * shows as a wrong or missing payload: each rank counts the messages it received intact and in
 * order. Anything but every message on both ranks is FORBIDDEN.
 */
@JCStressTest
@Outcome(id = "300, 300", expect = Expect.ACCEPTABLE, desc = "Every message arrived once, intact, in order.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A message was corrupted, lost or duplicated by its reuse.")
@State
public class MessagesGoHome {
    private static final int ROUNDS = 3;
    private static final int PER_ROUND = 100;
    private static final int TAG = 7;

    private final Job job = Device.job(MatchingKind.LOCK_FREE, 2);

    private int exchange(int me) {
        int other = 1 - me;
        int intact = 0;
        int[] buffer = new int[1];
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < PER_ROUND; i++) {
                Device.send(job, me, other, TAG, payload(me, round, i)).await("Wait");
            }
            for (int i = 0; i < PER_ROUND; i++) {
                buffer[0] = -1;
                Device.recv(job, me, other, TAG, buffer).await("Wait");
                if (buffer[0] == payload(other, round, i)) {
                    intact++;
                }
            }
        }
        return intact;
    }

    private static int payload(int from, int round, int i) {
        return from * 1_000_000 + round * 1000 + i;
    }

    @Actor
    public void rank0(II_Result r) {
        r.r1 = exchange(0);
    }

    @Actor
    public void rank1(II_Result r) {
        r.r2 = exchange(1);
    }
}
