package org.mpjlite.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMpiError;
import static org.mpjlite.rma.Sizes.rank;
import static org.mpjlite.rma.Sizes.size;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;
import mpi.Win;
import org.junit.jupiter.api.Test;
import org.mpjlite.JobFailedException;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.p2p.Jobs;

/** Misuse of windows: each is an MPIException of the MPI error class, naming the call and argument. */
class RmaErrorsTest {
    /**
     * An operation that fails its checks in a fence epoch was never issued: a fence asserting
     * MODE_NOPRECEDE, a lock and a free after it behave as if it had not been called.
     */
    @Sizes.AllSizes
    void operationsThatFailTheirChecksAreNotIssued(World w) {
        w.run(() -> {
            IntBuffer mem = MPI.newIntBuffer(4);
            Win win = new Win(mem, 4, 1, null, MPI.COMM_WORLD);
            IntBuffer o = MPI.newIntBuffer(2);
            IntBuffer r = MPI.newIntBuffer(1);
            Datatype pair = Datatype.createContiguous(1, MPI.INT);
            pair.commit();
            int t = (rank() + 1) % size();
            win.fence(0);
            assertMpiError(MPI.ERR_COUNT, () -> win.put(o, 2, MPI.INT, t, 0, 1, MPI.INT), "put");
            assertMpiError(MPI.ERR_RMA_RANGE, () -> win.get(o, 1, MPI.INT, t, 100, 1, MPI.INT), "get", "100");
            assertMpiError(MPI.ERR_OP, () -> win.accumulate(o, 1, MPI.INT, t, 0, 1, MPI.INT, null), "accumulate");
            assertMpiError(MPI.ERR_TYPE, () -> win.compareAndSwap(o, o, r, pair, t, 0), "compareAndSwap");
            assertMpiError(MPI.ERR_BUFFER, () -> win.fetchAndOp(null, r, MPI.INT, t, 0, MPI.SUM), "fetchAndOp");
            win.fence(MPI.MODE_NOPRECEDE);
            assertMpiError(MPI.ERR_COUNT, () -> win.put(o, 2, MPI.INT, t, 0, 1, MPI.INT), "put");
            win.fence(MPI.MODE_NOSUCCEED);
            win.lock(MPI.LOCK_SHARED, t, 0);
            win.unlock(t);
            win.free();
            pair.free();
            return null;
        });
    }

