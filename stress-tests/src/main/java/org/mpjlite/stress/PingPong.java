package org.mpjlite.stress;

import org.mpjlite.smpdev.Job;

/**
 * Ranks 0 and 1 of a job bounce a message {@value #ROUNDS} times, each waiting for the other's. In a
 * {@link org.mpjlite.smpdev.wait.WaitMode#PARK} job every wait parks at once, so every round races a
 * waiter's park (register, re-check, park) against the peer's ring on both sides: a Termination test
 * built on it hits the lost-wake-up window hundreds of times per run instead of once.
 */
final class PingPong {
    static final int ROUNDS = 100;
    private static final int PING = 100;
    private static final int PONG = 101;

    private PingPong() {
    }

    /** Starts rank 0's side on a daemon thread; it ends quietly if the job fails. */
    static void startRank0(Job job) {
        Thread t = new Thread(() -> {
            int[] buffer = new int[1];
            try {
                for (int i = 0; i < ROUNDS; i++) {
                    Device.send(job, 0, 1, PING, i);
                    Device.recv(job, 0, 1, PONG, buffer).await("Wait");
                }
            } catch (RuntimeException jobFailed) {
                if (!job.failed()) {
                    throw jobFailed;
                }
            }
        }, "rank-0-ping-pong");
        t.setDaemon(true);
        t.start();
    }

    /** Rank 1's side, on the calling thread. */
    static void rank1(Job job) {
        int[] buffer = new int[1];
        for (int i = 0; i < ROUNDS; i++) {
            Device.recv(job, 1, 0, PING, buffer).await("Wait");
            Device.send(job, 1, 0, PONG, i);
        }
    }
}
