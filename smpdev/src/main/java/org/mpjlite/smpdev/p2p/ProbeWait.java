package org.mpjlite.smpdev.p2p;

import java.util.BitSet;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.diag.Awaited;
import org.mpjlite.smpdev.wait.Condition;

/**
 * A blocking probe's wait: met once a message the pattern accepts has arrived. A matched probe's
 * wait ({@code remove}) also takes the message out of matching, exactly once: after it is found the
 * condition stays met without looking again, so no second message is taken.
 */
final class ProbeWait implements Condition, Awaited {
    private final Rank me;
    private final int context;
    private final int source;
    private final int tag;
    private final boolean remove;
    Message found;

    ProbeWait(Rank me, int context, int source, int tag, boolean remove) {
        this.me = me;
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.remove = remove;
    }

    @Override
    public boolean isMet() {
        if (found == null) {
            found = remove ? me.endpoint().mailbox().take(context, source, tag)
                : me.endpoint().mailbox().probe(context, source, tag);
        }
        return found != null;
    }

    @Override
    public String describe(Job job) {
        return RecvRequest.pattern(job, context, source, tag);
    }

    @Override
    public void addAwaitedRanks(Job job, BitSet ranks) {
        job.addSourceRanks(context, source, ranks);
    }
}