    @Sizes.AllSizes
    void operationsOutsideAnEpochAndSynchronizationOutOfOrder(World w) {
        w.run(() -> {
            int me = rank();
            IntBuffer mem = MPI.newIntBuffer(4);
            Win win = new Win(mem, 4, 1, null, MPI.COMM_WORLD);
            IntBuffer v = MPI.newIntBuffer(1);
            assertMpiError(MPI.ERR_RMA_SYNC, () -> win.put(v, 1, MPI.INT, 0, 0, 1, MPI.INT), "put", "epoch");
            assertMpiError(MPI.ERR_RMA_SYNC, () -> win.get(v, 1, MPI.INT, 0, 0, 1, MPI.INT), "get", "epoch");
            assertMpiError(MPI.ERR_RMA_SYNC, () -> win.accumulate(v, 1, MPI.INT, 0, 0, 1, MPI.INT, MPI.SUM),
                "accumulate");
            assertMpiError(MPI.ERR_RMA_SYNC, () -> win.unlock(0), "unlock", "no lock");
            assertMpiError(MPI.ERR_RMA_SYNC, win::unlockAll, "unlockAll");
            assertMpiError(MPI.ERR_RMA_SYNC, win::complete, "complete", "start");
            assertMpiError(MPI.ERR_RMA_SYNC, win::waitFor, "waitFor", "post");
            assertMpiError(MPI.ERR_RMA_SYNC, win::test, "test", "post");
            assertMpiError(MPI.ERR_RMA_SYNC, () -> win.flush(0), "flush", "passive");
            assertMpiError(MPI.ERR_RMA_SYNC, win::flushAll, "flushAll");
            assertMpiError(MPI.ERR_LOCKTYPE, () -> win.lock(3, 0, 0), "lock", "lock type 3");
            assertMpiError(MPI.ERR_ASSERT, () -> win.lock(MPI.LOCK_SHARED, 0, MPI.MODE_NOPRECEDE), "lock", "assert");
            assertMpiError(MPI.ERR_RANK, () -> win.lock(MPI.LOCK_SHARED, size(), 0), "lock", "rank " + size());
            // In a fence epoch: request-based operations need a passive target epoch.
            win.fence(0);
            assertMpiError(MPI.ERR_RMA_SYNC, () -> win.rPut(v, 1, MPI.INT, 0, 0, 1, MPI.INT), "rPut", "lock");
            win.put(v, 1, MPI.INT, me, 0, 1, MPI.INT);
            assertMpiError(MPI.ERR_RMA_SYNC, () -> win.lock(MPI.LOCK_SHARED, 0, 0), "lock", "fence");
            win.fence(MPI.MODE_NOSUCCEED);
            assertMpiError(MPI.ERR_RMA_SYNC, () -> win.put(v, 1, MPI.INT, 0, 0, 1, MPI.INT), "put");
            // Locked: a second lock on the same target, fence and free are out of order.
            win.lock(MPI.LOCK_SHARED, 0, 0);
            assertMpiError(MPI.ERR_RMA_SYNC, () -> win.lock(MPI.LOCK_SHARED, 0, 0), "lock", "already");
            assertMpiError(MPI.ERR_RMA_SYNC, () -> win.fence(0), "fence", "unlock");
            assertMpiError(MPI.ERR_RMA_SYNC, win::free, "free", "unlock");
            // PROC_NULL targets move nothing, inside an epoch.
            win.put(v, 1, MPI.INT, MPI.PROC_NULL, 0, 1, MPI.INT);
            win.unlock(0);
            win.fence(0);
            win.put(v, 1, MPI.INT, me, 0, 1, MPI.INT);
            assertMpiError(MPI.ERR_RMA_SYNC, win::free, "free", "1 operations since the last fence");
            win.fence(MPI.MODE_NOSUCCEED);
            win.free();
            assertMpiError(MPI.ERR_WIN, () -> win.fence(0), "fence", "freed");
            return null;
        });
    }

