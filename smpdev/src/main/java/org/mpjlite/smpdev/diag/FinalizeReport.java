package org.mpjlite.smpdev.diag;

import java.util.ArrayList;
import java.util.List;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.error.ErrorClass;
import org.mpjlite.smpdev.error.Errors;
import org.mpjlite.smpdev.p2p.Message;
import org.mpjlite.smpdev.p2p.RecvRequest;
import org.mpjlite.smpdev.p2p.SendRequest;

/**
 * What a rank leaves behind when it calls Finalize, for a person to read: messages it never
 * received (waiting, or taken by a matched probe and never received), its receives that never matched, its sends nobody received and, under
 * {@link JobConfig#check()}, every request the program never completed with a wait or a test,
 * with the user's line of the call that started it. The output shows no bug, but these are bugs.
 *
 * <p>MPI says Finalize with operations still pending is erroneous: a warning by default, an
 * {@code MPI_ERR_PENDING} error under {@code --check} (the rank can then still complete them and
 * call Finalize again).
 *
 * <p>Stateless; runs on the finalizing rank's thread.
 */
public final class FinalizeReport {
    private FinalizeReport() {
    }

    /** Warns about, or under {@code --check} fails on, what {@code rank} leaves behind. */
    public static void check(Rank rank, String call) {
        Job job = rank.job();
        List<String> clauses = new ArrayList<>();
        boolean pending = false;
        List<Message> unreceived = rank.endpoint().mailbox().unexpectedSnapshot();
        if (!unreceived.isEmpty()) {
            StringBuilder c = new StringBuilder(count(unreceived.size(), "message")).append(" it never received:");
            for (Message m : unreceived) {
                c.append(' ').append(m.describe(job));
            }
            clauses.add(c.toString());
        }
        List<Message> probed = rank.endpoint().probedSnapshot();
        if (!probed.isEmpty()) {
            StringBuilder c = new StringBuilder(count(probed.size(), "message"))
                .append(" a matched probe (mProbe/imProbe) took and nothing received (mRecv/imRecv):");
            for (Message m : probed) {
                c.append(' ').append(m.describe(job));
            }
            clauses.add(c.toString());
        }
        OpenRequests open = rank.openRequests();
        if (open == null) {
            List<RecvRequest> unmatched = rank.endpoint().mailbox().postedSnapshot();
            if (!unmatched.isEmpty()) {
                StringBuilder c = new StringBuilder(count(unmatched.size(), "receive"))
                    .append(" that never matched:");
                for (RecvRequest r : unmatched) {
                    c.append(' ').append(r.call()).append('(').append(r.describe(job)).append(')');
                }
                clauses.add(c.toString());
            }
            List<SendRequest> unsent = rank.endpoint().waitingSendsSnapshot();
            if (!unsent.isEmpty()) {
                StringBuilder c = new StringBuilder(count(unsent.size(), "send")).append(" nobody received:");
                for (SendRequest s : unsent) {
                    c.append(' ').append(s);
                }
                clauses.add(c.toString());
            }
        } else {
            List<OpenRequests.Entry> entries = open.snapshot();
            if (!entries.isEmpty()) {
                StringBuilder c = new StringBuilder(count(entries.size(), "request"))
                    .append(" never completed with a wait or a test:");
                for (OpenRequests.Entry e : entries) {
                    boolean still = e.isPending();
                    pending |= still;
                    c.append(' ').append(e.describe()).append(still ? " (still pending)" : "").append(';');
                }
                c.setLength(c.length() - 1);
                clauses.add(c.toString());
            }
        }
        if (clauses.isEmpty()) {
            return;
        }
        StackTraceElement site = CallSite.here();
        String report = "rank " + rank.id() + " called " + call
            + (site == null ? "" : " (" + CallSite.line(site) + ")") + " with " + String.join("; and ", clauses);
        if (pending) {
            throw Errors.error(ErrorClass.ERR_PENDING, report + " (MPI forbids Finalize while operations are pending:"
                + " complete them with Wait or Test first)");
        }
        job.config().warnings().accept(report);
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
