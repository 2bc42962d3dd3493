package mpi;

import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.diag.Tracer;
import org.mpjlite.smpdev.p2p.PointToPoint;
import org.mpjlite.smpdev.p2p.RecvRequest;

/**
 * A non-blocking operation: wait for it, test it, cancel it. Both dialects: mpiJava's
 * {@code Wait}/{@code Test}/{@code Waitall}... return statuses; Open MPI's {@code waitFor},
 * {@code test}, static {@code waitAll}...
 *
 * <p>As in MPI, a request that completes through a wait or a successful test becomes the null
 * request ({@link #isNull()}), except a persistent request ({@link Prequest}), which becomes
 * inactive and can be started again. Waiting on a null or inactive request returns an empty status
 * at once.
 *
 * <p>A test that finds nothing complete lets the ranks it may wait for run before it returns: on a
 * virtual rank it yields its carrier ({@link Rank#pollMissed}), so a loop of tests completes even
 * when every carrier runs a polling rank.
 *
 * <p>Not thread-safe: one thread uses a request at a time (MPI's rule); the operation itself may be
 * completed by any thread of any rank.
 */
public class Request {
    /** The request of a rank; null only for {@code MPI.REQUEST_NULL}. */
    final Rank rank;
    /** The operation in flight, or null when inactive. */
    org.mpjlite.smpdev.Request op;
    /** A status that completed without an operation (a PROC_NULL peer), or null. */
    Status preset;
    /** What {@code --check} keeps about the call until the request completes; null otherwise. */
    RequestAudit audit;
    /** Work left for completion (unpacking a collective's staged derived-type data), or null. */
    Runnable onCompletion;
    private boolean isNull;
    /** The communicator whose error handler the operation's error goes through; null: none. */
    Comm comm;

    Request(Rank rank, org.mpjlite.smpdev.Request op, Status preset) {
        this(rank, op, preset, null);
    }

    Request(Rank rank, org.mpjlite.smpdev.Request op, Status preset, Comm comm) {
        this.rank = rank;
        this.op = op;
        this.preset = preset;
        this.isNull = rank == null;
        this.comm = comm;
    }

    /** The null request ({@code MPI.REQUEST_NULL}). */
    public static Request nullRequest() {
        return new Request(null, null, null);
    }

    boolean isActive() {
        return op != null || preset != null;
    }

    /** True when complete (or inactive); makes progress first. */
    boolean ready(String call) {
        if (op == null) {
            return true;
        }
        rank.checkCaller(call);
        PointToPoint.progress(rank);
        if (!op.isComplete()) {
            rank.checkAlive(call);
            return false;
        }
        return true;
    }

    /**
     * Collects the status of a complete request and deactivates it; throws the operation's error,
     * or under {@code --check} an error if a send buffer changed while the send was pending.
     */
    Status collect() {
        return collect(true);
    }

    /**
     * As {@link #collect()}; without {@code withStatus} (a call that returns no status) it makes
     * none and returns null. A receive's device request is handed back for reuse: once collected,
     * nothing refers to it (under {@code --check} its audit still does, and keeps it).
     */
    Status collect(boolean withStatus) {
        org.mpjlite.smpdev.Request r = op;
        RequestAudit a = audit;
        Status s = null;
        RuntimeException error = null;
        if (r != null) {
            if (withStatus) {
                s = new Status(r);
            }
            error = r.failed() ? r.error() : null;
            if (r instanceof RecvRequest received) {
                Tracer t = rank.tracer();
                if (t != null) {
                    t.received(received.flow());
                }
                if (a == null) {
                    received.recycle();
                }
            }
        } else if (preset != null) {
            s = preset;
        } else if (withStatus) {
            s = new Status();
        }
        op = null;
        preset = null;
        audit = null;
        deactivate();
        if (a != null) {
            a.close(rank);
            a.verifyBuffer();
        }
        if (error != null) {
            throw comm != null && error instanceof MPIException ? comm.raise((MPIException) error) : error;
        }
        Runnable after = onCompletion;
        if (after != null) {
            onCompletion = null;
            after.run();
        }
        return s;
    }

    /** What happens after completion: a plain request becomes null; a persistent one, inactive. */
    void deactivate() {
        isNull = true;
    }