    @Sizes.AllSizes
    void targetsOutsideTheWindowAndMismatchedTypes(World w) {
        w.run(() -> {
            int n = size();
            int target = n - 1;
            IntBuffer mem = MPI.newIntBuffer(4);
            Win win = new Win(mem, 3, 1, null, MPI.COMM_WORLD);
            IntBuffer v = MPI.newIntBuffer(4);
            win.lockAll(0);
            assertMpiError(MPI.ERR_RMA_RANGE, () -> win.put(v, 1, MPI.INT, target, 3, 1, MPI.INT), "put",
                "displacement 3", "12 bytes");
            assertMpiError(MPI.ERR_RMA_RANGE, () -> win.get(v, 2, MPI.INT, target, 2, 2, MPI.INT), "get");
            assertMpiError(MPI.ERR_DISP, () -> win.put(v, 1, MPI.INT, target, -1, 1, MPI.INT), "put", "-1");
            assertMpiError(MPI.ERR_TYPE, () -> win.put(v, 1, MPI.INT, target, 0, 1, MPI.FLOAT), "put");
            assertMpiError(MPI.ERR_COUNT, () -> win.put(v, 2, MPI.INT, target, 0, 1, MPI.INT), "put", "length");
            assertMpiError(MPI.ERR_BUFFER, () -> win.put(v, 5, MPI.INT, target, 0, 5, MPI.INT), "put", "origin");
            DoubleBuffer d = MPI.newDoubleBuffer(1);
            assertMpiError(MPI.ERR_TYPE, () -> win.put(d, 1, MPI.DOUBLE, target, 0, 1, MPI.DOUBLE), "put",
                "IntBuffer");
            assertMpiError(MPI.ERR_RANK, () -> win.put(v, 1, MPI.INT, n, 0, 1, MPI.INT), "put", "rank " + n);
            Op mine = new Op(new UserFunction() {
            }, true);
            assertMpiError(MPI.ERR_OP, () -> win.accumulate(v, 1, MPI.INT, target, 0, 1, MPI.INT, mine),
                "accumulate", "predefined");
            assertMpiError(MPI.ERR_OP, () -> win.accumulate(v, 1, MPI.INT, target, 0, 1, MPI.INT, MPI.MAXLOC),
                "accumulate");
            Datatype pair = Datatype.createContiguous(2, MPI.INT);
            pair.commit();
            assertMpiError(MPI.ERR_TYPE, () -> win.fetchAndOp(v, v, pair, target, 0, MPI.SUM), "fetchAndOp",
                "predefined");
            // Within bounds all is well, to the last byte.
            win.put(v, 3, MPI.INT, target, 0, 3, MPI.INT);
            win.unlockAll();
            win.free();
            assertMpiError(MPI.ERR_SIZE, () -> new Win(mem, 5, 1, null, MPI.COMM_WORLD), "Win", "20");
            assertMpiError(MPI.ERR_DISP, () -> new Win(mem, 4, 0, null, MPI.COMM_WORLD), "Win", "displacement");
            assertMpiError(MPI.ERR_ARG, () -> new Win(16, 4, null, MPI.COMM_WORLD, null, 7), "flavor 7");
            // Info no_locks=true (on some ranks only, as Open MPI's c_create_info_half): no lock there.
            Info noLocks = new Info();
            if (rank() % 2 == 0) {
                noLocks.set("no_locks", "true");
            }
            Win promised = new Win(mem, 1, 1, noLocks, MPI.COMM_WORLD);
            if (rank() % 2 == 0) {
                assertMpiError(MPI.ERR_RMA_SYNC, () -> promised.lock(MPI.LOCK_SHARED, 0, 0), "lock", "no_locks");
                assertMpiError(MPI.ERR_RMA_SYNC, () -> promised.lockAll(0), "lockAll", "no_locks");
            } else {
                promised.lock(MPI.LOCK_SHARED, rank(), 0);
                promised.unlock(rank());
            }
            promised.free();
            return null;
        });
    }

    @Sizes.AllSizes
    void fenceAssertionsAreCheckedOnEveryRank(World w) {
        w.run(() -> {
            int me = rank();
            Win win = new Win(MPI.newIntBuffer(1), 1, 1, null, MPI.COMM_WORLD);
            IntBuffer v = MPI.newIntBuffer(1);
            win.fence(0);
            if (me == 0) {
                win.put(v, 1, MPI.INT, 0, 0, 1, MPI.INT);
            }
            assertMpiError(MPI.ERR_ASSERT, () -> win.fence(MPI.MODE_NOPRECEDE), "fence", "MODE_NOPRECEDE",
                "rank 0 issued 1");
            if (size() > 1) {
                assertMpiError(MPI.ERR_ASSERT, () -> win.fence(me == 0 ? MPI.MODE_NOSUCCEED : 0), "fence",
                    "MODE_NOSUCCEED");
            }
            assertMpiError(MPI.ERR_ASSERT, () -> win.fence(MPI.MODE_NOCHECK), "fence", "assert 1");
            win.fence(MPI.MODE_NOSUCCEED);
            win.free();
            return null;
        });
    }

    @Test
    void aFenceAgainstAFreeFailsOnBothRanks() {
        World w = Sizes.all().filter(x -> x.size() == 2).findFirst().orElseThrow();
        w.run(() -> {
            Win win = new Win(MPI.newIntBuffer(1), 1, 1, null, MPI.COMM_WORLD);
            if (rank() == 0) {
                assertMpiError(MPI.ERR_NOT_SAME, () -> win.fence(0), "fence", "free");
            } else {
                assertMpiError(MPI.ERR_NOT_SAME, win::free, "fence", "free");
            }
            return null;
        });
    }

