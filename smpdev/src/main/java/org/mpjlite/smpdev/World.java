package org.mpjlite.smpdev;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ranks started together, which share an {@code MPI.COMM_WORLD} and an Init: the job's first ranks,
 * or the children of one {@code spawn} (MPI-3.1 10.3: spawned processes have a world of their own).
 * Init waits for the members of the caller's world only, so children started while the job runs
 * need not wait for (nor be waited for by) the ranks that started them.
 *
 * <p>Thread safety: immutable but for the registration count, which is atomic; published with the
 * ranks it belongs to.
 */
public final class World {
    /** The first ranks' world communicator's context; spawned worlds get contexts of their own. */
    static final int FIRST_WORLD_CONTEXT = 0;
    private final Membership members;
    private final int context;
    private final String origin;
    final AtomicInteger registered = new AtomicInteger();

    World(Membership members, int context, String origin) {
        this.members = members;
        this.context = context;
        this.origin = origin;
    }

    /** The members, in {@code COMM_WORLD} rank order. */
    public Membership members() {
        return members;
    }

    /** The matching context of this world's {@code COMM_WORLD} (collectives use the next one). */
    public int context() {
        return context;
    }

    /** True for the job's first ranks, false for spawned ones. */
    public boolean isFirst() {
        return origin == null;
    }

    /** What started a spawned world ({@code spawn of Worker by rank 0}), for reports; null for the first. */
    public String origin() {
        return origin;
    }
}
