package org.mpjlite.threads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.util.concurrent.atomic.AtomicReference;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;

/** Init with a thread level in every dialect, Query_thread, Is_thread_main, and the FUNNELED check. */
class ThreadLevelTest {
    private static World world(int size) {
        return new World(size, MatchingKind.LOCK_FREE, Tunables.DEFAULT_EAGER_THRESHOLD);
    }

    /** Runs {@code body} on a new thread of the rank named {@code worker-1}; returns what it threw. */
    private static Throwable onWorker(Runnable body) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, "worker-1");
        t.start();
        t.join();
        return thrown.get();
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {0, 1, 2, 3})
    @DisplayName("each dialect's Init with a thread level provides that level; Query_thread and queryThread say it")
    void everyLevelIsProvidedAsAsked(int level) {
        world(3).runRaw(() -> {
            // Before Init there is no Rank(): the rank thread's name says which dialect to use.
            String name = Thread.currentThread().getName();
            int rank = Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
            String[] args = {"a"};
            switch (rank) {
                case 0 -> assertEquals(level, MPI.InitThread(args, level));
                case 1 -> assertArrayEquals(args, MPI.Init_thread(args, level));
                default -> assertArrayEquals(args, MPI.initThread(level, level, args));
            }
            assertEquals(level, MPI.Query_thread());
            assertEquals(level, MPI.queryThread());
            assertTrue(MPI.isThreadMain());
            assertTrue(MPI.Is_thread_main());
            assertTrue(MPI.isMainThread());
            MPI.COMM_WORLD.Barrier();
            MPI.Finalize();
            return null;
        });
    }

    @Test
    @DisplayName("an unknown thread level is MPI_ERR_ARG; Init twice is MPI_ERR_OTHER")
    void badLevelAndDoubleInit() {
        world(1).runRaw(() -> {
            assertMpiError(MPI.ERR_ARG, () -> MPI.InitThread(new String[0], 7), "InitThread", "thread level 7");
            MPI.Init(new String[0]);
            assertMpiError(MPI.ERR_OTHER, () -> MPI.Init_thread(new String[0], MPI.THREAD_MULTIPLE), "Init_thread",
                "already initialized");
            MPI.Finalize();
            return null;
        });
    }

    @Test
    @DisplayName("FUNNELED: a Send from another thread is MPI_ERR_OTHER naming the call, the thread and the level")
    void funneledRejectsOtherThreads() {
        world(2).runRaw(() -> {
            MPI.InitThread(new String[0], MPI.THREAD_FUNNELED);
            int peer = 1 - MPI.COMM_WORLD.Rank();
            Throwable send = onWorker(() -> MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.INT, peer, 0));
            assertTrue(send instanceof MPIException, String.valueOf(send));
            MPIException e = (MPIException) send;
            assertEquals(MPI.ERR_OTHER, e.getErrorClass());
            assertTrue(e.getMessage().contains("Send on rank " + MPI.COMM_WORLD.Rank() + ": called from thread"
                + " 'worker-1' but MPI was initialized with THREAD_FUNNELED: only the main thread"), e.getMessage());
            assertTrue(e.getMessage().contains("use MPI.InitThread(args, MPI.THREAD_MULTIPLE)"), e.getMessage());
            // Thread queries work from any thread, and tell the truth.
            AtomicReference<Object[]> seen = new AtomicReference<>();
            assertEquals(null, onWorker(() -> seen.set(new Object[] {MPI.queryThread(), MPI.isThreadMain()})));
            assertArrayEquals(new Object[] {MPI.THREAD_FUNNELED, false}, seen.get());
            // Waiting on the main thread's request from a worker is rejected too.
            Request r = MPI.COMM_WORLD.Irecv(new int[1], 0, 1, MPI.INT, peer, 1);
            Throwable wait = onWorker(r::Wait);
            assertTrue(wait instanceof MPIException && wait.getMessage().contains("Wait on rank"), String.valueOf(wait));
            MPI.COMM_WORLD.Send(new int[] {5}, 0, 1, MPI.INT, peer, 1);
            r.Wait();
            MPI.Finalize();
            return null;
        });
    }

    @Test
    @DisplayName("SINGLE (asked for): a local call from another thread is rejected and names THREAD_SINGLE")
    void singleRejectsOtherThreads() {
        world(1).runRaw(() -> {
            MPI.Init_thread(new String[0], MPI.THREAD_SINGLE);
            Throwable e = onWorker(() -> MPI.COMM_WORLD.Rank());
            assertTrue(e instanceof MPIException && e.getMessage().contains("Rank on rank 0: called from thread"
                + " 'worker-1' but MPI was initialized with THREAD_SINGLE"), String.valueOf(e));
            MPI.Finalize();
            return null;
        });
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {2, 3})
    @DisplayName("SERIALIZED and MULTIPLE: other threads may call MPI; only the Init thread is the main one")
    void serializedAndMultipleAcceptOtherThreads(int level) {
        world(2).runRaw(() -> {
            MPI.InitThread(new String[0], level);
            int me = MPI.COMM_WORLD.Rank();
            int[] got = new int[1];
            AtomicReference<Boolean> main = new AtomicReference<>();
            assertEquals(null, onWorker(() -> {
                main.set(MPI.isThreadMain());
                MPI.COMM_WORLD.Sendrecv(new int[] {me}, 0, 1, MPI.INT, 1 - me, 0, got, 0, 1, MPI.INT, 1 - me, 0);
            }));
            assertFalse(main.get());
            assertEquals(1 - me, got[0]);
            MPI.Finalize();
            return null;
        });
    }
}