    @Test
    void errorsAreFatalWhenTheWindowSaysSo() {
        JobFailedException e = assertThrows(JobFailedException.class, () -> Jobs.options().ranks(2).run(() -> {
            MPI.Init(new String[0]);
            Win win = new Win(MPI.newIntBuffer(1), 1, 1, null, MPI.COMM_WORLD);
            assertEquals(MPI.ERRORS_RETURN, win.getErrhandler());
            win.setErrhandler(MPI.ERRORS_ARE_FATAL);
            try {
                win.unlock(0);
            } catch (MPIException caught) {
                // The job ends anyway.
            }
            MPI.COMM_WORLD.barrier();
            return null;
        }));
        assertTrue(e.getMessage().contains("MPI_ERR_RMA_SYNC"), e.getMessage());
    }

    @Sizes.AllSizes
    void namesAttributesInfoAndErrhandlerCalls(World w) {
        w.run(() -> {
            Win win = new Win(MPI.newIntBuffer(1), 1, 1, null, MPI.COMM_WORLD);
            assertEquals("", win.getName());
            win.setName("counters");
            assertEquals("counters", win.getName());
            int key = Win.createKeyval();
            assertNull(win.getAttr(key));
            win.setAttr(key, "value");
            assertEquals("value", win.getAttr(key));
            win.deleteAttr(key);
            assertNull(win.getAttr(key));
            Win.freeKeyval(key);
            assertMpiError(MPI.ERR_KEYVAL, () -> win.setAttr(MPI.WIN_SIZE, 1L), "setAttr", "read-only");
            assertEquals(size(), win.getGroup().getSize());
            assertEquals(rank(), win.getGroup().getRank());
            win.setInfo(win.getInfo());
            win.callErrhandler(MPI.ERR_RMA_CONFLICT); // ERRORS_RETURN: the handler returns, so does the call
            assertMpiError(MPI.ERR_ARG, () -> win.callErrhandler(-5), "callErrhandler");
            win.free();
            return null;
        });
    }

    @Sizes.AllSizes
    void dynamicWindowsAddressAttachedBuffersInAttachOrder(World w) {
        w.run(() -> {
            int me = rank();
            int n = size();
            Win win = new Win(null, MPI.COMM_WORLD);
            assertEquals(0, win.getAttr(MPI.WIN_SIZE));
            ByteBuffer first = ByteBuffer.allocate(12);
            IntBuffer second = MPI.newIntBuffer(2);
            win.attach(first, 12);
            win.attach(second, 2);
            assertMpiError(MPI.ERR_RMA_ATTACH, () -> win.attach(second, 2), "attach", "already");
            MPI.COMM_WORLD.barrier();
            int right = (me + 1) % n;
            IntBuffer v = MPI.newIntBuffer(1).put(0, me + 1);
            win.lockAll(0);
            // The first buffer at address 0 (12 bytes), the second at 16.
            win.put(v, 1, MPI.INT, right, 16 + 4, 1, MPI.INT);
            assertMpiError(MPI.ERR_RMA_RANGE, () -> win.put(v, 1, MPI.INT, right, 12, 1, MPI.INT), "put",
                "attached");
            win.unlockAll();
            MPI.COMM_WORLD.barrier();
            assertEquals((me + n - 1) % n + 1, second.get(1));
            win.detach(second);
            assertMpiError(MPI.ERR_RMA_ATTACH, () -> win.detach(second), "detach", "not attached");
            MPI.COMM_WORLD.barrier();
            win.lockAll(0);
            assertMpiError(MPI.ERR_RMA_RANGE, () -> win.put(v, 1, MPI.INT, right, 16, 1, MPI.INT), "put");
            win.unlockAll();
            win.free();
            return null;
        });
    }
}
