package org.mpjlite.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;
import mpi.Comm;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/**
 * Intercommunicators between the even and the odd world ranks: creation in both dialects, remote
 * groups, point-to-point with specific and wildcard sources, duplicates, Merge ordering, the errors.
 */
class IntercommTest {
    /** The world ranks of one parity, in order. */
    static int[] parity(int n, int color) {
        return IntStream.range(0, n).filter(r -> r % 2 == color).toArray();
    }

    /** The intercommunicator between even and odd ranks (leaders: world ranks 0 and 1), made with tag 77. */
    static Intercomm evenOdd(boolean openMpi) {
        int me = MPI.COMM_WORLD.Rank();
        Intracomm local = MPI.COMM_WORLD.Split(me % 2, me);
        int remoteLeader = 1 - me % 2;
        return openMpi ? MPI.COMM_WORLD.createIntercomm(local, 0, remoteLeader, 77)
            : MPI.COMM_WORLD.Create_intercomm(local, 0, remoteLeader, 77);
    }

    @Jobs.MultiRanksBothProtocols
    void everyRankTalksToEveryRemoteRankWithSpecificAndWildcardSources(World w) {
        List<Integer> out = w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            Intercomm ic = evenOdd(me % 2 == 1);
            int[] mine = parity(n, me % 2);
            int[] theirs = parity(n, 1 - me % 2);
            assertTrue(ic.Test_inter());
            assertTrue(ic.isInter());
            assertEquals(mine.length, ic.Size());
            assertEquals(me / 2, ic.getRank());
            assertEquals(theirs.length, ic.Remote_size());
            assertEquals(theirs.length, ic.getRemoteSize());
            Group world = MPI.COMM_WORLD.Group();
            Group remote = ic.Remote_group();
            assertArrayEquals(theirs, Group.Translate_ranks(remote, IntStream.range(0, theirs.length).toArray(), world));
            assertEquals(MPI.UNDEFINED, ic.getRemoteGroup().Rank());
            assertArrayEquals(mine, Group.Translate_ranks(ic.Group(), IntStream.range(0, mine.length).toArray(), world));
            // Large enough for rendezvous when the world is rendezvous-only; the tag says who sent it.
            int len = 300;
            Request[] sends = new Request[theirs.length];
            for (int r = 0; r < theirs.length; r++) {
                int[] payload = new int[len];
                java.util.Arrays.fill(payload, me * 1000 + r);
                sends[r] = ic.Isend(payload, 0, len, MPI.INT, r, ic.Rank());
            }
            // First from remote rank 0 by name, then the rest by wildcard.
            int[] buf = new int[len];
            Status s = ic.Recv(buf, 0, len, MPI.INT, 0, MPI.ANY_TAG);
            int ok = check(s, buf, theirs, ic.Rank()) ? 1 : 0;
            for (int k = 1; k < theirs.length; k++) {
                s = ic.Recv(buf, 0, len, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                ok += check(s, buf, theirs, ic.Rank()) ? 1 : 0;
            }
            Request.Waitall(sends);
            // The same tag on the world at the same time does not mix.
            int[] got = new int[1];
            MPI.COMM_WORLD.Sendrecv(new int[] {me}, 0, 1, MPI.INT, (me + 1) % n, 0, got, 0, 1, MPI.INT,
                (me + n - 1) % n, 0);
            assertEquals((me + n - 1) % n, got[0]);
            return ok == theirs.length ? 1 : 0;
        });
        assertTrue(out.stream().allMatch(x -> x == 1), out.toString());
    }

    /** The status names the sender's rank in its (remote) group, and the data is that sender's. */
    private static boolean check(Status s, int[] buf, int[] theirs, int myLocalRank) {
        int src = s.getSource();
        assertEquals(src, s.tag, "the tag is the sender's local rank");
        assertEquals(theirs[src] * 1000 + myLocalRank, buf[0]);
        assertEquals(buf[0], buf[buf.length - 1]);
        return true;
    }

    @Jobs.MultiRanks
    void mergeOrdersTheGroupsByHighThenByLeader(World w) {
        List<int[]> out = w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            Intercomm ic = evenOdd(false);
            Group world = MPI.COMM_WORLD.Group();
            int[] all = IntStream.range(0, n).toArray();
            int[] evenFirst = IntStream.concat(IntStream.of(parity(n, 0)), IntStream.of(parity(n, 1))).toArray();
            int[] oddFirst = IntStream.concat(IntStream.of(parity(n, 1)), IntStream.of(parity(n, 0))).toArray();
            // Even ranks high: odd first. Then odd ranks high: even first. Both the same: the group of
            // world rank 0 (the lower leader) first.
            Intracomm a = ic.Merge(me % 2 == 0);
            Intracomm b = ic.merge(me % 2 == 1);
            Intracomm c = ic.Merge(false);
            Intracomm d = ic.merge(true);
            assertArrayEquals(oddFirst, Group.Translate_ranks(a.Group(), all, world));
            assertArrayEquals(evenFirst, Group.Translate_ranks(b.Group(), all, world));
            assertArrayEquals(evenFirst, Group.Translate_ranks(c.Group(), all, world));
            assertArrayEquals(evenFirst, Group.Translate_ranks(d.Group(), all, world));
            assertEquals(MPI.SIMILAR, Comm.Compare(a, MPI.COMM_WORLD));
            assertEquals(MPI.CONGRUENT, Comm.compare(b, c));
            // The merged communicators work: collectives and a ring.
            int[] sum = new int[1];
            a.Allreduce(new int[] {me}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
            int[] left = new int[1];
            int r = b.Rank();
            b.Sendrecv(new int[] {me}, 0, 1, MPI.INT, (r + 1) % n, 0, left, 0, 1, MPI.INT, (r + n - 1) % n, 0);
            return new int[] {a.Rank(), b.Rank(), sum[0], left[0]};
        });
        int n = w.size();
        int evens = (n + 1) / 2;
        int odds = n / 2;
        for (int me = 0; me < n; me++) {
            int[] r = out.get(me);
            int inB = me % 2 == 0 ? me / 2 : evens + me / 2;
            int inA = me % 2 == 1 ? me / 2 : odds + me / 2;
            int leftInB = (inB + n - 1) % n;
            int leftWorld = leftInB < evens ? 2 * leftInB : 2 * (leftInB - evens) + 1;
            assertArrayEquals(new int[] {inA, inB, n * (n - 1) / 2, leftWorld}, r, "rank " + me);
        }
    }

    @Jobs.MultiRanks
    void duplicatesAndManyIntercommunicatorsCarryTrafficAtOnce(World w) {
        List<Integer> out = w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            Intercomm ic = evenOdd(true);
            Intercomm[] comms = new Intercomm[6];
            comms[0] = ic;
            for (int i = 1; i < comms.length; i++) {
                comms[i] = i % 2 == 0 ? comms[i - 1].dup() : comms[i - 1].clone();
            }
            assertEquals(MPI.IDENT, Comm.compare(ic, ic));
            assertEquals(MPI.CONGRUENT, Comm.compare(ic, comms[1]));
            assertEquals(MPI.UNEQUAL, Comm.Compare(ic, MPI.COMM_WORLD));
            // Each sends to remote rank 0 with the same tag on every communicator; receives in reverse.
            Request[] sends = new Request[comms.length];
            for (int i = 0; i < comms.length; i++) {
                sends[i] = comms[i].Isend(new int[] {i * 100 + me}, 0, 1, MPI.INT, 0, 4);
            }
            int ok = 0;
            if (ic.Rank() == 0) {
                int remote = ic.Remote_size();
                for (int i = comms.length - 1; i >= 0; i--) {
                    for (int k = 0; k < remote; k++) {
                        int[] got = new int[1];
                        Status s = comms[i].Recv(got, 0, 1, MPI.INT, MPI.ANY_SOURCE, 4);
                        int sender = 2 * s.source + (1 - me % 2);
                        ok += got[0] == i * 100 + sender ? 1 : 0;
                    }
                }
                ok = ok == comms.length * remote ? 1 : 0;
            } else {
                ok = 1;
            }
            Request.Waitall(sends);
            MPI.COMM_WORLD.Barrier();
            return ok;
        });
        assertTrue(out.stream().allMatch(x -> x == 1), out.toString());
    }

    @Jobs.MultiRanks
    void misuseIsAnError(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            Intercomm ic = evenOdd(false);
            Jobs.assertMpiError(MPI.ERR_RANK, () -> ic.Send(new int[1], 0, 1, MPI.INT, ic.Remote_size(), 0), "Send",
                "dest");
            // The same local leader and remote leader: the groups would overlap. Everyone gets an error.
            Jobs.assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Create_intercomm(MPI.COMM_WORLD, 0, 0, 5),
                "Create_intercomm", me == 0 ? "itself" : "local leader");
            Jobs.assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.createIntercomm(MPI.COMM_WORLD, n, 1, 5),
                "createIntercomm", "localLeader " + n);
            Intercomm d = ic.Dup();
            d.Free();
            Jobs.assertMpiError(MPI.ERR_COMM, () -> d.Send(new int[1], 0, 1, MPI.INT, 0, 0), "Send", "freed");
            Jobs.assertMpiError(MPI.ERR_COMM, () -> d.merge(true), "merge", "freed");
            MPI.COMM_WORLD.Barrier();
            return null;
        });
    }
}
