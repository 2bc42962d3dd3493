package mpi;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.mpjlite.smpdev.Rank;

/**
 * What the members of one window share, one object per window per job (found through the job's
 * shared table under the window's own context): each member's memory, the lock word of each
 * member's memory (passive target), the monitor that makes accumulates to a member's memory atomic,
 * and the counters of post-start-complete-wait.
 *
 * <p>Memory: a window made over (or allocated from) memory has one region per member, written by
 * that member before the creating collective and read after it (the collective orders the two). A
 * dynamic window's members attach and detach regions at any time: each member's list is an
 * immutable array, replaced under this object's monitor (so that threads of one rank attaching at
 * once lose nothing) and read without it.
 *
 * <p>Lock words: 0 free, {@code n > 0} held shared by {@code n} origins, -1 held exclusively.
 * Accumulates to one member's memory run under that member's monitor, which is never held while
 * waiting, so they are atomic per element with respect to each other.
 *
 * <p>PSCW counters: {@code posts[o * n + t]} counts the posts of target {@code t} to origin
 * {@code o} that no start of {@code o} has consumed yet (only {@code o} decrements it);
 * {@code completes[t]} counts the completes received by target {@code t} that no wait of {@code t}
 * has consumed (only {@code t} decrements it). MPI's nesting rules keep these counts from mixing
 * epochs: an origin completes epoch {@code k + 1} only after a post that follows the target's wait
 * for epoch {@code k}.
 *
 * <p>Thread safety: atomics (and the monitor of attach and detach); every change a waiter waits
 * for is followed by a wake-up ({@link RmaWait#wake}).
 */
final class WinState {
    /** The key of a window in the job's shared table: its context, unique in the job. */
    record Key(int context) {
    }

    /** Memory of a member: {@code size} bytes of {@code buffer} from byte 0, at window address {@code address}. */
    record Region(Object buffer, long address, long size) {
    }

    final Rank[] members;
    /** How the window was made: a {@code Win.FLAVOR_*} code. */
    final int flavor;
    private final AtomicReferenceArray<Region[]> regions;
    private final int[] dispUnits;
    private final AtomicIntegerArray lockWords;
    private final Object[] accumulateLocks;
    private final AtomicIntegerArray posts;
    private final AtomicIntegerArray completes;
    /** Next free window address of each member of a dynamic window (under this object's monitor). */
    private final long[] nextAddress;

    WinState(Rank[] members, int flavor) {
        int n = members.length;
        this.members = members;
        this.flavor = flavor;
        this.regions = new AtomicReferenceArray<>(n);
        this.dispUnits = new int[n];
        this.lockWords = new AtomicIntegerArray(n);
        this.accumulateLocks = new Object[n];
        for (int i = 0; i < n; i++) {
            accumulateLocks[i] = new Object();
            regions.set(i, new Region[0]);
        }
        this.posts = new AtomicIntegerArray(n * n);
        this.completes = new AtomicIntegerArray(n);
        this.nextAddress = new long[n];
    }

    int size() {
        return members.length;
    }

    // ---- memory --------------------------------------------------------------------------------

    /**
     * Sets member {@code me}'s memory (none for a dynamic window) and displacement unit, before the
     * creating collective.
     */
    void setMemory(int me, Object buffer, long size, int dispUnit) {
        regions.set(me, buffer == null ? new Region[0] : new Region[] {new Region(buffer, 0, size)});
        dispUnits[me] = dispUnit;
    }

    int dispUnit(int member) {
        return dispUnits[member];
    }

    /** Member {@code member}'s regions (one, or none for size 0, unless dynamic). */
    Region[] regions(int member) {
        return regions.get(member);
    }

    /** Attaches {@code size} bytes of {@code buffer} to member {@code me}'s dynamic memory; returns its address. */
    synchronized long attach(int me, Object buffer, long size, String call) {
        Region[] old = regions.get(me);
        for (Region r : old) {
            if (r.buffer() == buffer) {
                throw new MPIException(MPI.ERR_RMA_ATTACH, call + ": the buffer is attached already (at window "
                    + "address " + r.address() + ")");
            }
        }
        long address = nextAddress[me];
        // Regions are laid out in attach order, each at a multiple of 8, and addresses are never reused.
        nextAddress[me] = address + Math.max(8, (size + 7) & ~7L);
        Region[] now = java.util.Arrays.copyOf(old, old.length + 1);
        now[old.length] = new Region(buffer, address, size);
        regions.set(me, now);
        return address;
    }

    synchronized void detach(int me, Object buffer, String call) {
        Region[] old = regions.get(me);
        for (int i = 0; i < old.length; i++) {
            if (old[i].buffer() == buffer) {
                Region[] now = new Region[old.length - 1];
                System.arraycopy(old, 0, now, 0, i);
                System.arraycopy(old, i + 1, now, i, old.length - i - 1);
                regions.set(me, now);
                return;
            }
        }
        throw new MPIException(MPI.ERR_RMA_ATTACH, call + ": the buffer is not attached to this window");
    }

    /** Forgets every member's memory: the window was freed, and must not keep the buffers reachable. */
    void release(int me) {
        regions.set(me, new Region[0]);
    }

    /** The monitor of accumulates to member {@code target}'s memory. */
    Object accumulateLock(int target) {
        return accumulateLocks[target];
    }

    // ---- passive target ------------------------------------------------------------------------

    /** Takes the lock of {@code target}'s memory if it is free for {@code type}; true when taken. */
    boolean tryLock(int target, int type) {
        if (type == MPI.LOCK_EXCLUSIVE) {
            return lockWords.compareAndSet(target, 0, -1);
        }
        for (;;) {
            int v = lockWords.get(target);
            if (v < 0) {
                return false;
            }
            if (lockWords.compareAndSet(target, v, v + 1)) {
                return true;
            }
        }
    }

    void unlock(int target, int type) {
        if (type == MPI.LOCK_EXCLUSIVE) {
            lockWords.set(target, 0);
        } else {
            lockWords.decrementAndGet(target);
        }
        RmaWait.wake(members);
    }

    // ---- post-start-complete-wait -------------------------------------------------------------

    void post(int target, int[] origins) {
        int n = members.length;
        for (int o : origins) {
            posts.incrementAndGet(o * n + target);
        }
        RmaWait.wake(members);
    }

    /** True, and the posts consumed, when every target in {@code targets} has posted to {@code origin}. */
    boolean tryStart(int origin, int[] targets) {
        int n = members.length;
        for (int t : targets) {
            if (posts.get(origin * n + t) <= 0) {
                return false;
            }
        }
        for (int t : targets) {
            posts.decrementAndGet(origin * n + t);
        }
        return true;
    }

    void complete(int[] targets) {
        for (int t : targets) {
            completes.incrementAndGet(t);
        }
        RmaWait.wake(members);
    }

    /** True, and the completes consumed, when {@code origins} origins have completed at {@code target}. */
    boolean tryWait(int target, int origins) {
        if (completes.get(target) < origins) {
            return false;
        }
        completes.addAndGet(target, -origins);
        return true;
    }
}
