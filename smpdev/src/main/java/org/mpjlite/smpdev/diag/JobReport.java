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
 * report, the time-limit report and the report of a job stopped by a signal. In a job of more than
 * {@value #CONDENSE_ABOVE} ranks, neighbours in the same state share one entry.
 *
 * <p>Each report is written by its own instance, confined to the calling thread. Reads the ranks'
 * published state; safe from any thread.
 */
public final class JobReport {
    /**
     * Jobs larger than this list consecutive ranks in the same state (same call and arguments,
     * same line) once, as {@code ranks 1-9998: Barrier(...)}: a report of ten thousand ranks stays
     * readable; smaller jobs list every rank on its own.
     */
    static final int CONDENSE_ABOVE = 64;

    /**
     * How long a report may spend finding users' lines: each is a look at another thread's stack,
     * which with thousands of platform threads costs up to a millisecond; the report of a job
     * stopped by Ctrl-C must come within a second or two.
     */
    static final long SITE_BUDGET_NANOS = 500_000_000L;

    /**
     * Entries of a condensed report that get their users' lines whatever the time spent: the
     * states that differ from their neighbours' are the interesting ones (the two ranks of a
     * deadlock among thousands waiting in a Barrier), and a report has few unless ranks' calls
     * differ one by one (a ring), where the budget then applies.
     */
    static final int SITES_ALWAYS = 32;

    private final StringBuilder out;
    /** The threads of the JVM, enumerated once for the whole report. */
    private final RankThreads.Census census = new RankThreads.Census();
    private final long siteDeadline = System.nanoTime() + SITE_BUDGET_NANOS;
    private boolean sitesOmitted;
    /** Whether {@link #appendSite} looks at stacks: not while a rank's state is compared with its run's. */
    private boolean sites = true;
    /** Entries (runs of ranks in one state) written so far, in a condensed report. */
    private int runs;

    private JobReport(String headline) {
        out = new StringBuilder(headline).append('\n');
    }

    public static String describe(Job job, String headline) {
        return new JobReport(headline).write(job);
    }

    private String write(Job job) {
        List<BitSet> awaited = new ArrayList<>();
        List<Rank> ranks = job.ranks(); // one snapshot: ranks spawned meanwhile wait for the next report
        boolean condense = ranks.size() > CONDENSE_ABOVE;
        String run = null;
        String runKey = null;
        int runStart = 0;
        for (Rank r : ranks) {
            BitSet waitsFor = new BitSet();
            awaited.add(waitsFor);
            if (!condense) {
                out.append("  ").append(r).append(": ");
                appendRank(job, r, waitsFor);
                continue;
            }
            // Past the time budget a rank's state is first compared without its line: like its
            // neighbour's, it joins its run without a look at its stack (the report says so).
            int mark = out.length();
            String key = null;
            if (System.nanoTime() - siteDeadline > 0) {
                sites = false;
                appendRank(job, r, waitsFor);
                key = out.substring(mark);
                out.setLength(mark);
                sites = true;
                if (key.equals(runKey)) {
                    sitesOmitted = true;
                    continue;
                }
            }
            appendRank(job, r, key == null ? waitsFor : new BitSet());
            String entry = out.substring(mark);
            out.setLength(mark);
            if (entry.equals(run)) {
                continue;
            }
            appendRun(runStart, r.id() - 1, run);
            runs++;
            run = entry;
            runKey = key;
            runStart = r.id();
        }
        if (condense) {
            appendRun(runStart, ranks.size() - 1, run);
        }
        String cycle = WaitForGraph.cycle(awaited);
        if (cycle != null) {
            out.append("  cycle: ").append(cycle).append('\n');
        }
        if (sitesOmitted) {
            out.append("  (after the first ").append(SITE_BUDGET_NANOS / 1_000_000).append(" ms, lines in the program")
                .append(" are left out and ranks are grouped by their calls alone: looking at that many threads'")
                .append(" stacks takes too long)\n");
        }
        return out.toString();
    }

    /** One line (or block) for ranks {@code first..last}, all in the state {@code entry}; nothing for null. */
    private void appendRun(int first, int last, String entry) {
        if (entry == null) {
            return;
        }
        out.append(first == last ? "  rank " + first : "  ranks " + first + "-" + last).append(": ").append(entry);
    }

    /** {@code Recv(source=1, ...)} and the user's line; adds the ranks the call waits for. */
    /** Rank {@code r}'s state (its blocked calls, or running, or finished) and its unexpected messages. */
    private void appendRank(Job job, Rank r, BitSet waitsFor) {
        RankThreads threads = RankThreads.of(r, census);
        if (threads.finished) {
            out.append(r.isInitialized() ? "finished" : "finished without calling MPI.Init").append('\n');
        } else if (threads.inMpi.isEmpty()) {
            out.append("running, not blocked in MPI\n");
            appendSite(r.mainThread(), "");
        } else if (threads.inMpi.size() == 1 && threads.waiting.isEmpty()
            && threads.inMpi.containsKey(r.mainThread())) {
            appendBlocked(job, threads.inMpi.get(r.mainThread()), "", waitsFor);
        } else {
            appendThreads(job, threads, waitsFor);
        }
        waitsFor.clear(r.id());
        if (!threads.finished) {
            appendUnexpected(job, r);
        }
    }

    private void appendBlocked(Job job, BlockedCall b, String indent, BitSet waitsFor) {
        out.append(b.call).append('(').append(b.describe(job)).append(")\n");
        appendSite(b.thread, indent);
        b.addAwaitedRanks(job, waitsFor);
    }

    /** A multi-threaded rank: every thread blocked in MPI, then every thread waiting for one. */
    private void appendThreads(Job job, RankThreads threads, BitSet waitsFor) {
        int n = threads.inMpi.size();
        out.append(n).append(n == 1 ? " thread" : " threads").append(" blocked in MPI")
            .append(threads.stuck ? "" : ", others running").append('\n');
        for (BlockedCall b : threads.inMpi.values()) {
            out.append("    thread '").append(b.thread.getName()).append("': ");
            appendBlocked(job, b, "  ", waitsFor);
        }
        for (java.util.Map.Entry<Thread, String> w : threads.waiting.entrySet()) {
            out.append("    thread '").append(w.getKey().getName()).append("': ").append(w.getValue()).append('\n');
            appendSite(w.getKey(), "  ");
        }
    }

    private void appendSite(Thread t, String indent) {
        if (t == null || !sites) {
            return;
        }
        if (runs > SITES_ALWAYS && System.nanoTime() - siteDeadline > 0) {
            sitesOmitted = true;
            return;
        }
        StackTraceElement site = CallSite.of(t);
        if (site != null) {
            out.append(indent).append("          at ").append(CallSite.frame(site)).append('\n');
        }
    }

    private void appendUnexpected(Job job, Rank r) {
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
