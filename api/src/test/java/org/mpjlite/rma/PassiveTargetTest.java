package org.mpjlite.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMpiError;
import static org.mpjlite.rma.Sizes.rank;
import static org.mpjlite.rma.Sizes.size;

import java.nio.IntBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import mpi.MPI;
import mpi.Request;
import mpi.Win;
import org.junit.jupiter.api.Test;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.MatchingKind;

/** Lock, unlock, lockAll and the request-based operations of passive target epochs. */
class PassiveTargetTest {
    @Sizes.AllSizes
    void exclusiveLocksMakeAPlainGetAndPutIncrementExact(World w) {
        w.run(() -> {
            IntBuffer mem = MPI.newIntBuffer(1);
            Win win = new Win(mem, 1, 1, null, MPI.COMM_WORLD);
            IntBuffer v = MPI.newIntBuffer(1);
            int rounds = 100;
            for (int i = 0; i < rounds; i++) {
                win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
                win.get(v, 1, MPI.INT, 0, 0, 1, MPI.INT);
                win.flush(0);
                v.put(0, v.get(0) + 1);
                win.put(v, 1, MPI.INT, 0, 0, 1, MPI.INT);
                win.unlock(0);
            }
            MPI.COMM_WORLD.barrier();
            if (rank() == 0) {
                win.lock(MPI.LOCK_SHARED, 0, 0);
                assertEquals(size() * rounds, mem.get(0));
                win.unlock(0);
            }
            win.free();
            return null;
        });
    }

    /** A probe of mutual exclusion: holders counted in a JVM-wide counter while they hold the lock. */
    private static final AtomicInteger EXCLUSIVE_HOLDERS = new AtomicInteger();
    private static final AtomicInteger SHARED_HOLDERS = new AtomicInteger();

    @Sizes.AllSizes
    void anExclusiveLockExcludesSharedOnesAndSharedOnesCoexist(World w) {
        EXCLUSIVE_HOLDERS.set(0);
        SHARED_HOLDERS.set(0);
        w.run(() -> {
            int me = rank();
            Win win = new Win(MPI.newIntBuffer(1), 1, 1, null, MPI.COMM_WORLD);
            for (int i = 0; i < 50; i++) {
                if ((i + me) % 3 == 0) {
                    win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
                    assertEquals(1, EXCLUSIVE_HOLDERS.incrementAndGet());
                    assertEquals(0, SHARED_HOLDERS.get());
                    Thread.yield();
                    EXCLUSIVE_HOLDERS.decrementAndGet();
                } else {
                    win.lock(MPI.LOCK_SHARED, 0, 0);
                    SHARED_HOLDERS.incrementAndGet();
                    assertEquals(0, EXCLUSIVE_HOLDERS.get());
                    Thread.yield();
                    SHARED_HOLDERS.decrementAndGet();
                }
                win.unlock(0);
            }
            win.free();
            return null;
        });
    }

    @Sizes.AllSizes
    void everyRankWritesItsSlotOfEveryWindowUnderLockAllWithRequests(World w) {
        w.run(() -> {
            int me = rank();
            int n = size();
            IntBuffer mem = MPI.newIntBuffer(n);
            Win win = new Win(mem, n, 1, null, MPI.COMM_WORLD);
            IntBuffer v = MPI.newIntBuffer(1).put(0, me + 1);
            win.lockAll(MPI.MODE_NOCHECK);
            Request[] puts = new Request[n];
            for (int t = 0; t < n; t++) {
                puts[t] = win.rPut(v, 1, MPI.INT, t, me, 1, MPI.INT);
            }
            Request.waitAll(puts);
            win.flushLocalAll();
            win.unlockAll();
            MPI.COMM_WORLD.barrier();
            win.lockAll(0);
            IntBuffer row = MPI.newIntBuffer(n);
            Request r = win.rGet(row, n, MPI.INT, (me + 1) % n, 0, n, MPI.INT);
            r.waitFor();
            win.unlockAll();
            // Nobody changes a slot before every row was read.
            MPI.COMM_WORLD.barrier();
            win.lockAll(0);
            IntBuffer one = MPI.newIntBuffer(1).put(0, 100);
            IntBuffer before = MPI.newIntBuffer(1);
            win.rAccumulate(one, 1, MPI.INT, me, me, 1, MPI.INT, MPI.SUM).waitFor();
            win.rGetAccumulate(one, 1, MPI.INT, before, 1, MPI.INT, me, me, 1, MPI.INT, MPI.SUM).waitFor();
            win.flushLocal(me);
            win.sync();
            win.unlockAll();
            for (int s = 0; s < n; s++) {
                assertEquals(s + 1, row.get(s));
            }
            assertEquals(me + 101, before.get(0));
            assertEquals(me + 201, mem.get(me));
            win.free();
            return null;
        });
    }

    @Sizes.AllSizes
    void lockingOnesOwnWindowAndEveryOtherInTurn(World w) {
        w.run(() -> {
            int me = rank();
            int n = size();
            IntBuffer mem = MPI.newIntBuffer(1);
            Win win = new Win(mem, 1, 1, null, MPI.COMM_WORLD);
            IntBuffer v = MPI.newIntBuffer(1).put(0, 1);
            for (int t = 0; t < n; t++) {
                win.lock(MPI.LOCK_SHARED, t, 0);
                win.accumulate(v, 1, MPI.INT, t, 0, 1, MPI.INT, MPI.SUM);
                win.unlock(t);
            }
            MPI.COMM_WORLD.barrier();
            win.lock(MPI.LOCK_EXCLUSIVE, me, 0);
            assertTrue(mem.get(0) == n, "own window: " + mem.get(0));
            win.unlock(me);
            win.free();
            return null;
        });
    }

    @Test
    void aLockWaitEndsWithAnErrorWhenTheThreadIsInterrupted() {
        new World(2, MatchingKind.LOCK_FREE, Tunables.DEFAULT_EAGER_THRESHOLD).run(() -> {
            Win win = new Win(MPI.newIntBuffer(1), 1, 1, null, MPI.COMM_WORLD);
            if (rank() == 0) {
                win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
                MPI.COMM_WORLD.barrier();
                MPI.COMM_WORLD.barrier();
                win.unlock(0);
            } else {
                MPI.COMM_WORLD.barrier();
                Thread waiter = Thread.currentThread();
                Thread interrupter = new Thread(() -> {
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        return;
                    }
                    waiter.interrupt();
                });
                interrupter.start();
                assertMpiError(MPI.ERR_OTHER, () -> win.lock(MPI.LOCK_SHARED, 0, 0), "interrupted");
                assertTrue(Thread.interrupted());
                interrupter.join();
                MPI.COMM_WORLD.barrier();
                // The interrupted wait took nothing: the lock is free once rank 0 lets go.
                win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
                win.unlock(0);
            }
            win.free();
            return null;
        });
    }
}
