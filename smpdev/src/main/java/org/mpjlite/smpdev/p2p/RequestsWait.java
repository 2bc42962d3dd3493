package org.mpjlite.smpdev.p2p;

import java.util.BitSet;
import java.util.StringJoiner;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Request;
import org.mpjlite.smpdev.diag.Awaited;
import org.mpjlite.smpdev.wait.Condition;

/**
 * A wait on several requests: all of them (Waitall) or any one (Waitany, Waitsome). One waiting
 * thread checks {@link #isMet}; the reports ({@link #describe}, {@link #addAwaitedRanks}) may
 * come from another and read only the requests.
 */
final class RequestsWait implements Condition, Awaited {
    private final Request[] requests;
    private final boolean all;
    /**
     * For a wait on all: every request before this index is complete (completion is for good), so
     * each check starts at the first that was not. Written by the waiting thread only.
     */
    private int firstPending;

    RequestsWait(Request[] requests, boolean all) {
        this.requests = requests;
        this.all = all;
    }

    @Override
    public boolean isMet() {
        return all ? allComplete() : anyComplete();
    }

    private boolean allComplete() {
        int i = firstPending;
        while (i < requests.length && (requests[i] == null || requests[i].isComplete())) {
            i++;
        }
        firstPending = i;
        return i == requests.length;
    }

    private boolean anyComplete() {
        for (Request r : requests) {
            if (r != null && r.isComplete()) {
                return true;
            }
        }
        return false;
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
