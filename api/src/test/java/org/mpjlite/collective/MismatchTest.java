package org.mpjlite.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.RankProgram;
import org.mpjlite.p2p.Jobs;

/**
 * Collectives that do not match across ranks (another operation, root, count, type or reduction
 * operation) fail on every rank before any data moves, with an error naming both ranks, both calls
 * with their arguments and the user's lines.
 */
class MismatchTest {
    /** The line after the caller's: where the collective under test is called. */
    private static int nextLine() {
        return new Throwable().getStackTrace()[1].getLineNumber() + 1;
    }

    /** Each rank's error as "class: message", or "ok" if the rank's body returned normally. */
    private static List<String> outcomes(int ranks, RankProgram<Integer> body) {
        return Worlds.of(ranks).run(() -> {
            int[] line = new int[1];
            try {
                line[0] = body.run();
                return "ok";
            } catch (MPIException e) {
                return e.getErrorClass() + ": " + e.getMessage();
            }
        });
    }

    private static void assertEveryRank(List<String> outcomes, int errorClass, String mismatch) {
        for (int r = 0; r < outcomes.size(); r++) {
            String o = outcomes.get(r);
            assertEquals(errorClass + ": ", o.substring(0, Math.min(o.length(), (errorClass + ": ").length())),
                "rank " + r + ": " + o);
            org.mpjlite.p2p.Jobs.assertMentions(o, " on rank " + r + ":", mismatch);
        }
    }

