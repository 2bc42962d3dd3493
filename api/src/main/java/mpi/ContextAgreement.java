package mpi;

import java.util.concurrent.ConcurrentHashMap;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Rank;

/**
 * Contexts of communicators made without a collective over their parent ({@code iDup},
 * {@code createGroup}): the first member to arrive reserves the contexts and the others take the
 * same ones, found under a key every member computes alike (the parent's context, the kind of call,
 * its arguments, and how many such calls the member made before on that parent: MPI has the members
 * make them in the same order). No member waits for another, so {@code iDup} returns at once as a
 * non-blocking call must, and {@code createGroup} involves the group's members only. An entry is
 * dropped once every member has taken it; the entries of a job that fails first stay until the JVM
 * ends (a few bytes each).
 *
 * <p>Thread-safe: a concurrent map, each entry's count under the entry's lock.
 */
final class ContextAgreement {
    private record Key(Job job, Object what) {
    }

    private static final class Entry {
        final int context;
        /** Members that have not taken the context yet; guarded by this. */
        int left;

        Entry(int context, int parties) {
            this.context = context;
            this.left = parties;
        }
    }

    private static final ConcurrentHashMap<Key, Entry> PENDING = new ConcurrentHashMap<>();

    private ContextAgreement() {
    }

    /**
     * The first of the two contexts (point-to-point, then collectives) of the communicator that
     * {@code parties} members make under {@code what}; {@code me} is one of them.
     */
    static int context(Rank me, Object what, int parties) {
        Key key = new Key(me.job(), what);
        Entry e = PENDING.computeIfAbsent(key, k -> new Entry(me.job().allocateContexts(2), parties));
        synchronized (e) {
            if (--e.left == 0) {
                PENDING.remove(key, e);
            }
        }
        return e.context;
    }
}
