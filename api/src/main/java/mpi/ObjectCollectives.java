package mpi;

import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.data.ObjectSerializer;

/**
 * The collectives of mpiJava on MPI.OBJECT data (and derived types over objects): each rank
 * serializes the objects it contributes ({@link ObjectSerializer}), the serialized bytes move through the ordinary byte
 * collectives (lengths first, then the bytes), and each receiving rank deserializes them with its own
 * class loader (the calling thread's context loader: under mpjrun, the rank's), so every rank gets
 * copies of its own classes. Reductions on objects take a user-defined operation and combine the
 * contributions in rank order, {@code x0 op x1 op ...}.
 *
 * <p>On an intercommunicator the same byte collectives move the blocks between the groups: a
 * rooted call's root receives (or sends) one block per rank of the remote group, the ranks that pass
 * {@code MPI.PROC_NULL} take no part, and reductions combine the remote group's contributions.
 *
 * <p>mpiJava has no non-blocking collectives, and neither has this path: a non-blocking collective on
 * objects is an error. Stateless; thread-safe.
 */
final class ObjectCollectives {
    /** What a scan-like reduction on objects delivers to rank {@code k}. */
    enum Prefix {
        /** The reduction of every rank (Allreduce). */
        ALL,
        /** Ranks 0..k (Scan). */
        INCLUSIVE,
        /** Ranks 0..k-1; rank 0's receive buffer is left as it is (Exscan). */
        EXCLUSIVE
    }

    private ObjectCollectives() {
    }

    /** True when the type is MPI.OBJECT or a type over objects. */
    static boolean handles(Datatype type) {
        return type != null && type.map != null && type.map.isObjects();
    }

    /** True when one of the types is MPI.OBJECT or a type over objects (fixed arity: no array per call). */
    static boolean handles(Datatype a, Datatype b) {
        return handles(a) || handles(b);
    }

    static MPIException unsupported(String call) {
        return new MPIException(MPI.ERR_TYPE, call + ": MPI.OBJECT is not supported by this operation (it is by"
            + " Bcast, Gather(v), Scatter(v), Allgather(v), Alltoall(v), Reduce, Allreduce, Reduce_scatter and Scan)");
    }

    /** The blocks of a buffer: {@code count} items each, or {@code counts[i]} at {@code displs[i]} (in extents). */
    private record Blocks(Object buf, int offset, int[] counts, int count, int[] displs, Datatype type) {
        int count(int i) {
            return counts == null ? count : counts[i];
        }

        long origin(int i) {
            long displ = displs == null ? (long) i * count : displs[i];
            return (long) offset * type.unit() + displ * type.map.extent();
        }
    }

    /** Whether the calling rank is {@code root} of {@code c}'s rooted collective. */
    private static boolean isRootOf(Comm c, String call, int root) {
        return CollectiveCalls.isRoot(c, c.rank(call), root);
    }

    private static void blocking(String call, boolean nonBlocking, Datatype... types) {
        for (Datatype t : types) {
            if (t != null && (t.map == null || !t.map.isObjects())) {
                throw new MPIException(MPI.ERR_TYPE, call + ": datatype " + t + " does not match MPI.OBJECT on the"
                    + " other side");
            }
        }
        if (nonBlocking) {
            throw new MPIException(MPI.ERR_TYPE, call + ": MPI.OBJECT is supported by the blocking collectives only");
        }
    }

    // ---- the operations ----------------------------------------------------------------------

    static Request bcast(Comm c, String call, boolean nonBlocking, Object buf, int offset, int count, Datatype type,
                         int root) {
        blocking(call, nonBlocking, type);
        return CollectiveCalls.Invocation.showingObjects(count, type, () -> {
            Rank me = c.rank(call);
            boolean isRoot = CollectiveCalls.isRoot(c, me, root);
            CollectiveCalls.checkRoot(c, call, me, root);
            boolean takesPart = CollectiveCalls.takesPart(c, root);
            if (takesPart) {
                Check.buffer(call, "buffer", buf, offset, count, type.units(), type);
            }
            byte[] mine = isRoot ? serialize(call, buf, offset * (long) type.unit(), count, type) : null;
            byte[] bytes = bcastBytes(c, call, mine, root);
            if (!isRoot && takesPart) {
                Check.writable(call, buf);
                deserialize(call, bytes, buf, offset * (long) type.unit(), count, type, root);
            }
            return null;
        });
    }

