package mpi;

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
        void start(Prequest into);
    }

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
        if (Is_null()) {
            throw new MPIException(MPI.ERR_REQUEST, "Start: the persistent request has been freed");
        }
        if (isActive()) {
            throw new MPIException(MPI.ERR_REQUEST, "Start: the persistent request is already active"
                + " (wait for it before starting it again)");
        }
        starter.start(this);
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
        for (Prequest r : requests) {
            if (r != null) {
                r.Start();
            }
        }
    }

    public void start() {
        Start();
    }

    public static void startAll(Prequest[] requests) {
        Startall(requests);
    }
}
