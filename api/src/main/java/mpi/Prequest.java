package mpi;

import java.util.IdentityHashMap;
import java.util.Map;
import org.mpjlite.smpdev.Rank;

/**
 * A persistent request (MPI_Send_init, MPI_Recv_init...): the arguments are bound once, and each
 * {@link #Start()} begins the operation again. After completion it is inactive, not null, until
 * freed.
 */
public class Prequest extends Request {
    /** Begins the bound operation once, in the persistent request given ({@link #started}). */
    @FunctionalInterface
    interface Starter {
        void start(Prequest into, String call);
    }

    /** Longest array of {@link #Startall} whose repeats are found by comparing every pair. */
    private static final int SHORT_ARRAY = 32;

    private final Starter starter;

    Prequest(Rank rank, Starter starter) {
        super(rank, null, null);
        this.starter = starter;
    }

    @Override
    void deactivate() {
        // Persistent: stays usable for the next Start.
    }

    public void Start() {
        begin("Start");
    }

    private void begin(String call) {
        checkStartable(call, "the persistent request");
        starter.start(this, call);
    }

    /** Throws ERR_REQUEST, naming {@code call} and {@code which}, unless this request may start. */
    private void checkStartable(String call, String which) {
        if (Is_null()) {
            throw new MPIException(MPI.ERR_REQUEST, call + ": " + which + " has been freed");
        }
        if (isActive()) {
            throw new MPIException(MPI.ERR_REQUEST, call + ": " + which + " is already active"
                + " (wait for it before starting it again)");
        }
    }

    /**
     * The bound operation has begun again as {@code op} (null for a {@code PROC_NULL} peer, with its
     * {@code preset} status), errors going through {@code comm}'s handler; the call that started it
     * attaches its audit and completion work afterwards. No request is made per start.
     */
    void started(org.mpjlite.smpdev.Request op, Status preset, Comm comm) {
        this.op = op;
        this.preset = preset;
        this.comm = comm;
        audit = null;
        onCompletion = null;
    }

    public static void Startall(Prequest[] requests) {
        beginAll("Startall", requests);
    }

    /**
     * Starts every request of the array (null elements are skipped), once all of them have been
     * checked: a call that fails, for a request freed, active or given twice, starts none.
     */
    private static void beginAll(String call, Prequest[] requests) {
        if (requests == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": the array of requests is null");
        }
        // Repeats found by comparing pairs in a short array (no allocation in a program's loop), by
        // an identity map in a long one.
        Map<Prequest, Integer> seen = requests.length > SHORT_ARRAY ? new IdentityHashMap<>() : null;
        for (int i = 0; i < requests.length; i++) {
            Prequest r = requests[i];
            if (r == null) {
                continue;
            }
            r.checkStartable(call, "request " + i);
            int first = earlierIndex(requests, i, seen);
            if (first >= 0) {
                throw new MPIException(MPI.ERR_REQUEST, call + ": request " + i + " is request " + first
                    + " again (a request is started once until it completes)");
            }
        }
        for (Prequest r : requests) {
            if (r != null) {
                r.starter.start(r, call);
            }
        }
    }

    /**
     * The first index before {@code i} at which {@code requests} holds {@code requests[i]}, -1 if
     * none: looked up in {@code seen}, which records {@code i}, for a long array; by comparing the
     * earlier elements for a short one ({@code seen} null).
     */
    private static int earlierIndex(Prequest[] requests, int i, Map<Prequest, Integer> seen) {
        if (seen != null) {
            Integer j = seen.putIfAbsent(requests[i], i);
            return j == null ? -1 : j;
        }
        for (int j = 0; j < i; j++) {
            if (requests[j] == requests[i]) {
                return j;
            }
        }
        return -1;
    }

    public void start() {
        begin("start");
    }

    public static void startAll(Prequest[] requests) {
        beginAll("startAll", requests);
    }
}
