package org.mpjlite.run;

import java.util.List;
import java.util.Locale;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.diag.Tracer;

/**
 * The communication summary of {@code mpjrun --stats}: per rank, the time in MPI calls and outside
 * them, its collective calls and their bytes, and the matrices of point-to-point messages and bytes
 * from rank to rank (world ranks; a row is the sender). Collectives are counted per rank, not in the
 * matrices: their data moves through shared memory, not as messages between two ranks.
 *
 * <p>A rank's time runs from the job's start to the end of its main thread; its time in MPI is the
 * sum of its calls' durations (at {@code THREAD_MULTIPLE}, of all its threads' calls, shown at most
 * as its whole time).
 *
 * <p>Read after the job has ended (its ranks' counters are final). Stateless.
 */
final class StatsReport {
    private StatsReport() {
    }

    /** The summary of {@code job}, whose configuration had {@code stats} on. */
    static String format(Job job) {
        List<Rank> ranks = job.ranks();
        int n = ranks.size();
        StringBuilder b = new StringBuilder();
        b.append("mpjrun: statistics of ").append(n).append(n == 1 ? " rank\n" : " ranks\n");
        b.append(String.format(Locale.ROOT, "%6s %12s %7s %12s %12s %12s%n", "rank", "in MPI (s)", "%", "outside (s)",
            "collectives", "coll. bytes"));
        for (Rank r : ranks) {
            Tracer t = r.tracer();
            long wall = t.wallNanos();
            long mpi = Math.min(t.mpiNanos(), wall);
            b.append(String.format(Locale.ROOT, "%6d %12.6f %7.1f %12.6f %12d %12d%n", r.id(), mpi / 1e9,
                wall == 0 ? 0.0 : 100.0 * mpi / wall, (wall - mpi) / 1e9, t.collectives(), t.collectiveBytes()));
        }
        long[][] messages = new long[n][];
        for (int i = 0; i < n; i++) {
            messages[i] = ranks.get(i).tracer().messagesTo();
        }
        matrix(b, "point-to-point messages (row: from rank, column: to rank)", messages);
        matrix(b, "point-to-point bytes (row: from rank, column: to rank)", bytes(job));
        return b.toString();
    }

    /** The bytes sent from rank to rank, row = sender: what the heat map draws. */
    static long[][] bytes(Job job) {
        List<Rank> ranks = job.ranks();
        long[][] bytes = new long[ranks.size()][];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = ranks.get(i).tracer().bytesTo();
        }
        return bytes;
    }

    private static void matrix(StringBuilder b, String title, long[][] m) {
        int width = 6;
        for (long[] row : m) {
            for (long v : row) {
                width = Math.max(width, Long.toString(v).length() + 1);
            }
        }
        b.append(title).append('\n').append(String.format(Locale.ROOT, "%6s", "from"));
        for (int j = 0; j < m.length; j++) {
            b.append(String.format(Locale.ROOT, "%" + width + "s", "to " + j));
        }
        b.append('\n');
        for (int i = 0; i < m.length; i++) {
            b.append(String.format(Locale.ROOT, "%6d", i));
            for (long v : m[i]) {
                b.append(String.format(Locale.ROOT, "%" + width + "d", v));
            }
            b.append('\n');
        }
    }
}
