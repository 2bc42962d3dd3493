package org.mpjlite.smpdev.p2p;

import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.Request;
import org.mpjlite.smpdev.data.TypeMap;

/**
 * A send. Eager and buffered sends are complete as soon as they return; rendezvous and synchronous
 * sends complete when the receiver has copied the data out of the sender's buffer.
 *
 * <p>A pending (rendezvous or synchronous) send is cancelled by withdrawing its message before a
 * receive or a matched probe matches it ({@code SentEnvelope.withdraw}): then no receive ever gets
 * it and the send completes as cancelled; once matched it completes normally. An eager or buffered
 * send is complete when it returns, so a cancel finds nothing to withdraw (MPI lets a cancel fail
 * for a send that has completed) and its message is received as sent.
 */
public final class SendRequest extends Request {
    /** For reports: where a pending (rendezvous or synchronous) send goes; null when complete at once. */
    private final Rank dest;
    private final String call;
    private final int count;
    private final TypeMap map;
    /** The message this send waits to have received, and the stamp to withdraw it with; null when complete at once. */
    private Message message;
    private long stamp;

    private SendRequest(Rank owner) {
        super(owner);
        this.dest = null;
        this.call = null;
        this.count = 0;
        this.map = null;
    }

    /** A send that waits for its receiver (rendezvous or synchronous). */
    SendRequest(Rank owner, Rank dest, int context, int tag, int count, TypeMap map, String call) {
        super(owner, context, owner.id(), tag);
        this.dest = dest;
        this.call = call;
        this.count = count;
        this.map = map;
    }

    /**
     * A send that is complete on creation; immutable once built, so one per rank is shared by every
     * eager and buffered send (no allocation, no volatile write on the fast path).
     */
    static SendRequest completed(Rank owner) {
        SendRequest s = new SendRequest(owner);
        s.complete(ANY_SOURCE, ANY_TAG, 0, null);
        return s;
    }

    /**
     * Makes {@code m}, about to be delivered, the message this send waits on, which {@link #cancel}
     * may withdraw. The sending thread, before the request is handed to the program.
     */
    void waitsOn(Message m) {
        m.sender = this;
        message = m;
        stamp = m.makeWithdrawable();
    }

    @Override
    public boolean cancel() {
        Message m = message;
        if (m == null || isComplete() || !m.withdraw(stamp)) {
            return false;
        }
        m.withdrawn();
        owner.endpoint().sendReceived(this);
        completeCancelled();
        return true;
    }

    @Override
    public String describe(Job job) {
        if (dest == null) {
            return "";
        }
        return "dest=" + job.destRank(context, dest) + ", tag=" + tag + ", comm=" + job.contextName(context) + ", count=" + count + ", "
            + map.describeSignature() + "; waiting for a matching receive";
    }

    @Override
    public void addAwaitedRanks(Job job, java.util.BitSet ranks) {
        if (dest != null) {
            ranks.set(dest.id());
        }
    }

    @Override
    public String toString() {
        return call == null ? "completed send" : call + "(" + describe(owner.job()) + ")";
    }
}
