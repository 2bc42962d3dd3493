package org.mpjlite.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import mpi.MPI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.MpjLite;
import org.mpjlite.run.MpjRun;

/**
 * Deeply nested objects sent as MPI.OBJECT: Java serialization recurses once per node, so a rank
 * thread needs the stack a program's main thread has (8 MB by default, or as set).
 */
class DeepObjectTest {
    static final class Node implements Serializable {
        final int value;
        final Node next;

        Node(int value, Node next) {
            this.value = value;
            this.next = next;
        }
    }

    static Node list(int length, int seed) {
        Node head = null;
        for (int i = length - 1; i >= 0; i--) {
            head = new Node(seed * 100_000 + i, head);
        }
        return head;
    }

    /** Checks the list's length and values, without recursion. */
    static void assertList(Node head, int length, int seed) {
        int i = 0;
        for (Node n = head; n != null; n = n.next, i++) {
            assertEquals(seed * 100_000 + i, n.value);
        }
        assertEquals(length, i);
    }

    /** Ring over all ranks: each sends its list to the right and checks the one from the left. */
    static List<Integer> ring(MpjLite.Options options, int length) {
        return options.run(() -> {
            MPI.Init(new String[0]);
            int me = MPI.COMM_WORLD.Rank();
            int n = MPI.COMM_WORLD.Size();
            Object[] in = new Object[1];
            MPI.COMM_WORLD.Sendrecv(new Object[] {list(length, me)}, 0, 1, MPI.OBJECT, (me + 1) % n, 0,
                in, 0, 1, MPI.OBJECT, (me + n - 1) % n, 0);
            assertList((Node) in[0], length, (me + n - 1) % n);
            Object[] root = {me == 0 ? list(length, 42) : null};
            MPI.COMM_WORLD.Bcast(root, 0, 1, MPI.OBJECT, 0);
            assertList((Node) root[0], length, 42);
            MPI.Finalize();
            return me;
        });
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 5})
    void aThousandAndFiveThousandNodeListsRoundTripWithTheDefaultStack(int ranks) {
        assertEquals(ranks, ring(MpjLite.options().ranks(ranks), 1000).size());
        assertEquals(ranks, ring(MpjLite.options().ranks(ranks), 5000).size());
    }

    @Test
    void mpjrunGivesRankThreadsTheStackItIsAskedFor(@TempDir Path dir) throws Exception {
        Path src = Files.writeString(dir.resolve("Deep.java"), String.join("\n",
            "import mpi.*;",
            "public class Deep {",
            "    static final class Node implements java.io.Serializable {",
            "        final int value; final Node next;",
            "        Node(int value, Node next) { this.value = value; this.next = next; }",
            "    }",
            "    public static void main(String[] args) throws Exception {",
            "        MPI.Init(args);",
            "        int length = Integer.parseInt(args[0]);",
            "        Node head = null;",
            "        for (int i = length - 1; i >= 0; i--) head = new Node(i, head);",
            "        Object[] buf = {MPI.COMM_WORLD.Rank() == 0 ? head : null};",
            "        MPI.COMM_WORLD.Bcast(buf, 0, 1, MPI.OBJECT, 0);",
            "        int n = 0;",
            "        for (Node x = (Node) buf[0]; x != null; x = x.next) if (x.value == n) n++;",
            "        if (n != length) throw new IllegalStateException(\"got \" + n + \" nodes\");",
            "        MPI.Finalize();",
            "    }",
            "}",
            ""));
        assertEquals(0, MpjRun.run(new String[] {"-np", "3", src.toString(), "1000"}, System.out, System.err));
        assertEquals(0, MpjRun.run(new String[] {"-np", "3", "--stack-size", "32m", src.toString(), "20000"},
            System.out, System.err));
    }

    @Test
    void aLargerStackCarriesLongerLists() {
        assertEquals(3, ring(MpjLite.options().ranks(3).stackSize(64L << 20), 50_000).size());
    }
}