    Status await(String call) {
        return await(call, true);
    }

    /** Waits for completion and collects the request; its status, or null without {@code withStatus}. */
    Status await(String call, boolean withStatus) {
        long start = traceStart(rank);
        if (op != null) {
            rank.checkCaller(call);
            op.await(call);
        }
        Status s = collect(withStatus);
        traced(rank, call, start);
        return s;
    }

    /** The start of a wait or test of {@code rank}'s requests when its calls are traced, else 0. */
    private static long traceStart(Rank rank) {
        Tracer t = rank == null ? null : rank.tracer();
        return t == null ? 0 : t.now();
    }

    /**
     * Records a wait or test that started at {@code start} (0: not traced) in the rank's trace; its
     * slice covers the blocked time and ends the flows of the receives it completed.
     */
    private static void traced(Rank rank, String call, long start) {
        if (start != 0) {
            rank.tracer().call(call, start, false, null, -1, Integer.MIN_VALUE, -1, null, -1);
        }
    }

    /** A test that started at {@code start} (0: not traced) completed nothing: its time only is counted. */
    private static void untraced(Rank rank, long start) {
        if (start != 0) {
            rank.tracer().untraced(start);
        }
    }

    // ---- mpiJava 1.2 ------------------------------------------------------------------------

    /** Waits for completion and returns the status. */
    public Status Wait() {
        return awaitStatus("Wait");
    }

    /**
     * Waits for completion and collects the request; its status. Small, so that it inlines into
     * the program's loop, where the JIT drops a status the program ignores: the wait and the
     * collection are out of line ({@link #awaitOperation}, {@link #collectAwaited}; {@code bin/mpjrun}
     * keeps them there) and the status is made here, from the completed operation. A request with no
     * operation (inactive, or completed at once for a {@code PROC_NULL} peer), or of a rank that
     * records a trace, takes the general path.
     */
    private Status awaitStatus(String call) {
        org.mpjlite.smpdev.Request r = awaitOperation(call);
        if (r == null) {
            return await(call);
        }
        Status s = new Status(r);
        collectAwaited();
        return s;
    }

    /** This request's operation once complete, not yet collected; null if {@link #awaitStatus} takes the general path. */
    private org.mpjlite.smpdev.Request awaitOperation(String call) {
        org.mpjlite.smpdev.Request r = op;
        if (r == null || rank.tracer() != null) {
            return null;
        }
        rank.checkCaller(call);
        r.await(call);
        return r;
    }

    /** Collects the operation {@link #awaitOperation} waited for: recycles it, throws its error, finishes its work. */
    private void collectAwaited() {
        collect(false);
    }

    /** The status if complete (the request is then done), else null. */
    public Status Test() {
        return test("Test");
    }

    /**
     * The status if complete (the request is then done), else null. Traced only when it completes
     * the request: a polling loop would fill the trace with empty tests (their time still counts).
     */
    private Status test(String call) {
        long start = traceStart(rank);
        if (!ready(call)) {
            rank.pollMissed();
            untraced(rank, start);
            return null;
        }
        Status s = collect();
        traced(rank, call, start);
        return s;
    }

    /** Tries to cancel the operation; wait for it afterwards and ask {@link Status#Test_cancelled()}. */
    public void Cancel() {
        if (op != null) {
            op.cancel();
        }
    }

    /** Releases the request; a pending operation still completes. */
    public void Free() {
        if (audit != null) {
            audit.close(rank);
            audit = null;
        }
        op = null;
        preset = null;
        isNull = true;
    }

    public boolean Is_null() {
        return isNull;
    }

    public static Status[] Waitall(Request[] requests) {
        return collectAll(requests, "Waitall", true);
    }

