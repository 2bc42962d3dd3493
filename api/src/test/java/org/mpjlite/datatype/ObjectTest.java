package org.mpjlite.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.mpjlite.datatype.RoundTripTest.committed;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import mpi.Datatype;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.run.MpjRun;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;

/**
 * MPI.OBJECT in point-to-point: copies taken at send time, every protocol, derived types over
 * object arrays, non-serializable elements, and classes resolved in the receiving rank's class
 * loader under mpjrun (each rank has its own copy of the program's classes).
 */
class ObjectTest {
    record Point(int x, String label) implements Serializable {
    }

    @ParameterizedTest(name = "eager threshold {0}")
    @ValueSource(ints = {Tunables.DEFAULT_EAGER_THRESHOLD, 0})
    void objectsArriveAsCopiesTakenAtSendTime(int eager) {
        new World(3, MatchingKind.LOCKED, eager).run(() -> {
            int me = MPI.COMM_WORLD.Rank();
            int right = (me + 1) % 3;
            int left = (me + 2) % 3;
            int[] mutable = {me};
            Object[] out = {new Point(me, "p" + me), null, mutable, "s" + me};
            Object[] in = new Object[5];
            Request r = MPI.COMM_WORLD.Irecv(in, 1, 4, MPI.OBJECT, left, 0);
            Request s = MPI.COMM_WORLD.Isend(out, 0, 4, MPI.OBJECT, right, 0);
            mutable[0] = -1; // the message was serialized when sent
            Status st = r.Wait();
            s.Wait();
            assertEquals(4, st.Get_count(MPI.OBJECT));
            assertEquals(new Point(left, "p" + left), in[1]);
            assertEquals(null, in[2]);
            assertArrayEquals(new int[] {left}, (int[]) in[3]);
            assertEquals("s" + left, in[4]);
            // a derived type over an object array: every other object
            Datatype everyOther = committed(Datatype.Vector(3, 1, 2, MPI.OBJECT));
            Object[] many = {"a" + me, "x", "b" + me, "x", "c" + me};
            Object[] got = new Object[3];
            MPI.COMM_WORLD.Sendrecv(many, 0, 1, everyOther, right, 1, got, 0, 3, MPI.OBJECT, left, 1);
            assertArrayEquals(new Object[] {"a" + left, "b" + left, "c" + left}, got);
            Object[] scattered = new Object[5];
            MPI.COMM_WORLD.Sendrecv(got, 0, 3, MPI.OBJECT, right, 2, scattered, 0, 1, everyOther, left, 2);
            assertEquals("a" + (left + 2) % 3, scattered[0]);
            assertEquals(null, scattered[1]);
            assertEquals("c" + (left + 2) % 3, scattered[4]);
            // the synchronous mode completes once the receiver took the message
            if (me == 0) {
                MPI.COMM_WORLD.Ssend(new Object[] {new Point(7, "s")}, 0, 1, MPI.OBJECT, 1, 3);
            } else if (me == 1) {
                Object[] one = new Object[1];
                MPI.COMM_WORLD.Recv(one, 0, 1, MPI.OBJECT, 0, 3);
                assertEquals(new Point(7, "s"), one[0]);
            }
            Object[] self = {new Point(1, "self")};
            Object[] selfIn = new Object[1];
            MPI.COMM_WORLD.Sendrecv(self, 0, 1, MPI.OBJECT, me, 4, selfIn, 0, 1, MPI.OBJECT, me, 4);
            assertEquals(self[0], selfIn[0]);
            assertNotSame(self[0], selfIn[0], "a copy, even to itself");
            return null;
        });
    }

    @Test
    void nonSerializableElementsAndMismatches() {
        new World(2, MatchingKind.LOCK_FREE, Tunables.DEFAULT_EAGER_THRESHOLD).run(() -> {
            assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Send(new Object[] {"ok", "ok", new Object()}, 1, 2,
                MPI.OBJECT, 0, 0), "Send", "element 2", "java.lang.Object", "not Serializable");
            assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.OBJECT, 0, 0), "Send",
                "Object[]");
            if (MPI.COMM_WORLD.Rank() == 0) {
                MPI.COMM_WORLD.Send(new Object[] {"text"}, 0, 1, MPI.OBJECT, 1, 1);
            } else {
                assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Recv(new byte[64], 0, 64, MPI.BYTE, 0, 1), "Recv",
                    "MPI.OBJECT");
            }
            return null;
        });
    }

    /** Rank 0 sends objects of a class of the program; every other rank must get its own copy of the class. */
    private static final String PROGRAM = String.join("\n",
        "import mpi.*;",
        "import java.io.Serializable;",
        "public class Loaders {",
        "    static class Payload implements Serializable {",
        "        final int[] values;",
        "        Payload(int... values) { this.values = values; }",
        "    }",
        "    static void check(boolean ok, String what) {",
        "        if (!ok) throw new IllegalStateException(\"rank \" + MPI.COMM_WORLD.Rank() + \": \" + what);",
        "    }",
        "    public static void main(String[] args) throws Exception {",
        "        MPI.Init(args);",
        "        int me = MPI.COMM_WORLD.Rank(), size = MPI.COMM_WORLD.Size();",
        "        Object[] data = {new Payload(1, 2), null, new Payload(3)};",
        "        if (me == 0) {",
        "            for (int r = 1; r < size; r++) MPI.COMM_WORLD.Send(data, 0, 3, MPI.OBJECT, r, 0);",
        "            ((Payload) data[0]).values[0] = 99;",
        "        }",
        "        MPI.COMM_WORLD.Bcast(data, 0, 3, MPI.OBJECT, 0);",
        "        check(data[0].getClass() == Payload.class, \"Bcast: the rank's own Payload class\");",
        "        check(((Payload) data[0]).values[0] == 99, \"Bcast: rank 0's data\");",
        "        if (me != 0) {",
        "            Object[] in = new Object[3];",
        "            Status s = MPI.COMM_WORLD.Recv(in, 0, 3, MPI.OBJECT, 0, 0);",
        "            check(s.Get_count(MPI.OBJECT) == 3, \"count \" + s.Get_count(MPI.OBJECT));",
        "            check(in[0].getClass() == Payload.class, \"received \" + in[0].getClass() + \" of loader \"",
        "                + in[0].getClass().getClassLoader() + \", own loader \" + Payload.class.getClassLoader());",
        "            Payload p = (Payload) in[0];",
        "            check(p.values[0] == 1 && p.values[1] == 2, \"values as sent\");",
        "            check(in[1] == null && ((Payload) in[2]).values[0] == 3, \"the rest\");",
        "        }",
        "        Object[] all = new Object[size];",
        "        MPI.COMM_WORLD.Allgather(new Object[] {new Payload(me)}, 0, 1, MPI.OBJECT, all, 0, 1, MPI.OBJECT);",
        "        for (int r = 0; r < size; r++) {",
        "            check(all[r].getClass() == Payload.class && ((Payload) all[r]).values[0] == r, \"Allgather \" + r);",
        "        }",
        "        MPI.Finalize();",
        "    }",
        "}",
        "");

    @TempDir
    Path dir;

    @Test
    void objectsResolveInTheReceivingRanksClassLoaderUnderMpjrun() throws Exception {
        Path src = Files.writeString(dir.resolve("Loaders.java"), PROGRAM);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = MpjRun.run(new String[] {"-np", "3", src.toString()}, o, e);
        }
        assertEquals(0, code, () -> "mpjrun failed:\n" + out.toString(StandardCharsets.UTF_8)
            + err.toString(StandardCharsets.UTF_8));
    }
}
