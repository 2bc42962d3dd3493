package org.mpjlite.junit;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import mpi.Intracomm;
import mpi.MPI;

/**
 * One rank's view of an {@link MpiTest} invocation: its rank, the job's size, and collection of a
 * value from every rank, for assertions on the whole.
 *
 * <pre>{@code
 * @MpiTest(ranks = {1, 2, 3, 4})
 * void everyRankSeesTheBroadcast(MpiContext mpi) {
 *     int[] v = {mpi.rank() == 0 ? 42 : -1};
 *     MPI.COMM_WORLD.Bcast(v, 0, 1, MPI.INT, 0);
 *     List<Integer> seen = mpi.gather(v[0]);        // on rank 0: one value per rank, in rank order
 *     if (mpi.rank() == 0) {
 *         assertEquals(Collections.nCopies(mpi.size(), 42), seen);
 *     }
 * }
 * }</pre>
 *
 * <p>{@link #gather} and {@link #allGather} are collective: every rank calls them, in the same
 * order. They wait on a barrier of a communicator of their own (duplicated from
 * {@code MPI.COMM_WORLD} on first use), so a rank that never calls them shows up in the deadlock
 * report, and they do not interfere with the test's own messages. Values are passed by reference,
 * not copied: the list holds the very objects the ranks gave.
 *
 * <p>Thread safety: each rank has its own context, to be used on that rank's thread only. Values
 * are published through an {@link AtomicReferenceArray} (volatile writes and reads) before the
 * barrier, which orders every rank's write before every read made after it.
 */
public final class MpiContext {
    private final int rank;
    private final int size;
    /** The slots of every collection call of this invocation, by call number; shared by all ranks. */
    private final Map<Integer, AtomicReferenceArray<Object>> collections;
    private int calls;
    private Intracomm comm;

    MpiContext(int rank, int size, Map<Integer, AtomicReferenceArray<Object>> collections) {
        this.rank = rank;
        this.size = size;
        this.collections = collections;
    }

    /** A fresh table of collection slots, to be shared by the contexts of all ranks of one invocation. */
    static Map<Integer, AtomicReferenceArray<Object>> newCollections() {
        return new ConcurrentHashMap<>();
    }

    /** This rank, in {@code MPI.COMM_WORLD}. */
    public int rank() {
        return rank;
    }

    /** The number of ranks of the job. */
    public int size() {
        return size;
    }

    /**
     * Collects {@code value} from every rank: on rank 0, the values of all ranks in rank order; on
     * the other ranks, an empty list. Collective.
     */
    public <T> List<T> gather(T value) {
        List<T> all = collect(value);
        return rank == 0 ? all : List.of();
    }

    /** Collects {@code value} from every rank: on every rank, the values of all ranks in rank order. Collective. */
    public <T> List<T> allGather(T value) {
        return collect(value);
    }

    @SuppressWarnings("unchecked")
    private <T> List<T> collect(T value) {
        AtomicReferenceArray<Object> slots = collections.computeIfAbsent(calls++, n -> new AtomicReferenceArray<>(size));
        slots.set(rank, value);
        if (comm == null) {
            comm = MPI.COMM_WORLD.Dup();
        }
        comm.Barrier();
        Object[] values = new Object[size];
        for (int r = 0; r < size; r++) {
            values[r] = slots.get(r);
        }
        // Every slot was set by collect(T) of the same call, so with a T (the ranks agree on T).
        return (List<T>) Collections.unmodifiableList(Arrays.asList(values));
    }

    /** Frees the context's communicator, if it made one; called by the extension before Finalize. */
    void free() {
        if (comm != null) {
            comm.Free();
            comm = null;
        }
    }
}