    static Request gather(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, int scount,
                          Datatype stype, Object rbuf, int roff, int[] rcounts, int rcount, int[] displs,
                          Datatype rtype, int root, boolean inPlace) {
        blocking(call, nonBlocking, stype, rtype);
        // Shown in reports as the non-object call shows itself: the root's receive count, the others' send count.
        boolean isRoot = isRootOf(c, call, root);
        return CollectiveCalls.Invocation.showingObjects(!isRoot ? scount : rcounts == null ? rcount : -1,
            isRoot ? rtype : stype, () -> {
            Rank me = c.rank(call);
            int size = CollectiveCalls.peers(c, me);
            CollectiveCalls.checkRoot(c, call, me, root);
            boolean own = CollectiveCalls.ownBlock(c, me, root, inPlace);
            boolean skipOwn = !own && isRoot;
            byte[] mine = own ? send(call, sbuf, soff, scount, stype) : new byte[0];
            // Checked before the exchange, as every argument: a call that fails has taken no part in it.
            Blocks r = isRoot ? receiving(call, rbuf, roff, rcounts, rcount, displs, rtype, size) : null;
            byte[][] blocks = gatherBytes(c, call, mine, root);
            if (isRoot) {
                for (int i = 0; i < size; i++) {
                    if (!(skipOwn && i == root)) {
                        deserialize(call, blocks[i], rbuf, r.origin(i), r.count(i), rtype, i);
                    }
                }
            }
            return null;
        });
    }

    static Request scatter(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, int[] scounts, int scount,
                           int[] displs, Datatype stype, Object rbuf, int roff, int rcount, Datatype rtype, int root,
                           boolean inPlace) {
        blocking(call, nonBlocking, stype, rtype);
        boolean isRoot = isRootOf(c, call, root);
        return CollectiveCalls.Invocation.showingObjects(!isRoot ? rcount : scounts == null ? scount : -1,
            isRoot ? stype : rtype, () -> {
            Rank me = c.rank(call);
            int size = CollectiveCalls.peers(c, me);
            CollectiveCalls.checkRoot(c, call, me, root);
            byte[][] blocks = null;
            if (isRoot) {
                Blocks s = sending(call, sbuf, soff, scounts, scount, displs, stype, size);
                blocks = new byte[size][];
                for (int i = 0; i < size; i++) {
                    blocks[i] = inPlace && i == root ? new byte[0] : serialize(call, sbuf, s.origin(i), s.count(i), stype);
                }
            }
            boolean own = CollectiveCalls.ownBlock(c, me, root, inPlace);
            if (own) {
                Check.buffer(call, "receive buffer", rbuf, roff, rcount, rtype.units(), rtype);
                Check.writable(call, rbuf);
            }
            byte[] mine = scatterBytes(c, call, blocks, root);
            if (own) {
                deserialize(call, mine, rbuf, roff * (long) rtype.unit(), rcount, rtype, root);
            }
            return null;
        });
    }

    static Request allgather(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, int scount,
                             Datatype stype, Object rbuf, int roff, int[] rcounts, int rcount, int[] displs,
                             Datatype rtype, boolean inPlace) {
        blocking(call, nonBlocking, stype, rtype);
        return CollectiveCalls.Invocation.showingObjects(rcounts != null ? -1 : rcount, rtype, () -> {
            Rank me = c.rank(call);
            int rank = c.rankIn(me);
            int size = CollectiveCalls.peers(c, me);
            Blocks r = receiving(call, rbuf, roff, rcounts, rcount, displs, rtype, size);
            byte[] mine = inPlace ? serialize(call, rbuf, r.origin(rank), r.count(rank), rtype)
                : send(call, sbuf, soff, scount, stype);
            byte[][] blocks = allgatherBytes(c, call, mine);
            for (int i = 0; i < size; i++) {
                deserialize(call, blocks[i], rbuf, r.origin(i), r.count(i), rtype, i);
            }
            return null;
        });
    }

