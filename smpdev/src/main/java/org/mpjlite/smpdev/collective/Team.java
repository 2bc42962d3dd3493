package org.mpjlite.smpdev.collective;

import org.mpjlite.smpdev.CollectiveRequest;
import org.mpjlite.smpdev.ErrorClass;
import org.mpjlite.smpdev.Errors;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Rank;

/**
 * The members of one communicator and the collective state they share: a ring of {@link Slot}s and
 * each member's count of collectives entered. One instance per communicator per job, found through
 * {@link Job#shared}; a member is known by its index in the member list, so the engine works for any
 * communicator, not only the world.
 *
 * <p>The protocol of one collective, for the members of a team:
 * <ol>
 *   <li>enter: take the next collective number and its slot; wait (rarely) until every member has
 *       left the slot's previous collective, {@link #SLOTS} collectives ago;</li>
 *   <li>publish a {@link Part} and arrive; a blocking caller waits for every arrival, runs its own
 *       {@link Kernel}, waits for a second round of arrivals if others read its own buffers
 *       (they are free at once when its contribution was copied into the slot), then departs; the
 *       last to depart recycles the slot;</li>
 *   <li>a non-blocking caller publishes its request and returns; the last member to arrive runs every
 *       member's kernel and completes every request, so the operation progresses while the others
 *       compute, outside any MPI call.</li>
 * </ol>
 * Waits go through the device wait path ({@link Rank#awaitCondition}): spin only while the ranks fit
 * on the cores, then park until the thread that completes a phase rings the members' doorbells.
 *
 * <p>Thread safety: members call concurrently; each member's collectives are issued one at a time,
 * in the same order on every member (MPI's rule). A member may run up to {@code SLOTS} collectives
 * ahead of the slowest member before entering waits. Counters and slot numbers are atomics or
 * volatile; see {@link Slot} for the memory ordering.
 */
public final class Team {
    /** Collectives that may be in flight on one team at once (a power of two). */
    static final int SLOTS = 32;
    /** Longs between two members' counters, so that they sit on different cache lines. */
    private static final int PAD = 16;

    private final Rank[] members;
    private final Slot[] slots;
    /** Member i's number of collectives entered, at index {@code i * PAD}; written only by member i. */
    private final long[] entered;

    private Team(Rank[] members) {
        this.members = members;
        this.slots = new Slot[SLOTS];
        for (int i = 0; i < SLOTS; i++) {
            slots[i] = new Slot(i, members.length);
        }
        this.entered = new long[members.length * PAD];
    }

    private record Key(int context, int leader) {
    }

    /**
     * The team of a communicator: its collective context and its members, in communicator rank order
     * (all ranks of a job must pass the same list). Created once per job, on first use.
     */
    public static Team of(Job job, int context, Rank[] members) {
        return job.shared(new Key(context, members[0].id()), k -> new Team(members.clone()));
    }

    /** The team of every rank of {@code me}'s job (a world communicator). */
    public static Team world(Rank me, int context) {
        Job job = me.job();
        return job.shared(new Key(context, 0), k -> new Team(job.ranks().toArray(new Rank[0])));
    }

    /** The team of {@code me} alone (a self communicator). */
    public static Team self(Rank me, int context) {
        return me.job().shared(new Key(context, me.id()), k -> new Team(new Rank[] {me}));
    }

    public int size() {
        return members.length;
    }

    /** Enters member {@code me}'s next collective: its slot, once the slot is free. */
    Slot enter(int me, String call) {
        long op = entered[me * PAD]++;
        Slot s = slots[(int) (op & (SLOTS - 1))];
        if (s.op != op) {
            members[me].awaitCondition(() -> s.op == op, call);
        }
        return s;
    }

    /**
     * Runs member {@code me}'s side of the collective in {@code s}, whose part it has published.
     *
     * @param buffersFree true when no other member reads {@code me}'s own buffers (its contribution
     *                    was copied into the slot, or it has none), so it may leave after its kernel;
     *                    every member must pass the same value
     * @param request     null for a blocking call, which returns when done; else the request of a
     *                    non-blocking call, which returns at once
     */
    void run(Slot s, int me, Kernel kernel, boolean buffersFree, CollectiveRequest request, String call) {
        if (request != null) {
            s.parts[me].request = request;
            if (s.arrived.incrementAndGet() == members.length) {
                finish(s, kernel);
            }
            return;
        }
        int n = members.length;
        arrive(s, me, n, call);
        RuntimeException error = null;
        try {
            kernel.run(s, me);
        } catch (RuntimeException e) {
            error = e;
        }
        if (!buffersFree) {
            arrive(s, me, 2 * n, call);
        }
        if (s.departed.incrementAndGet() == n) {
            recycle(s);
        }
        if (error instanceof KernelError k) {
            throw Errors.error(k.errorClass, k.getMessage());
        } else if (error != null) {
            throw error;
        }
    }

    /** Arrives at a phase and waits until every member has. */
    private void arrive(Slot s, int me, int target, String call) {
        if (s.arrived.incrementAndGet() == target) {
            wakeAll();
        } else {
            members[me].awaitCondition(() -> s.arrived.get() >= target, call);
        }
    }

    /**
     * The last arrival of a non-blocking collective does every member's part, then completes every
     * request: none completes before all kernels ran, since a completed member may reuse its buffers.
     */
    private void finish(Slot s, Kernel kernel) {
        int n = members.length;
        RuntimeException[] errors = null;
        for (int m = 0; m < n; m++) {
            try {
                kernel.run(s, m);
            } catch (RuntimeException e) {
                if (errors == null) {
                    errors = new RuntimeException[n];
                }
                errors[m] = e;
            }
        }
        CollectiveRequest[] requests = new CollectiveRequest[n];
        for (int m = 0; m < n; m++) {
            requests[m] = s.parts[m].request;
        }
        recycle(s);
        for (int m = 0; m < n; m++) {
            RuntimeException e = errors == null ? null : errors[m];
            if (e == null) {
                requests[m].complete();
            } else if (e instanceof KernelError k) {
                requests[m].fail(k.errorClass, k.getMessage());
            } else {
                requests[m].fail(ErrorClass.ERR_OTHER, "the collective failed for rank " + members[m].id() + ": " + e);
            }
        }
    }

    /** Clears the slot and admits the collective {@code SLOTS} later (it may have a member waiting). */
    private void recycle(Slot s) {
        for (Part p : s.parts) {
            p.clear();
        }
        s.arrived.set(0);
        s.departed.set(0);
        s.op = s.op + SLOTS;
        wakeAll();
    }

    private void wakeAll() {
        for (Rank r : members) {
            r.wakeWaiters();
        }
    }
}
