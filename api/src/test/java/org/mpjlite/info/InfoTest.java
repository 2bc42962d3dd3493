package org.mpjlite.info;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import mpi.CartComm;
import mpi.Comm;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import org.junit.jupiter.api.Test;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/** MPI info objects: their semantics and errors, MPI.INFO_ENV, and the hints of communicators. */
class InfoTest {
    private static List<String> keys(Info info) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < info.size(); i++) {
            keys.add(info.getKey(i));
        }
        return keys;
    }

    @Test
    void keysKeepTheOrderTheyWereFirstSetIn() {
        Info info = new Info();
        info.set("b", "1");
        info.set("a", "2");
        info.set("c", "3");
        info.set("b", "4");
        assertEquals(List.of("b", "a", "c"), keys(info));
        assertEquals("4", info.get("b"));
        info.delete("a");
        assertEquals(List.of("b", "c"), keys(info));
        assertEquals(2, info.size());
        assertNull(info.get("a"));
        assertNull(info.get("never"));
    }

    @Test
    void dupAndCloneCopyEveryKeyInOrderAndAreIndependent() {
        Info info = new Info();
        info.set("x", "1");
        info.set("y", "2");
        Info dup = info.dup();
        Info clone = info.clone();
        assertNotSame(info, dup);
        assertEquals(List.of("x", "y"), keys(dup));
        assertEquals(List.of("x", "y"), keys(clone));
        dup.set("z", "3");
        info.delete("x");
        assertEquals(List.of("x", "y", "z"), keys(dup));
        assertEquals(List.of("x", "y"), keys(clone));
        assertEquals(List.of("y"), keys(info));
    }

    @Test
    void keysAndValuesAreBoundedByTheMaxima() {
        Info info = new Info();
        String longestKey = "k".repeat(MPI.MAX_INFO_KEY - 1);
        String longestValue = "v".repeat(MPI.MAX_INFO_VAL - 1);
        info.set(longestKey, longestValue);
        assertEquals(longestValue, info.get(longestKey));
        assertMpiError(MPI.ERR_INFO_KEY, () -> info.set("k".repeat(MPI.MAX_INFO_KEY), "v"), "set", "key");
        assertMpiError(MPI.ERR_INFO_KEY, () -> info.set("", "v"), "set", "key");
        assertMpiError(MPI.ERR_INFO_KEY, () -> info.set(null, "v"), "set", "null");
        assertMpiError(MPI.ERR_INFO_KEY, () -> info.get("k".repeat(MPI.MAX_INFO_KEY)), "get");
        assertMpiError(MPI.ERR_INFO_VALUE, () -> info.set("k", "v".repeat(MPI.MAX_INFO_VAL)), "set", "value");
        assertMpiError(MPI.ERR_INFO_VALUE, () -> info.set("k", null), "set", "value");
        assertEquals(1, info.size());
    }

    @Test
    void missingKeysAndBadIndexesAreErrors() {
        Info info = new Info();
        info.set("a", "1");
        assertMpiError(MPI.ERR_INFO_NOKEY, () -> info.delete("b"), "delete", "\"b\"");
        assertMpiError(MPI.ERR_ARG, () -> info.getKey(1), "getKey", "1");
        assertMpiError(MPI.ERR_ARG, () -> info.getKey(-1), "getKey");
        assertEquals("a", info.getKey(0));
    }

    @Test
    void aFreedInfoAndInfoNullAreNullAndUnusable() {
        Info info = new Info();
        assertFalse(info.isNull());
        info.set("a", "1");
        info.free();
        assertTrue(info.isNull());
        for (Info bad : new Info[] {info, MPI.INFO_NULL}) {
            assertMpiError(MPI.ERR_INFO, () -> bad.set("a", "1"), "set");
            assertMpiError(MPI.ERR_INFO, () -> bad.get("a"), "get");
            assertMpiError(MPI.ERR_INFO, () -> bad.delete("a"), "delete");
            assertMpiError(MPI.ERR_INFO, bad::size, "size");
            assertMpiError(MPI.ERR_INFO, () -> bad.getKey(0), "getKey");
            assertMpiError(MPI.ERR_INFO, bad::dup, "dup");
            assertMpiError(MPI.ERR_INFO, bad::free, "free");
        }
        assertTrue(MPI.INFO_NULL.isNull());
    }

    @Jobs.AnyRanks
    void infoEnvDescribesTheRank(World world) {
        List<String[]> seen = world.runRaw(() -> {
            MPI.Init(new String[] {"alpha", "beta"});
            Info env = MPI.INFO_ENV;
            String[] got = {env.get("command"), env.get("argv"), env.get("maxprocs"), env.get("thread_level"),
                env.get("wdir"), env.get("arch"), env.get("host"), env.get("soft"), env.get("ompi_np"),
                env.get("ompi_num_apps"), env.get("ompi_first_rank")};
            assertMpiError(MPI.ERR_INFO, () -> env.set("x", "y"), "read-only");
            assertMpiError(MPI.ERR_INFO, () -> env.delete("argv"), "read-only");
            assertMpiError(MPI.ERR_INFO, env::free, "INFO_ENV");
            assertFalse(env.isNull());
            Info copy = env.dup();
            copy.set("x", "y");
            assertEquals(env.size() + 1, copy.size());
            MPI.Finalize();
            return got;
        });
        for (String[] got : seen) {
            assertEquals(InfoTest.class.getName(), got[0].replaceAll("\\$.*", ""));
            assertEquals("alpha beta", got[1]);
            assertEquals(Integer.toString(world.size()), got[2]);
            assertEquals("MPI_THREAD_MULTIPLE", got[3]);
            String pwd = System.getenv("PWD");
            assertEquals(pwd != null && !pwd.isEmpty() ? pwd : System.getProperty("user.dir"), got[4]);
            assertEquals(System.getProperty("os.arch"), got[5]);
            assertEquals(MPI.getProcessorName(), got[6]);
            assertNull(got[7]);
            assertEquals(Integer.toString(world.size()), got[8]);
            assertEquals("1", got[9]);
            assertEquals("0", got[10]);
        }
    }

    @Jobs.AnyRanks
    void communicatorsKeepTheirHintsAndDupWithInfoReplacesThem(World world) {
        world.run(() -> {
            Intracomm comm = MPI.COMM_WORLD.dup();
            assertEquals(0, comm.getInfo().size());
            Info hints = new Info();
            hints.set("a", "1");
            hints.set("b", "2");
            comm.setInfo(hints);
            hints.set("a", "changed");
            Info more = new Info();
            more.set("b", "3");
            more.set("c", "4");
            comm.setInfo(more);
            Info got = comm.getInfo();
            assertEquals(List.of("a", "b", "c"), keys(got));
            assertEquals("1", got.get("a"));
            assertEquals("3", got.get("b"));
            Intracomm dup = comm.dup();
            assertEquals(List.of("a", "b", "c"), keys(dup.getInfo()));
            Info only = new Info();
            only.set("z", "9");
            Intracomm withInfo = comm.dupWithInfo(only);
            assertEquals(List.of("z"), keys(withInfo.getInfo()));
            assertEquals(comm.getSize(), withInfo.getSize());
            Comm plain = comm.dupWithInfo(MPI.INFO_NULL);
            assertEquals(0, plain.getInfo().size());
            Info freed = new Info();
            freed.free();
            assertMpiError(MPI.ERR_INFO, () -> comm.setInfo(freed), "setInfo", "freed");
            CartComm cart = comm.createCart(new int[] {world.size()}, new boolean[] {true}, false);
            CartComm cartDup = cart.dupWithInfo(only);
            assertEquals(cart.getTopo().dims[0], cartDup.getTopo().dims[0]);
            assertEquals("9", cartDup.getInfo().get("z"));
            int sum = IntStream.range(0, world.size()).sum();
            int[] buf = {withInfo.getRank()};
            withInfo.allReduce(buf, 1, MPI.INT, MPI.SUM);
            assertEquals(sum, buf[0]);
            return null;
        });
    }
}