    static Request alltoall(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, int[] scounts, int scount,
                            int[] sdispls, Datatype stype, Object rbuf, int roff, int[] rcounts, int rcount,
                            int[] rdispls, Datatype rtype) {
        blocking(call, nonBlocking, stype, rtype);
        return CollectiveCalls.Invocation.showingObjects(rcounts != null ? -1 : rcount, rtype, () -> {
            int size = CollectiveCalls.peers(c, c.rank(call));
            Blocks s = sending(call, sbuf, soff, scounts, scount, sdispls, stype, size);
            Blocks r = receiving(call, rbuf, roff, rcounts, rcount, rdispls, rtype, size);
            byte[][] out = new byte[size][];
            for (int i = 0; i < size; i++) {
                out[i] = serialize(call, sbuf, s.origin(i), s.count(i), stype);
            }
            byte[][] in = alltoallBytes(c, call, out);
            for (int i = 0; i < size; i++) {
                deserialize(call, in[i], rbuf, r.origin(i), r.count(i), rtype, i);
            }
            return null;
        });
    }

    static Request reduce(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, Object rbuf, int roff,
                          int count, Datatype type, Op op, int root, boolean inPlace) {
        blocking(call, nonBlocking, type);
        return CollectiveCalls.Invocation.showingObjects(count, type, () -> {
            org.mpjlite.smpdev.collective.Reduction r = Check.op(call, op, type);
            Rank me = c.rank(call);
            int size = CollectiveCalls.peers(c, me);
            CollectiveCalls.checkRoot(c, call, me, root);
            boolean isRoot = CollectiveCalls.isRoot(c, me, root);
            byte[] mine = inPlace && isRoot ? send(call, rbuf, roff, count, type)
                : CollectiveCalls.ownBlock(c, me, root, false) ? send(call, sbuf, soff, count, type) : new byte[0];
            if (isRoot) {
                Check.buffer(call, "receive buffer", rbuf, roff, count, type.units(), type);
                Check.writable(call, rbuf);
            }
            byte[][] blocks = gatherBytes(c, call, mine, root);
            if (isRoot) {
                Object[] result = combine(call, r, blocks, 0, size, count, type);
                ObjectSerializer.place(result, rbuf, roff * (long) type.unit(), count, type.map);
            }
            return null;
        });
    }

    /**
     * Reduce_scatter: block {@code j} of every rank's send buffer ({@code counts[j]} items, or
     * {@code blockCount} each when {@code counts} is null) goes to rank {@code j}, which combines the
     * blocks in rank order. In place, the send data is the receive buffer's and the result lands at
     * its start.
     */
    static Request reduceScatter(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, Object rbuf,
                                 int roff, int[] counts, int blockCount, Datatype type, Op op, boolean inPlace) {
        blocking(call, nonBlocking, type);
        return CollectiveCalls.Invocation.showingObjects(counts != null ? -1 : blockCount, type, () -> {
            org.mpjlite.smpdev.collective.Reduction r = Check.op(call, op, type);
            Rank me = c.rank(call);
            int rank = c.rankIn(me);
            int size = c.size(me);
            int[] cs = counts;
            if (cs == null) {
                if (blockCount < 0) {
                    throw new MPIException(MPI.ERR_COUNT, call + ": count must be >= 0, was " + blockCount);
                }
                cs = new int[size];
                java.util.Arrays.fill(cs, blockCount);
            } else {
                Check.counts(call, "recvcounts", cs, size);
            }
            if (c.remoteMembers() != null) {
                return reduceScatterInter(c, call, sbuf, soff, rbuf, roff, cs, type, r, rank);
            }
            Object from = inPlace ? rbuf : sbuf;
            int fromOffset = inPlace ? roff : soff;
            Blocks s = sending(call, from, fromOffset, cs, 0, displacements(cs), type, size);
            Check.buffer(call, "receive buffer", rbuf, roff, cs[rank], type.units(), type);
            Check.writable(call, rbuf);
            byte[][] out = new byte[size][];
            for (int j = 0; j < size; j++) {
                out[j] = serialize(call, from, s.origin(j), cs[j], type);
            }
            byte[][] mine = alltoallBytes(c, call, out);
            if (cs[rank] > 0) {
                ObjectSerializer.place(combine(call, r, mine, 0, size, cs[rank], type), rbuf, roff * (long) type.unit(), cs[rank],
                    type.map);
            }
            return null;
        });
    }

