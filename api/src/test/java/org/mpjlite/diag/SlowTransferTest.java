package org.mpjlite.diag;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import mpi.MPI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.smpdev.MatchingKind;

/**
 * A receive parked in MPI that is woken by its message and then spends longer than the deadlock
 * detector's confirmation time moving it (deserializing a large or slow {@code MPI.OBJECT}, as the
 * Java Grande MonteCarlo benchmark does when its ranks send their results home) is running, not
 * stuck: the sender waiting for it meanwhile must not turn the pair into a deadlock report.
 */
class SlowTransferTest {
    /** Several times the detector's confirmation time (0.5 s). */
    static final long SLOW_MILLIS = 1_500;

    /** An object whose deserialization computes for {@link #SLOW_MILLIS}: a message slow to move. */
    static final class Slow implements Serializable {
        private static final long serialVersionUID = 1L;
        final double[] values;

        Slow(double[] values) {
            this.values = values;
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            long end = System.nanoTime() + SLOW_MILLIS * 1_000_000;
            double x = 0;
            while (System.nanoTime() < end) {
                x += Math.sqrt(x + 1);
            }
            if (x < 0) {
                throw new AssertionError();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(MatchingKind.class)
    void aReceiveBusyMovingItsMessageIsNotADeadlock(MatchingKind matching) {
        List<double[]> got = Jobs.options().ranks(2).matching(matching).shutdownGrace(Duration.ofMillis(500))
            .run(() -> {
                MPI.Init(new String[0]);
                double[] received = null;
                if (MPI.COMM_WORLD.Rank() == 0) {
                    Object[] box = new Object[1];
                    MPI.COMM_WORLD.Recv(box, 0, 1, MPI.OBJECT, 1, 3); // parks before the message comes
                    received = ((Slow) box[0]).values;
                } else {
                    Thread.sleep(300);
                    // Synchronous: the sender waits, parked, while the receiver moves the message.
                    MPI.COMM_WORLD.Ssend(new Object[] {new Slow(new double[] {1, 2, 3})}, 0, 1, MPI.OBJECT, 0, 3);
                }
                MPI.Finalize();
                return received;
            });
        assertEquals(2, got.size());
        assertArrayEquals(new double[] {1, 2, 3}, got.get(0));
    }
}
