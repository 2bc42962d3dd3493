package org.mpjlite.smpdev.diag;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.p2p.Message;

/**
 * Where every rank of a job stands, for a person to read: the blocking call a rank is in (with its
 * arguments and the user's line), or that it is running or finished; the messages queued for it
 * that match no receive; and the cycle of the wait-for graph, if there is one. Used by the deadlock
 * report and by the time-limit report.
 *
 * <p>Stateless. Reads the ranks' published state; safe from any thread.
 */
public final class JobReport {
    private JobReport() {
    }

    public static String describe(Job job, String headline) {
        StringBuilder out = new StringBuilder(headline).append('\n');
        List<BitSet> awaited = new ArrayList<>();
        for (Rank r : job.ranks()) {
            BitSet waitsFor = new BitSet();
            out.append("  ").append(r).append(": ");
            RankThreads threads = RankThreads.of(r);
            if (threads.finished) {
                out.append(r.isInitialized() ? "finished" : "finished without calling MPI.Init").append('\n');
            } else if (threads.inMpi.isEmpty()) {
                out.append("running, not blocked in MPI\n");
                appendSite(out, r.mainThread());
            } else if (threads.inMpi.size() == 1 && threads.waiting.isEmpty()
                && threads.inMpi.containsKey(r.mainThread())) {
                appendBlocked(out, job, threads.inMpi.get(r.mainThread()), "", waitsFor);
            } else {
                appendThreads(out, job, threads, waitsFor);
            }
            waitsFor.clear(r.id());
            if (!threads.finished) {
                appendUnexpected(out, job, r);
            }
            awaited.add(waitsFor);
        }
        String cycle = WaitForGraph.cycle(awaited);
        if (cycle != null) {
            out.append("  cycle: ").append(cycle).append('\n');
        }
        return out.toString();
    }

    /** {@code Recv(source=1, ...)} and the user's line; adds the ranks the call waits for. */
    private static void appendBlocked(StringBuilder out, Job job, BlockedCall b, String indent, BitSet waitsFor) {
        out.append(b.call).append('(').append(b.describe(job)).append(")\n");
        appendSite(out, b.thread, indent);
        b.addAwaitedRanks(job, waitsFor);
    }

    /** A multi-threaded rank: every thread blocked in MPI, then every thread waiting for one. */
    private static void appendThreads(StringBuilder out, Job job, RankThreads threads, BitSet waitsFor) {
        int n = threads.inMpi.size();
        out.append(n).append(n == 1 ? " thread" : " threads").append(" blocked in MPI")
            .append(threads.stuck ? "" : ", others running").append('\n');
        for (BlockedCall b : threads.inMpi.values()) {
            out.append("    thread '").append(b.thread.getName()).append("': ");
            appendBlocked(out, job, b, "  ", waitsFor);
        }
        for (java.util.Map.Entry<Thread, String> w : threads.waiting.entrySet()) {
            out.append("    thread '").append(w.getKey().getName()).append("': ").append(w.getValue()).append('\n');
            appendSite(out, w.getKey(), "  ");
        }
    }

    private static void appendSite(StringBuilder out, Thread t) {
        appendSite(out, t, "");
    }

    private static void appendSite(StringBuilder out, Thread t, String indent) {
        StackTraceElement site = t == null ? null : CallSite.of(t);
        if (site != null) {
            out.append(indent).append("          at ").append(CallSite.frame(site)).append('\n');
        }
    }

    private static void appendUnexpected(StringBuilder out, Job job, Rank r) {
        List<Message> unexpected = r.endpoint().mailbox().unexpectedSnapshot();
        if (unexpected.isEmpty()) {
            return;
        }
        out.append("          messages waiting for it that no posted receive matches:");
        for (Message m : unexpected) {
            out.append(' ').append(m.describe(job));
        }
        out.append('\n');
    }
}