    /**
     * Reduce_scatter on an intercommunicator: every rank's whole vector ({@code sum(counts)} items,
     * {@code counts} its group's) goes to every rank of the other group, which combines the remote
     * vectors in rank order and keeps its own block.
     */
    private static Request reduceScatterInter(Comm c, String call, Object sbuf, int soff, Object rbuf, int roff,
                                              int[] counts, Datatype type, org.mpjlite.smpdev.collective.Reduction r,
                                              int rank) {
        int[] offsets = displacements(counts);
        int total = Math.addExact(offsets[counts.length - 1], counts[counts.length - 1]);
        Check.buffer(call, "receive buffer", rbuf, roff, counts[rank], type.units(), type);
        Check.writable(call, rbuf);
        byte[][] vectors = allgatherBytes(c, call, send(call, sbuf, soff, total, type));
        if (counts[rank] > 0) {
            Object[] all = combine(call, r, vectors, 0, vectors.length, total, type);
            int elements = Math.toIntExact(type.map.elements());
            Object[] mine = java.util.Arrays.copyOfRange(all, offsets[rank] * elements,
                (offsets[rank] + counts[rank]) * elements);
            ObjectSerializer.place(mine, rbuf, roff * (long) type.unit(), counts[rank], type.map);
        }
        return null;
    }

    /** Allreduce, Scan and Exscan: every contribution to every rank, each combines what it needs. */
    static Request scan(Comm c, String call, boolean nonBlocking, Object sbuf, int soff, Object rbuf, int roff,
                        int count, Datatype type, Op op, Prefix prefix, boolean inPlace) {
        blocking(call, nonBlocking, type);
        return CollectiveCalls.Invocation.showingObjects(count, type, () -> {
            org.mpjlite.smpdev.collective.Reduction r = Check.op(call, op, type);
            Rank me = c.rank(call);
            int rank = c.rankIn(me);
            int size = CollectiveCalls.peers(c, me);
            Check.buffer(call, "receive buffer", rbuf, roff, count, type.units(), type);
            Check.writable(call, rbuf);
            byte[] mine = inPlace ? send(call, rbuf, roff, count, type) : send(call, sbuf, soff, count, type);
            byte[][] blocks = allgatherBytes(c, call, mine);
            int last = prefix == Prefix.ALL ? size : prefix == Prefix.INCLUSIVE ? rank + 1 : rank;
            if (last > 0) {
                ObjectSerializer.place(combine(call, r, blocks, 0, last, count, type), rbuf, roff * (long) type.unit(),
                    count, type.map);
            }
            return null;
        });
    }

    /** {@code x[from] op x[from+1] op ... op x[to-1]}, evaluated from the right ({@code inout = in op inout}). */
    private static Object[] combine(String call, org.mpjlite.smpdev.collective.Reduction r, byte[][] blocks, int from,
                                    int to, int count, Datatype type) {
        int n = Math.toIntExact(type.map.elements() * count);
        Object[] acc = objects(call, blocks[to - 1], n, to - 1);
        for (int i = to - 2; i >= from; i--) {
            r.combine(objects(call, blocks[i], n, i), 0, acc, 0, n);
        }
        return acc;
    }

    // ---- serialization -------------------------------------------------------------------------