    /** Waits for every request and collects them; their statuses, or null without {@code withStatus}. */
    private static Status[] collectAll(Request[] requests, String call, boolean withStatus) {
        Rank rank = rankOf(requests);
        long start = traceStart(rank);
        awaitAll(requests, call);
        Status[] out = withStatus ? new Status[requests.length] : null;
        RuntimeException error = null;
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            try {
                Status s = r != null ? r.collect(withStatus) : withStatus ? new Status() : null;
                if (out != null) {
                    out[i] = s;
                }
            } catch (RuntimeException e) {
                error = error == null ? e : error;
            }
        }
        traced(rank, call, start);
        throwIfAny(error);
        return out;
    }

    /**
     * Throws the first error of the requests a call completed, once it has collected all of them:
     * as MPI's Waitall completes every request before it reports MPI_ERR_IN_STATUS, none is left
     * active behind a failed one.
     */
    private static void throwIfAny(RuntimeException firstError) {
        if (firstError != null) {
            throw firstError;
        }
    }

    /**
     * Waits until one request completes; returns its status with {@code index} set. When no request
     * is active, returns an empty status with {@code index == MPI.UNDEFINED}.
     */
    public static Status Waitany(Request[] requests) {
        Rank rank = rankOf(requests);
        long start = traceStart(rank);
        int i = awaitAny(requests, "Waitany");
        if (i < 0) {
            return new Status().withIndex(MPI.UNDEFINED);
        }
        Status s = requests[i].collect().withIndex(i);
        traced(rank, "Waitany", start);
        return s;
    }

    /** Waits until at least one request completes; returns the statuses of all that have. */
    public static Status[] Waitsome(Request[] requests) {
        Status[] s = waitSome(requests, "Waitsome");
        return s == null ? new Status[0] : s;
    }

    /** Waits until at least one request completes; the statuses of all that have, or null if none is active. */
    private static Status[] waitSome(Request[] requests, String call) {
        Rank rank = rankOf(requests);
        long start = traceStart(rank);
        if (awaitAny(requests, call) < 0) {
            return null;
        }
        Status[] s = collectComplete(requests);
        traced(rank, call, start);
        return s;
    }

    /** Every status if all are complete, else null. */
    public static Status[] Testall(Request[] requests) {
        Rank rank = rankOf(requests);
        long start = traceStart(rank);
        for (Request r : requests) {
            if (r != null && !r.ready("Testall")) {
                rank.pollMissed();
                untraced(rank, start);
                return null;
            }
        }
        Status[] out = new Status[requests.length];
        RuntimeException error = null;
        for (int i = 0; i < requests.length; i++) {
            try {
                out[i] = requests[i] == null ? new Status() : requests[i].collect();
            } catch (RuntimeException e) {
                error = error == null ? e : error;
            }
        }
        traced(rank, "Testall", start);
        throwIfAny(error);
        return out;
    }

    /**
     * The status (with {@code index}) of one complete request, or null if none is complete. When no
     * request is active, an empty status with {@code index == MPI.UNDEFINED}.
     */
    public static Status Testany(Request[] requests) {
        Rank polled = null;
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (r != null && r.isActive()) {
                polled = r.rank;
                long start = traceStart(r.rank);
                if (r.ready("Testany")) {
                    Status s = r.collect().withIndex(i);
                    traced(r.rank, "Testany", start);
                    return s;
                }
                untraced(r.rank, start);
            }
        }
        if (polled == null) {
            return new Status().withIndex(MPI.UNDEFINED);
        }
        polled.pollMissed();
        return null;
    }

    /** The statuses of the requests complete now (possibly none). */
    public static Status[] Testsome(Request[] requests) {
        Rank rank = rankOf(requests);
        long start = traceStart(rank);
        for (Request r : requests) {
            if (r != null) {
                r.ready("Testsome");
            }
        }
        Status[] s = collectComplete(requests);
        if (s.length > 0) {
            traced(rank, "Testsome", start);
        } else if (rank != null) {
            rank.pollMissed();
            untraced(rank, start);
        }
        return s;
    }

    // ---- Open MPI Java ----------------------------------------------------------------------

    public final void waitFor() {
        await("waitFor", false);
    }

    public final Status waitStatus() {
        return awaitStatus("waitStatus");
    }

    /** True if complete (the request is then done). */
    public final boolean test() {
        return test("test") != null;
    }

    public final Status testStatus() {
        return test("testStatus");
    }

    /** The status if complete, without completing the request (MPI_Request_get_status); else null. */
    public final Status getStatus() {
        if (!ready("getStatus")) {
            rank.pollMissed();
            return null;
        }
        if (op != null) {
            return new Status(op);
        }
        return preset != null ? preset : new Status();
    }

    public final void cancel() {
        Cancel();
    }

    public void free() {
        Free();
    }

    public final boolean isNull() {
        return isNull;
    }

    public static void waitAll(Request[] requests) {
        collectAll(requests, "waitAll", false);
    }

    public static Status[] waitAllStatus(Request[] requests) {
        return collectAll(requests, "waitAllStatus", true);
    }

    /** Index of the request that completed, or {@code MPI.UNDEFINED} if none was active. */
    public static int waitAny(Request[] requests) {
        return Waitany(requests).index;
    }

    public static Status waitAnyStatus(Request[] requests) {
        return Waitany(requests);
    }

    /** Indexes of the requests that completed; null if none was active. */
    public static int[] waitSome(Request[] requests) {
        return indexes(waitSomeStatus(requests));
    }

    public static Status[] waitSomeStatus(Request[] requests) {
        return waitSome(requests, "waitSome");
    }

    public static boolean testAll(Request[] requests) {
        return Testall(requests) != null;
    }

    public static Status[] testAllStatus(Request[] requests) {
        return Testall(requests);
    }

    /** Index of a complete request, or {@code MPI.UNDEFINED} if none is complete or active. */
    public static int testAny(Request[] requests) {
        Status s = Testany(requests);
        return s == null ? MPI.UNDEFINED : s.index;
    }

    /**
     * The status (with its index) of a complete request, or null if none is complete. When no
     * request is active, an empty status with {@code getIndex() == MPI.UNDEFINED}, as Open MPI
     * returns for MPI_Testany's flag = true, index = MPI_UNDEFINED.
     */
    public static Status testAnyStatus(Request[] requests) {
        return Testany(requests);
    }

    public static int[] testSome(Request[] requests) {
        return indexes(testSomeStatus(requests));
    }

    public static Status[] testSomeStatus(Request[] requests) {
        boolean anyActive = false;
        for (Request r : requests) {
            anyActive |= r != null && r.isActive();
        }
        return anyActive ? Testsome(requests) : null;
    }

    // ---- shared -----------------------------------------------------------------------------

    private static void awaitAll(Request[] requests, String call) {
        Rank rank = rankOf(requests);
        if (rank != null) {
            rank.checkCaller(call);
            if (allComplete(requests)) {
                return;
            }
            PointToPoint.awaitAll(rank, ops(requests), call);
        }
    }

    /** Waits until a request is complete; its index, or -1 when none is active. */
    private static int awaitAny(Request[] requests, String call) {
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (r != null && r.op == null && r.preset != null) {
                return i;
            }
        }
        Rank rank = rankOf(requests);
        if (rank == null) {
            return -1;
        }
        rank.checkCaller(call);
        return PointToPoint.awaitAny(rank, ops(requests), call);
    }

    private static Status[] collectComplete(Request[] requests) {
        int n = 0;
        Status[] tmp = new Status[requests.length];
        RuntimeException error = null;
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (r != null && r.isActive() && (r.op == null || r.op.isComplete())) {
                try {
                    tmp[n++] = r.collect().withIndex(i);
                } catch (RuntimeException e) {
                    error = error == null ? e : error;
                }
            }
        }
        throwIfAny(error);
        return java.util.Arrays.copyOf(tmp, n);
    }

    /** True if every active request's operation is complete: a wait needs no progress then. */
    private static boolean allComplete(Request[] requests) {
        for (Request r : requests) {
            if (r != null && r.op != null && !r.op.isComplete()) {
                return false;
            }
        }
        return true;
    }

    private static org.mpjlite.smpdev.Request[] ops(Request[] requests) {
        org.mpjlite.smpdev.Request[] ops = new org.mpjlite.smpdev.Request[requests.length];
        for (int i = 0; i < requests.length; i++) {
            ops[i] = requests[i] == null ? null : requests[i].op;
        }
        return ops;
    }

    private static Rank rankOf(Request[] requests) {
        for (Request r : requests) {
            if (r != null && r.op != null) {
                return r.rank;
            }
        }
        return null;
    }

    private static int[] indexes(Status[] statuses) {
        if (statuses == null) {
            return null;
        }
        int[] out = new int[statuses.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = statuses[i].index;
        }
        return out;
    }
}
