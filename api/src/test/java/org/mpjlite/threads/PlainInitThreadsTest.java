package org.mpjlite.threads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import mpi.MPI;
import mpi.MPIException;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/**
 * A plain MPI.Init provides THREAD_MULTIPLE, as MPJ Express does: its programs call MPI from
 * several threads of a rank without Init_thread. A level asked for explicitly is still checked.
 */
class PlainInitThreadsTest {
    @Jobs.MultiRanks
    void threadsOfARankCallMpiAfterAPlainInit(World w) {
        List<int[]> out = w.run(() -> {
            assertEquals(MPI.THREAD_MULTIPLE, MPI.Query_thread());
            assertEquals(MPI.THREAD_MULTIPLE, MPI.queryThread());
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            int[] fromLeft = new int[1];
            int[] fromRight = new int[1];
            AtomicReference<Throwable> failed = new AtomicReference<>();
            // Two threads of each rank at once: one talks to the right on tag 1, the other to the left on tag 2.
            Thread right = new Thread(() -> run(failed, () -> MPI.COMM_WORLD.Sendrecv(new int[] {me}, 0, 1, MPI.INT,
                (me + 1) % n, 1, fromLeft, 0, 1, MPI.INT, (me + n - 1) % n, 1)));
            Thread left = new Thread(() -> run(failed, () -> MPI.COMM_WORLD.Sendrecv(new int[] {me}, 0, 1, MPI.INT,
                (me + n - 1) % n, 2, fromRight, 0, 1, MPI.INT, (me + 1) % n, 2)));
            right.start();
            left.start();
            right.join();
            left.join();
            if (failed.get() != null) {
                throw new AssertionError(failed.get());
            }
            assertTrue(MPI.isThreadMain());
            return new int[] {fromLeft[0], fromRight[0]};
        });
        int n = w.size();
        for (int me = 0; me < n; me++) {
            assertArrayEquals(new int[] {(me + n - 1) % n, (me + 1) % n}, out.get(me), "rank " + me);
        }
    }

    @Jobs.MultiRanks
    void aFunneledProgramStillGetsTheCheck(World w) {
        w.runRaw(() -> {
            assertEquals(MPI.THREAD_FUNNELED, MPI.InitThread(new String[0], MPI.THREAD_FUNNELED));
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread t = new Thread(() -> run(failed, () -> MPI.COMM_WORLD.Barrier()), "helper");
            t.start();
            t.join();
            Throwable e = failed.get();
            assertTrue(e instanceof MPIException && e.getMessage().contains("called from thread 'helper' but MPI was"
                + " initialized with THREAD_FUNNELED"), String.valueOf(e));
            assertTrue(MPI.isThreadMain());
            MPI.COMM_WORLD.Barrier();
            MPI.Finalize();
            return null;
        });
    }

    private static void run(AtomicReference<Throwable> failed, Runnable body) {
        try {
            body.run();
        } catch (Throwable e) {
            failed.compareAndSet(null, e);
        }
    }
}