    private static byte[] send(String call, Object buf, int offset, int count, Datatype type) {
        Check.buffer(call, "send buffer", buf, offset, count, type.units(), type);
        return serialize(call, buf, offset * (long) type.unit(), count, type);
    }

    private static Blocks sending(String call, Object buf, int offset, int[] counts, int count, int[] displs,
                                  Datatype type, int size) {
        return blocks(call, "send buffer", "sendcounts", buf, offset, counts, count, displs, type, size);
    }

    private static Blocks receiving(String call, Object buf, int offset, int[] counts, int count, int[] displs,
                                    Datatype type, int size) {
        Blocks b = blocks(call, "receive buffer", "recvcounts", buf, offset, counts, count, displs, type, size);
        Check.writable(call, buf);
        return b;
    }

    private static Blocks blocks(String call, String which, String countsName, Object buf, int offset, int[] counts,
                                 int count, int[] displs, Datatype type, int size) {
        if (counts == null) {
            Check.buffer(call, which, buf, offset, count * size, type.units(), type);
        } else {
            Check.counts(call, countsName, counts, size);
            Check.buffer(call, which, buf, offset, Staged.span(counts, displs, size), type.units(), type);
        }
        return new Blocks(buf, offset, counts, count, displs, type);
    }

    /** {@code [int n][the n objects serialized]}: the objects of {@code items} items from byte {@code origin}. */
    private static byte[] serialize(String call, Object buf, long origin, int items, Datatype type) {
        Object[] objects = ObjectSerializer.objects(buf, origin, items, type.map);
        for (int i = 0; i < objects.length; i++) {
            if (!ObjectSerializer.serializable(objects[i])) {
                throw new MPIException(MPI.ERR_ARG, call + ": object " + i + " of the block sent, a "
                    + objects[i].getClass().getName() + ", is not Serializable");
            }
        }
        try {
            byte[] stream = ObjectSerializer.serialize(objects);
            return ByteBuffer.allocate(4 + stream.length).putInt(objects.length).put(stream).array();
        } catch (IllegalArgumentException e) {
            throw new MPIException(MPI.ERR_ARG, call + ": cannot serialize the block sent: " + e.getMessage());
        }
    }

    /** The {@code n} objects of a serialized block from rank {@code from}, in the calling thread's class loader. */
    private static Object[] objects(String call, byte[] block, int n, int from) {
        int sent = ByteBuffer.wrap(block).getInt();
        if (sent != n) {
            throw new MPIException(MPI.ERR_COUNT, call + ": rank " + from + " contributed " + sent
                + " objects, this rank expects " + n);
        }
        try {
            return ObjectSerializer.deserialize(block, 4, block.length - 4, n,
                Thread.currentThread().getContextClassLoader());
        } catch (IllegalStateException | UncheckedIOException e) {
            throw new MPIException(MPI.ERR_TYPE, call + ": cannot deserialize the objects of rank " + from + ": "
                + e.getMessage());
        }
    }

    private static void deserialize(String call, byte[] block, Object buf, long origin, int items, Datatype type,
                                    int from) {
        Object[] objects = objects(call, block, Math.toIntExact(type.map.elements() * items), from);
        ObjectSerializer.place(objects, buf, origin, items, type.map);
    }

    // ---- variable-length bytes through the byte collectives ------------------------------------

    private static byte[] bcastBytes(Comm c, String call, byte[] mine, int root) {
        int[] length = {mine == null ? 0 : mine.length};
        CollectiveCalls.bcast(c, call, false, length, 0, 1, Datatype.INT, root);
        byte[] bytes = mine != null ? mine : new byte[length[0]];
        CollectiveCalls.bcast(c, call, false, bytes, 0, length[0], Datatype.BYTE, root);
        return bytes;
    }

