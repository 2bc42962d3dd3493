package org.mpjlite.smpdev.p2p;

import java.util.BitSet;
import java.util.StringJoiner;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Request;
import org.mpjlite.smpdev.diag.Awaited;
import org.mpjlite.smpdev.wait.Condition;

/** A wait on several requests: all of them (Waitall) or any one (Waitany, Waitsome). */
final class RequestsWait implements Condition, Awaited {
    private final Request[] requests;
    private final boolean all;

    RequestsWait(Request[] requests, boolean all) {
        this.requests = requests;
        this.all = all;
    }

    @Override
    public boolean isMet() {
        for (Request r : requests) {
            if (r == null) {
                continue;
            }
            boolean done = r.isComplete();
            if (all && !done) {
                return false;
            }
            if (!all && done) {
                return true;
            }
        }
        return all;
    }

    @Override
    public String describe(Job job) {
        StringJoiner pending = new StringJoiner(", ", (all ? "all of " : "any of ") + "[", "]");
        for (Request r : requests) {
            if (r != null && !r.isComplete()) {
                pending.add(r.toString());
            }
        }
        return pending.toString();
    }

    @Override
    public void addAwaitedRanks(Job job, BitSet ranks) {
        for (Request r : requests) {
            if (r != null && !r.isComplete()) {
                r.addAwaitedRanks(job, ranks);
            }
        }
    }
}
