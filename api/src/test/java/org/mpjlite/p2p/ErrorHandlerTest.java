package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.JobFailedException;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.RankFailure;
import org.mpjlite.smpdev.Tunables;

/**
 * Error handlers: the default and ERRORS_RETURN throw a catchable MPIException and the rank goes
 * on; ERRORS_ARE_FATAL set explicitly ends the job even when the exception is caught. Error
 * strings, versions and MPIException's accessors.
 */
class ErrorHandlerTest {
    private static final Jobs.World PAIR = new Jobs.World(2, MatchingKind.LOCK_FREE, Tunables.DEFAULT_EAGER_THRESHOLD);

    @Test
    @DisplayName("the default handler is ERRORS_RETURN: errors are catchable and the rank carries on")
    void defaultAndErrorsReturnLetTheRankContinue() {
        List<Integer> got = PAIR.run(() -> {
            assertSame(MPI.ERRORS_RETURN, MPI.COMM_WORLD.getErrhandler());
            assertSame(MPI.ERRORS_RETURN, MPI.Errorhandler_get());
            assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.INT, 9, 0), "Send", "9");
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            assertMpiError(MPI.ERR_TAG, () -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 0, -3), "send", "-3");
            // A truncation found at Wait goes through the request's communicator, and is catchable.
            int me = MPI.COMM_WORLD.Rank();
            Request r = MPI.COMM_WORLD.Irecv(new int[1], 0, 1, MPI.INT, 1 - me, 4);
            MPI.COMM_WORLD.Send(new int[2], 0, 2, MPI.INT, 1 - me, 4);
            assertMpiError(MPI.ERR_TRUNCATE, r::Wait, "Irecv");
            int[] v = {me};
            MPI.COMM_WORLD.Allreduce(v, 0, v, 0, 1, MPI.INT, MPI.SUM);
            return v[0];
        });
        assertEquals(List.of(1, 1), got);
    }

    @Test
    @DisplayName("Waitall, Testall and Waitsome with a failed request collect every request before throwing its error")
    void multipleCompletionsCollectEveryRequestBeforeThrowing() {
        PAIR.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int other = 1 - me;
            for (int way = 0; way < 4; way++) {
                int[] small = new int[1];
                int[] good = new int[1];
                Request[] rs = {MPI.COMM_WORLD.Irecv(small, 0, 1, MPI.INT, other, 1),
                    MPI.COMM_WORLD.Irecv(good, 0, 1, MPI.INT, other, 2)};
                MPI.COMM_WORLD.Send(new int[] {7, 8}, 0, 2, MPI.INT, other, 1);
                MPI.COMM_WORLD.Send(new int[] {way}, 0, 1, MPI.INT, other, 2);
                MPI.COMM_WORLD.Barrier();
                switch (way) {
                    case 0 -> assertMpiError(MPI.ERR_TRUNCATE, () -> Request.Waitall(rs), "Irecv");
                    case 1 -> assertMpiError(MPI.ERR_TRUNCATE, () -> Request.waitAll(rs), "Irecv");
                    case 2 -> assertMpiError(MPI.ERR_TRUNCATE, () -> Request.Testall(rs), "Irecv");
                    default -> assertMpiError(MPI.ERR_TRUNCATE, () -> Request.Waitsome(rs), "Irecv");
                }
                assertTrue(rs[0].Is_null() && rs[1].Is_null(), "a request left active behind the failed one");
                assertEquals(way, good[0]);
                assertEquals(7, small[0]);
            }
            return null;
        });
    }

    @Test
    @DisplayName("ERRORS_ARE_FATAL set explicitly: a caught error still ends the job, with it as the cause")
    void errorsAreFatalEndsTheJobEvenWhenCaught() {
        JobFailedException e = assertThrows(JobFailedException.class, () -> Jobs.options().ranks(2)
            .shutdownGrace(Duration.ofMillis(500)).run(() -> {
                MPI.Init(new String[0]);
                MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_ARE_FATAL);
                assertSame(MPI.ERRORS_ARE_FATAL, MPI.COMM_WORLD.getErrhandler());
                if (MPI.COMM_WORLD.Rank() == 1) {
                    try {
                        MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 5, 0);
                    } catch (MPIException ignored) {
                        // Caught, yet the handler has already ended the job.
                    }
                    Thread.sleep(60_000);
                } else {
                    MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 1, 0);
                }
                MPI.Finalize();
                return null;
            }));
        assertEquals(1, e.rank());
        assertEquals(RankFailure.EXCEPTION_EXIT_CODE, e.exitCode());
        MPIException cause = assertInstanceOf(MPIException.class, e.getCause());
        assertEquals(MPI.ERR_RANK, cause.getErrorClass());
        assertTrue(cause.getMessage().contains("Recv: source rank 5"), cause.getMessage());
    }

    /** A bad call that makes a communicator, caught: under ERRORS_ARE_FATAL the job ends with it. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Split", "split", "Create_cart", "createCart", "Create_graph", "Map", "Sub"})
    @DisplayName("ERRORS_ARE_FATAL: a caught error of a call that makes a communicator ends the job")
    void errorsAreFatalCoversCommunicatorCreation(String call) {
        JobFailedException e = assertThrows(JobFailedException.class, () -> Jobs.options().ranks(2)
            .shutdownGrace(Duration.ofMillis(500)).run(() -> {
                MPI.Init(new String[0]);
                mpi.Cartcomm grid = MPI.COMM_WORLD.Create_cart(new int[] {2}, new boolean[] {true}, false);
                MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_ARE_FATAL);
                grid.setErrhandler(MPI.ERRORS_ARE_FATAL);
                try {
                    switch (call) {
                        case "Split" -> MPI.COMM_WORLD.Split(-5, 0);
                        case "split" -> MPI.COMM_WORLD.split(-5, 0);
                        case "Create_cart" -> MPI.COMM_WORLD.Create_cart(new int[] {3}, new boolean[] {false}, false);
                        case "createCart" -> MPI.COMM_WORLD.createCart(new int[] {-1}, new boolean[] {false}, false);
                        case "Create_graph" -> MPI.COMM_WORLD.Create_graph(new int[] {1, 1, 1}, new int[] {0}, false);
                        case "Map" -> grid.Map(new int[] {0}, new boolean[] {false});
                        default -> grid.Sub(new boolean[] {true, true});
                    }
                } catch (MPIException ignored) {
                    // Caught, yet the handler has already ended the job.
                }
                Thread.sleep(60_000);
                MPI.Finalize();
                return null;
            }));
        MPIException cause = assertInstanceOf(MPIException.class, e.getCause());
        assertTrue(cause.getMessage().contains(call + ":"), cause.getMessage());
    }

    /** A bad local call on a communicator, caught: under ERRORS_ARE_FATAL the job ends with it. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"setName", "Free", "setAttr", "getAttr", "deleteAttr", "Attr_delete", "Coords", "Rank",
        "Shift", "getCoords", "shift"})
    @DisplayName("ERRORS_ARE_FATAL: a caught error of a local call on a communicator ends the job")
    void errorsAreFatalCoversLocalCalls(String call) {
        JobFailedException e = assertThrows(JobFailedException.class, () -> Jobs.options().ranks(2)
            .shutdownGrace(Duration.ofMillis(500)).run(() -> {
                MPI.Init(new String[0]);
                mpi.Cartcomm grid = MPI.COMM_WORLD.Create_cart(new int[] {2}, new boolean[] {true}, false);
                mpi.CartComm ring = MPI.COMM_WORLD.createCart(new int[] {2}, new boolean[] {true}, false);
                for (mpi.Comm c : new mpi.Comm[] {MPI.COMM_WORLD, grid, ring}) {
                    c.setErrhandler(MPI.ERRORS_ARE_FATAL);
                }
                int predefined = MPI.TAG_UB;
                try {
                    switch (call) {
                        case "setName" -> MPI.COMM_WORLD.setName(null);
                        case "Free" -> MPI.COMM_WORLD.Free();
                        case "setAttr" -> MPI.COMM_WORLD.setAttr(predefined, 1);
                        case "getAttr" -> MPI.COMM_WORLD.getAttr(-77);
                        case "deleteAttr" -> MPI.COMM_WORLD.deleteAttr(predefined);
                        case "Attr_delete" -> MPI.COMM_WORLD.Attr_delete(predefined);
                        case "Coords" -> grid.Coords(7);
                        case "Rank" -> grid.Rank(new int[] {0, 0});
                        case "Shift" -> grid.Shift(3, 1);
                        case "getCoords" -> ring.getCoords(-1);
                        default -> ring.shift(-1, 1);
                    }
                } catch (MPIException ignored) {
                    // Caught, yet the handler has already ended the job.
                }
                Thread.sleep(60_000);
                MPI.Finalize();
                return null;
            }));
        MPIException cause = assertInstanceOf(MPIException.class, e.getCause());
        assertTrue(cause.getMessage().contains(call + ":"), cause.getMessage());
    }

    @Test
    @DisplayName("new communicators inherit their parent's handler: Split, Create, Dup, clone, Create_cart, Merge")
    void newCommunicatorsInheritTheHandler() {
        PAIR.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_ARE_FATAL);
            mpi.Intracomm split = MPI.COMM_WORLD.Split(0, me);
            assertSame(MPI.ERRORS_ARE_FATAL, split.getErrhandler());
            assertSame(MPI.ERRORS_ARE_FATAL, MPI.COMM_WORLD.Create(MPI.COMM_WORLD.Group()).getErrhandler());
            assertSame(MPI.ERRORS_ARE_FATAL, MPI.COMM_WORLD.Dup().getErrhandler());
            assertSame(MPI.ERRORS_ARE_FATAL, MPI.COMM_WORLD.clone().getErrhandler());
            assertSame(MPI.ERRORS_ARE_FATAL,
                MPI.COMM_WORLD.Create_cart(new int[] {2}, new boolean[] {false}, false).getErrhandler());
            split.setErrhandler(MPI.ERRORS_RETURN);
            assertSame(MPI.ERRORS_RETURN, split.split(0, me).getErrhandler());
            assertSame(MPI.ERRORS_ARE_FATAL, MPI.COMM_WORLD.getErrhandler(), "a child's handler is its own");
            mpi.Intracomm alone = MPI.COMM_WORLD.Split(me, 0);
            mpi.Intercomm ic = MPI.COMM_WORLD.Create_intercomm(alone, 0, 1 - me, 3);
            assertSame(MPI.ERRORS_ARE_FATAL, ic.getErrhandler());
            assertSame(MPI.ERRORS_ARE_FATAL, ic.Merge(me == 1).getErrhandler());
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            return null;
        });
    }

    @Test
    @DisplayName("the handler belongs to one communicator: ERRORS_ARE_FATAL on COMM_WORLD leaves COMM_SELF alone")
    void handlersArePerCommunicator() {
        PAIR.run(() -> {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_ARE_FATAL);
            assertSame(MPI.ERRORS_RETURN, MPI.COMM_SELF.getErrhandler());
            assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_SELF.Send(new int[1], 0, 1, MPI.INT, 1, 0), "Send");
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            MPI.COMM_WORLD.Barrier();
            return null;
        });
    }

    @Test
    @DisplayName("an error in a collective goes through the handler too; Errorhandler_set is MPJ Express's setter")
    void collectiveErrorsUnderErrorsAreFatal() {
        JobFailedException e = assertThrows(JobFailedException.class, () -> Jobs.options().ranks(3)
            .shutdownGrace(Duration.ofMillis(500)).run(() -> {
                MPI.Init(new String[0]);
                MPI.Errorhandler_set(MPI.ERRORS_ARE_FATAL);
                if (MPI.COMM_WORLD.Rank() == 2) {
                    try {
                        MPI.COMM_WORLD.Bcast(new int[1], 0, 1, MPI.INT, 7);
                    } catch (MPIException ignored) {
                        // The job is over anyway.
                    }
                    Thread.sleep(60_000);
                }
                MPI.COMM_WORLD.Barrier();
                MPI.Finalize();
                return null;
            }));
        assertEquals(2, e.rank());
        assertEquals(MPI.ERR_ROOT, assertInstanceOf(MPIException.class, e.getCause()).getErrorClass());
    }

    @Test
    @DisplayName("callErrhandler returns under ERRORS_RETURN (the handler returns) and ends the job under ERRORS_ABORT")
    void callErrhandler() {
        PAIR.run(() -> {
            MPI.COMM_WORLD.callErrhandler(MPI.ERR_OTHER); // ERRORS_RETURN: nothing to throw
            MPI.COMM_WORLD.Barrier();
            assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.callErrhandler(-4), "callErrhandler", "-4");
            assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.setErrhandler(null), "setErrhandler", "null");
            return null;
        });
        JobFailedException e = assertThrows(JobFailedException.class, () -> Jobs.options().ranks(1).run(() -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.Errhandler_set(MPI.ERRORS_ABORT);
            assertSame(MPI.ERRORS_ABORT, MPI.COMM_WORLD.Errorhandler_get());
            try {
                MPI.COMM_WORLD.callErrhandler(MPI.ERR_COUNT);
            } catch (MPIException ignored) {
                // Ended already.
            }
            MPI.Finalize();
            return null;
        }));
        assertEquals(MPI.ERR_COUNT, assertInstanceOf(MPIException.class, e.getCause()).getErrorClass());
    }

    @Test
    @DisplayName("Error_string gives a distinct meaningful text per error class; MPIException carries it")
    void errorStrings() {
        int[] classes = {MPI.SUCCESS, MPI.ERR_BUFFER, MPI.ERR_COUNT, MPI.ERR_TYPE, MPI.ERR_TAG, MPI.ERR_COMM,
            MPI.ERR_RANK, MPI.ERR_REQUEST, MPI.ERR_ROOT, MPI.ERR_GROUP, MPI.ERR_OP, MPI.ERR_TOPOLOGY, MPI.ERR_DIMS,
            MPI.ERR_ARG, MPI.ERR_UNKNOWN, MPI.ERR_TRUNCATE, MPI.ERR_OTHER, MPI.ERR_INTERN, MPI.ERR_IN_STATUS,
            MPI.ERR_PENDING, MPI.ERR_NO_MEM, MPI.ERR_NOT_SAME, MPI.ERR_UNSUPPORTED_OPERATION, MPI.ERR_PROC_ABORTED,
            MPI.ERR_ACCESS, MPI.ERR_AMODE, MPI.ERR_FILE, MPI.ERR_INFO, MPI.ERR_IO, MPI.ERR_WIN, MPI.ERR_RMA_SYNC};
        Set<String> texts = new HashSet<>();
        for (int c : classes) {
            String s = MPI.Error_string(c);
            assertTrue(s.startsWith("MPI_" + (c == MPI.SUCCESS ? "SUCCESS" : "ERR_")), s);
            assertTrue(s.length() > 20, s);
            assertTrue(texts.add(s), "twice: " + s);
            assertEquals(c, MPI.Error_class(c));
        }
        assertEquals("MPI_ERR_TRUNCATE: message truncated: longer than the receive buffer",
            MPI.Error_string(MPI.ERR_TRUNCATE));
        assertEquals("MPI_ERR_60: error class 60", MPI.Error_string(60));
        assertMpiError(MPI.ERR_ARG, () -> MPI.Error_string(MPI.ERR_LASTCODE + 1), "Error_string", "93");
        assertMpiError(MPI.ERR_ARG, () -> MPI.Error_class(-1), "Error_class", "-1");

        MPIException e = new MPIException(MPI.ERR_TAG, "Send: tag must be in 0.., was -1");
        assertEquals(MPI.ERR_TAG, e.getErrorClass());
        assertEquals(MPI.ERR_TAG, e.getErrorCode());
        assertEquals(MPI.Error_string(MPI.ERR_TAG), e.getErrorString());
        assertTrue(e.getMessage().startsWith("MPI_ERR_TAG: Send: tag"), e.getMessage());
    }

    @Test
    @DisplayName("getVersion / Get_version say MPI 3.1; getLibVersion names MPJ Lite")
    void versions() {
        assertEquals(3, MPI.getVersion().getVersion());
        assertEquals(1, MPI.getVersion().getSubVersion());
        assertEquals(MPI.VERSION, MPI.Get_version().getVersion());
        assertEquals(MPI.SUBVERSION, MPI.Get_version().getSubVersion());
        assertTrue(MPI.getLibVersion().startsWith("MPJ Lite "), MPI.getLibVersion());
        assertEquals(MPI.getLibVersion(), MPI.Get_library_version());
        assertNotEquals(MPI.ERRORS_RETURN, MPI.ERRORS_ARE_FATAL);
        assertFalse(MPI.ERRORS_RETURN.toString().isEmpty());
    }
}