    private static String at(int line) {
        return " at MismatchTest.java:" + line;
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void bcastAgainstBarrierIsNotTheSameCollective(int ranks) {
        int[] lines = new int[2];
        List<String> o = outcomes(ranks, () -> {
            int[] buf = new int[4];
            if (MPI.COMM_WORLD.Rank() == 1) {
                lines[1] = nextLine();
                MPI.COMM_WORLD.Barrier();
            } else {
                lines[0] = nextLine();
                MPI.COMM_WORLD.Bcast(buf, 0, 4, MPI.INT, 0);
            }
            return 0;
        });
        assertEveryRank(o, MPI.ERR_NOT_SAME, "Bcast(root=0, count=4, MPI.INT)" + at(lines[0])
            + " on rank 0 does not match Barrier()" + at(lines[1]) + " on rank 1");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void differentRootsCountsTypesAndOperationsAreNamed(int ranks) {
        int last = ranks - 1;
        int[] lines = new int[2];
        List<String> roots = outcomes(ranks, () -> {
            int[] buf = new int[4];
            boolean odd = MPI.COMM_WORLD.Rank() == last;
            lines[odd ? 1 : 0] = nextLine();
            MPI.COMM_WORLD.Bcast(buf, 0, 4, MPI.INT, odd ? 1 : 0);
            return 0;
        });
        assertEveryRank(roots, MPI.ERR_ROOT, "Bcast(root=0, count=4, MPI.INT)" + at(lines[0]) + " on rank 0 does not "
            + "match Bcast(root=1, count=4, MPI.INT)" + at(lines[1]) + " on rank " + last);
        List<String> counts = outcomes(ranks, () -> {
            int[] in = new int[8];
            int[] out = new int[8];
            boolean odd = MPI.COMM_WORLD.Rank() == last;
            lines[odd ? 1 : 0] = nextLine();
            MPI.COMM_WORLD.allReduce(in, out, odd ? 8 : 4, MPI.INT, MPI.SUM);
            return 0;
        });
        assertEveryRank(counts, MPI.ERR_COUNT, "allReduce(count=4, MPI.INT, MPI.SUM)" + at(lines[0]) + " on rank 0 "
            + "does not match allReduce(count=8, MPI.INT, MPI.SUM)" + at(lines[1]) + " on rank " + last);
        List<String> types = outcomes(ranks, () -> {
            boolean odd = MPI.COMM_WORLD.Rank() == last;
            lines[odd ? 1 : 0] = nextLine();
            MPI.COMM_WORLD.Allgather(odd ? new long[1] : new int[1], 0, 1, odd ? MPI.LONG : MPI.INT,
                odd ? new long[ranks] : new int[ranks], 0, 1, odd ? MPI.LONG : MPI.INT);
            return 0;
        });
        assertEveryRank(types, MPI.ERR_TYPE, "Allgather(count=1, MPI.INT)" + at(lines[0]) + " on rank 0 does not "
            + "match Allgather(count=1, MPI.LONG)" + at(lines[1]) + " on rank " + last);
        List<String> ops = outcomes(ranks, () -> {
            boolean odd = MPI.COMM_WORLD.Rank() == last;
            lines[odd ? 1 : 0] = nextLine();
            MPI.COMM_WORLD.Reduce(new int[1], 0, new int[1], 0, 1, MPI.INT, odd ? MPI.MAX : MPI.SUM, 0);
            return 0;
        });
        assertEveryRank(ops, MPI.ERR_OP, "Reduce(root=0, count=1, MPI.INT, MPI.SUM)" + at(lines[0]) + " on rank 0 "
            + "does not match Reduce(root=0, count=1, MPI.INT, MPI.MAX)" + at(lines[1]) + " on rank " + last);
    }

    /**
     * Bcast of a few elements travels in the root's epoch line, every rank's line naming the root;
     * its mismatches (count and type in the line, count across the line limit, the root, a small
     * Allreduce, which also travels in the lines) are reported as the general path reports them.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void smallBcastMismatchesAreNamed(int ranks) {
        int last = ranks - 1;
        int[] lines = new int[2];
        for (int[] c : new int[][] {{2, 3}, {60, 61}, {61, 60}}) {
            List<String> counts = outcomes(ranks, () -> {
                boolean odd = MPI.COMM_WORLD.Rank() == last;
                lines[odd ? 1 : 0] = nextLine();
                MPI.COMM_WORLD.bcast(new int[61], c[odd ? 1 : 0], MPI.INT, 0);
                return 0;
            });
            assertEveryRank(counts, MPI.ERR_COUNT, "bcast(root=0, count=" + c[0] + ", MPI.INT)" + at(lines[0])
                + " on rank 0 does not match bcast(root=0, count=" + c[1] + ", MPI.INT)" + at(lines[1]) + " on rank "
                + last);
        }
        List<String> types = outcomes(ranks, () -> {
            boolean odd = MPI.COMM_WORLD.Rank() == last;
            lines[odd ? 1 : 0] = nextLine();
            MPI.COMM_WORLD.bcast(odd ? new float[2] : new int[2], 2, odd ? MPI.FLOAT : MPI.INT, 0);
            return 0;
        });
        assertEveryRank(types, MPI.ERR_TYPE, "bcast(root=0, count=2, MPI.INT)" + at(lines[0]) + " on rank 0 does "
            + "not match bcast(root=0, count=2, MPI.FLOAT)" + at(lines[1]) + " on rank " + last);
        List<String> roots = outcomes(ranks, () -> {
            boolean odd = MPI.COMM_WORLD.Rank() == last;
            lines[odd ? 1 : 0] = nextLine();
            MPI.COMM_WORLD.bcast(new long[1], 1, MPI.LONG, odd ? last : 0);
            return 0;
        });
        assertEveryRank(roots, MPI.ERR_ROOT, "bcast(root=0, count=1, MPI.LONG)" + at(lines[0]) + " on rank 0 does "
            + "not match bcast(root=" + last + ", count=1, MPI.LONG)" + at(lines[1]) + " on rank " + last);
        List<String> allreduce = outcomes(ranks, () -> {
            if (MPI.COMM_WORLD.Rank() == last) {
                lines[1] = nextLine();
                MPI.COMM_WORLD.allReduce(new int[1], 1, MPI.INT, MPI.SUM);
            } else {
                lines[0] = nextLine();
                MPI.COMM_WORLD.bcast(new int[1], 1, MPI.INT, 0);
            }
            return 0;
        });
        assertEveryRank(allreduce, MPI.ERR_NOT_SAME, "bcast(root=0, count=1, MPI.INT)" + at(lines[0]) + " on rank 0 "
            + "does not match allReduce(count=1, MPI.INT, MPI.SUM)" + at(lines[1]) + " on rank " + last);
    }

    /**
     * Allreduce of a few elements travels in the ranks' epoch lines, not the slot; its mismatches
     * (with itself, with the general path, with other collectives, blocking against non-blocking)
     * are reported as the general path reports them.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void smallAllreduceMismatchesAreNamed(int ranks) {
        int last = ranks - 1;
        int[] lines = new int[2];
        for (int[] c : new int[][] {{2, 3}, {2, 100}, {100, 2}}) {
            List<String> counts = outcomes(ranks, () -> {
                boolean odd = MPI.COMM_WORLD.Rank() == last;
                lines[odd ? 1 : 0] = nextLine();
                MPI.COMM_WORLD.allReduce(new int[100], new int[100], c[odd ? 1 : 0], MPI.INT, MPI.SUM);
                return 0;
            });
            assertEveryRank(counts, MPI.ERR_COUNT, "allReduce(count=" + c[0] + ", MPI.INT, MPI.SUM)" + at(lines[0])
                + " on rank 0 does not match allReduce(count=" + c[1] + ", MPI.INT, MPI.SUM)" + at(lines[1]) + " on rank "
                + last);
        }
        List<String> ops = outcomes(ranks, () -> {
            boolean odd = MPI.COMM_WORLD.Rank() == last;
            lines[odd ? 1 : 0] = nextLine();
            MPI.COMM_WORLD.allReduce(new int[2], new int[2], 2, MPI.INT, odd ? MPI.MAX : MPI.SUM);
            return 0;
        });
        assertEveryRank(ops, MPI.ERR_OP, "allReduce(count=2, MPI.INT, MPI.SUM)" + at(lines[0]) + " on rank 0 does not "
            + "match allReduce(count=2, MPI.INT, MPI.MAX)" + at(lines[1]) + " on rank " + last);
        List<String> user = outcomes(ranks, () -> {
            boolean odd = MPI.COMM_WORLD.Rank() == last;
            lines[odd ? 1 : 0] = nextLine();
            MPI.COMM_WORLD.allReduce(new int[2], new int[2], 2, MPI.INT, odd ? new mpi.Op(new mpi.UserFunction() {
            }, true) : MPI.SUM);
            return 0;
        });
        assertEveryRank(user, MPI.ERR_OP, "allReduce(count=2, MPI.INT, MPI.SUM)" + at(lines[0]) + " on rank 0 does not "
            + "match allReduce(count=2, MPI.INT, a user operation)" + at(lines[1]) + " on rank " + last);
        List<String> types = outcomes(ranks, () -> {
            boolean odd = MPI.COMM_WORLD.Rank() == last;
            lines[odd ? 1 : 0] = nextLine();
            MPI.COMM_WORLD.allReduce(odd ? new long[1] : new int[1], odd ? new long[1] : new int[1], 1,
                odd ? MPI.LONG : MPI.INT, MPI.SUM);
            return 0;
        });
        assertEveryRank(types, MPI.ERR_TYPE, "allReduce(count=1, MPI.INT, MPI.SUM)" + at(lines[0]) + " on rank 0 does "
            + "not match allReduce(count=1, MPI.LONG, MPI.SUM)" + at(lines[1]) + " on rank " + last);
        List<String> barrier = outcomes(ranks, () -> {
            if (MPI.COMM_WORLD.Rank() == last) {
                lines[1] = nextLine();
                MPI.COMM_WORLD.barrier();
            } else {
                lines[0] = nextLine();
                MPI.COMM_WORLD.allReduce(new int[1], 1, MPI.INT, MPI.SUM);
            }
            return 0;
        });
        assertEveryRank(barrier, MPI.ERR_NOT_SAME, "allReduce(count=1, MPI.INT, MPI.SUM)" + at(lines[0]) + " on rank 0 "
            + "does not match barrier()" + at(lines[1]) + " on rank " + last);
        List<String> nonBlocking = outcomes(ranks, () -> {
            if (MPI.COMM_WORLD.Rank() == last) {
                MPI.COMM_WORLD.iAllReduce(new int[1], 1, MPI.INT, MPI.SUM).waitFor();
            } else {
                lines[0] = nextLine();
                MPI.COMM_WORLD.allReduce(new int[1], 1, MPI.INT, MPI.SUM);
            }
            return 0;
        });
        assertEveryRank(nonBlocking, MPI.ERR_NOT_SAME, "allReduce(count=1, MPI.INT, MPI.SUM)" + at(lines[0])
            + " on rank 0 does not match iAllReduce(count=1, MPI.INT, MPI.SUM) on rank " + last);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void smallAllreduceWorksAfterAMismatchOnIt(int ranks) {
        List<Integer> sums = Worlds.of(ranks).run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            org.mpjlite.p2p.Jobs.assertMpiError(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.allReduce(new int[9], new int[9],
                me == 1 ? 9 : 1, MPI.INT, MPI.SUM), "does not match");
            int[] x = {me};
            for (int i = 0; i < 40; i++) {
                MPI.COMM_WORLD.allReduce(new int[] {me}, x, 1, MPI.INT, MPI.SUM);
            }
            return x[0];
        });
        sums.forEach(s -> assertEquals(ranks * (ranks - 1) / 2, s));
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void theCommunicatorStillWorksAfterAMismatchIsReported(int ranks) {
        List<Integer> sums = Worlds.of(ranks).run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            org.mpjlite.p2p.Jobs.assertMpiError(MPI.ERR_NOT_SAME, () -> {
                if (me == 0) {
                    MPI.COMM_WORLD.Bcast(new int[100_000], 0, 100_000, MPI.INT, 0);
                } else {
                    MPI.COMM_WORLD.Barrier();
                }
            }, "does not match");
            int[] x = {me};
            for (int i = 0; i < 40; i++) {
                MPI.COMM_WORLD.allReduce(new int[] {me}, x, 1, MPI.INT, MPI.SUM);
            }
            return x[0];
        });
        sums.forEach(s -> assertEquals(ranks * (ranks - 1) / 2, s));
    }

    /** Non-blocking collectives: lines only under --check (taking one at every call costs a stack walk). */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void nonBlockingCollectivesFailEveryRequest(int ranks) {
        List<String> o = outcomes(ranks, () -> {
            mpi.Request r = MPI.COMM_WORLD.Rank() == 1 ? MPI.COMM_WORLD.iBarrier()
                : MPI.COMM_WORLD.iBcast(new int[4], 4, MPI.INT, 0);
            r.waitFor();
            return 0;
        });
        assertEveryRank(o, MPI.ERR_NOT_SAME, "iBcast(root=0, count=4, MPI.INT) on rank 0 does not match iBarrier() "
            + "on rank 1");
        int[] lines = new int[2];
        List<String> c = Jobs.options().ranks(ranks).check(true).run(() -> {
            MPI.Init(new String[0]);
            try {
                boolean odd = MPI.COMM_WORLD.Rank() == 1;
                lines[odd ? 1 : 0] = nextLine();
                mpi.Request r = odd ? MPI.COMM_WORLD.iBarrier() : MPI.COMM_WORLD.iBcast(new int[4], 4, MPI.INT, 0);
                r.waitFor();
                return "ok";
            } catch (MPIException e) {
                return e.getErrorClass() + ": " + e.getMessage();
            } finally {
                MPI.Finalize();
            }
        });
        assertEveryRank(c, MPI.ERR_NOT_SAME, "iBcast(root=0, count=4, MPI.INT)" + at(lines[0]) + " on rank 0 does "
            + "not match iBarrier()" + at(lines[1]) + " on rank 1");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void aBlockingCollectiveAgainstANonBlockingOneFailsBoth(int ranks) {
        int[] line = new int[1];
        List<String> o = outcomes(ranks, () -> {
            if (MPI.COMM_WORLD.Rank() == 0) {
                MPI.COMM_WORLD.iBarrier().waitFor();
            } else {
                line[0] = nextLine();
                MPI.COMM_WORLD.barrier();
            }
            return 0;
        });
        assertEveryRank(o, MPI.ERR_NOT_SAME, "iBarrier() on rank 0 does not match barrier()" + at(line[0])
            + " on rank 1");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void aCollectiveAgainstAReceiveIsADeadlock(int ranks) {
        org.mpjlite.JobFailedException e = org.junit.jupiter.api.Assertions.assertThrows(
            org.mpjlite.JobFailedException.class, () -> Worlds.of(ranks).run(() -> {
                if (MPI.COMM_WORLD.Rank() == 1) {
                    MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 0, 7);
                } else {
                    MPI.COMM_WORLD.Bcast(new int[4], 0, 4, MPI.INT, 0);
                }
                return 0;
            }));
        assertEquals(org.mpjlite.smpdev.DeadlockException.EXIT_CODE, e.exitCode(), e.getMessage());
        org.mpjlite.p2p.Jobs.assertMentions(e.getMessage(),
            "rank 0: Bcast(root=0, count=4, MPI.INT; waiting for rank 1 of the communicator)",
            "rank 1: Recv(source=0, tag=7");
    }
}