    private static byte[][] gatherBytes(Comm c, String call, byte[] mine, int root) {
        Rank me = c.rank(call);
        int size = CollectiveCalls.peers(c, me);
        boolean isRoot = CollectiveCalls.isRoot(c, me, root);
        int[] lengths = new int[size];
        CollectiveCalls.gather(c, call, false, new int[] {mine.length}, 0, 1, Datatype.INT, lengths, 0, 1, Datatype.INT,
            root, false);
        int[] displs = displacements(lengths);
        byte[] all = new byte[isRoot ? displs[size - 1] + lengths[size - 1] : 0];
        CollectiveCalls.gatherv(c, call, false, mine, 0, mine.length, Datatype.BYTE, all, 0, lengths, displs,
            Datatype.BYTE, root, false);
        return isRoot ? split(all, lengths, displs) : null;
    }

    private static byte[][] allgatherBytes(Comm c, String call, byte[] mine) {
        int size = CollectiveCalls.peers(c, c.rank(call));
        int[] lengths = new int[size];
        CollectiveCalls.allgather(c, call, false, new int[] {mine.length}, 0, 1, Datatype.INT, lengths, 0, 1,
            Datatype.INT, false);
        int[] displs = displacements(lengths);
        byte[] all = new byte[displs[size - 1] + lengths[size - 1]];
        CollectiveCalls.allgatherv(c, call, false, mine, 0, mine.length, Datatype.BYTE, all, 0, lengths, displs,
            Datatype.BYTE, false);
        return split(all, lengths, displs);
    }

    private static byte[] scatterBytes(Comm c, String call, byte[][] blocks, int root) {
        int size = CollectiveCalls.peers(c, c.rank(call));
        int[] lengths = new int[size];
        byte[] all = new byte[0];
        if (blocks != null) {
            for (int i = 0; i < size; i++) {
                lengths[i] = blocks[i].length;
            }
            all = join(blocks, lengths);
        }
        int[] length = new int[1];
        CollectiveCalls.scatter(c, call, false, lengths, 0, 1, Datatype.INT, length, 0, 1, Datatype.INT, root, false);
        byte[] mine = new byte[length[0]];
        CollectiveCalls.scatterv(c, call, false, all, 0, lengths, displacements(lengths), Datatype.BYTE, mine, 0,
            length[0], Datatype.BYTE, root, false);
        return mine;
    }

    private static byte[][] alltoallBytes(Comm c, String call, byte[][] out) {
        int size = out.length;
        int[] sendLengths = new int[size];
        for (int i = 0; i < size; i++) {
            sendLengths[i] = out[i].length;
        }
        int[] recvLengths = new int[size];
        CollectiveCalls.alltoall(c, call, false, sendLengths, 0, 1, Datatype.INT, recvLengths, 0, 1, Datatype.INT);
        int[] recvDispls = displacements(recvLengths);
        byte[] in = new byte[recvDispls[size - 1] + recvLengths[size - 1]];
        CollectiveCalls.alltoallv(c, call, false, join(out, sendLengths), 0, sendLengths, displacements(sendLengths),
            Datatype.BYTE, in, 0, recvLengths, recvDispls, Datatype.BYTE);
        return split(in, recvLengths, recvDispls);
    }

    private static int[] displacements(int[] lengths) {
        int[] displs = new int[lengths.length];
        for (int i = 1; i < lengths.length; i++) {
            displs[i] = Math.addExact(displs[i - 1], lengths[i - 1]);
        }
        return displs;
    }

    private static byte[] join(byte[][] blocks, int[] lengths) {
        int[] displs = displacements(lengths);
        byte[] all = new byte[displs[lengths.length - 1] + lengths[lengths.length - 1]];
        for (int i = 0; i < blocks.length; i++) {
            System.arraycopy(blocks[i], 0, all, displs[i], lengths[i]);
        }
        return all;
    }

    private static byte[][] split(byte[] all, int[] lengths, int[] displs) {
        byte[][] blocks = new byte[lengths.length][];
        for (int i = 0; i < lengths.length; i++) {
            blocks[i] = java.util.Arrays.copyOfRange(all, displs[i], displs[i] + lengths[i]);
        }
        return blocks;
    }
}
