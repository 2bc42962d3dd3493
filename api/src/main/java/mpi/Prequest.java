package mpi;

import org.mpjlite.smpdev.Rank;

/**
 * A persistent request (MPI_Send_init, MPI_Recv_init...): the arguments are bound once, and each
 * {@link #Start()} begins the operation again. After completion it is inactive, not null, until
 * freed.
 */
public class Prequest extends Request {
    /** Begins the bound operation once; returns the request it started (op or preset status). */
    @FunctionalInterface
    interface Starter {
        Request start();
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
        Request started = starter.start();
        op = started.op;
        preset = started.preset;
        comm = started.comm;
        audit = started.audit;
        onCompletion = started.onCompletion;
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
