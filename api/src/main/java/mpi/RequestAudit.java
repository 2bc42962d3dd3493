package mpi;

import java.util.Arrays;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.data.Copier;
import org.mpjlite.smpdev.data.Packing;
import org.mpjlite.smpdev.diag.CallSite;
import org.mpjlite.smpdev.diag.OpenRequests;

/**
 * What {@code --check} keeps about one non-blocking call until the program completes its request:
 * the call with its arguments and the user's line (for the list of requests never completed at
 * Finalize), and for a send a checksum of the send buffer taken at the call, compared again when
 * the request completes: MPI forbids writing a buffer while its non-blocking send is pending, a
 * bug that a buffered (eager) send hides here and that corrupts data under other MPIs.
 *
 * <p>Confined to the request's user (MPI: one thread uses a request at a time).
 */
final class RequestAudit implements OpenRequests.Entry {
    private final String call;
    private final StackTraceElement site;
    private final org.mpjlite.smpdev.Request op;
    /** The send buffer and its checksum; null buffer for receives and collectives. */
    private final Object buffer;
    private final int offset;
    private final int count;
    private final Datatype type;
    private final int checksum;

    private RequestAudit(String call, org.mpjlite.smpdev.Request op, Object buffer, int offset, int count,
                         Datatype type) {
        this.call = call;
        this.site = CallSite.here();
        this.op = op;
        this.buffer = buffer;
        this.offset = offset;
        this.count = count;
        this.type = type;
        this.checksum = buffer == null ? 0 : checksum(buffer, offset, count, type);
    }

    /** Opens the audit of a non-blocking send under {@code --check}; does nothing otherwise. */
    static void send(Request request, String call, Comm comm, int dest, int tag, Object buffer, int offset, int count,
                     Datatype type) {
        OpenRequests open = request.rank.openRequests();
        if (open != null) {
            String shown = call + "(dest=" + dest + ", tag=" + tag + ", comm=" + comm + ", count=" + count + ", " + type
                + ")";
            open(open, request, new RequestAudit(shown, request.op, buffer, offset, count, type));
        }
    }

    /** Opens the audit of a non-blocking receive under {@code --check}; does nothing otherwise. */
    static void receive(Request request, String call, Comm comm, int source, int tag, int count, Datatype type) {
        OpenRequests open = request.rank.openRequests();
        if (open != null) {
            String shown = call + "(source=" + (source == MPI.ANY_SOURCE ? "MPI.ANY_SOURCE" : source)
                + ", tag=" + (tag == MPI.ANY_TAG ? "MPI.ANY_TAG" : tag) + ", comm=" + comm + ", count=" + count + ", "
                + type + ")";
            open(open, request, new RequestAudit(shown, request.op, null, 0, 0, null));
        }
    }

    /** Opens the audit of a non-blocking collective under {@code --check}; does nothing otherwise. */
    static void collective(Request request, String call, Object arguments) {
        OpenRequests open = request.rank.openRequests();
        if (open != null) {
            open(open, request, new RequestAudit(call + "(" + arguments + ")", request.op, null, 0, 0, null));
        }
    }

    private static void open(OpenRequests open, Request request, RequestAudit audit) {
        request.audit = audit;
        open.add(audit);
    }

    /** The request completed through a wait or test (or was freed): it is no longer open. */
    void close(Rank rank) {
        rank.openRequests().remove(this);
    }

    /** Throws MPI_ERR_BUFFER if the send buffer changed since the call. */
    void verifyBuffer() {
        if (buffer != null && checksum(buffer, offset, count, type) != checksum) {
            throw new MPIException(MPI.ERR_BUFFER, describe() + ": the send buffer (" + count + " " + type
                + " elements of a " + buffer.getClass().getSimpleName() + " from index " + offset
                + ") changed while the send was pending; MPI forbids writing it until the request completes"
                + " (Wait or Test)");
        }
    }

    @Override
    public boolean isPending() {
        return op != null && !op.isComplete();
    }

    @Override
    public String describe() {
        return call + CallSite.at(site);
    }

    /**
     * A hash of the data the send takes, through a private copy (so arrays and NIO buffers of any
     * type hash alike): the elements of a contiguous type, the packed bytes of a derived one. Objects
     * are not hashed: they are serialized when the send is called, so a later change cannot reach
     * the receiver.
     */
    private static int checksum(Object buffer, int offset, int count, Datatype type) {
        if (type.map.isObjects()) {
            return 0;
        }
        Object copy;
        if (type.direct()) {
            int elements = count * type.units();
            copy = type.basic.newArray(elements);
            Copier.copy(buffer, offset, copy, 0, elements, type.basic);
        } else {
            copy = Packing.packedCopy(buffer, (long) offset * type.unit(), count, type.map);
        }
        if (copy instanceof byte[] b) {
            return Arrays.hashCode(b);
        } else if (copy instanceof char[] c) {
            return Arrays.hashCode(c);
        } else if (copy instanceof short[] s) {
            return Arrays.hashCode(s);
        } else if (copy instanceof boolean[] z) {
            return Arrays.hashCode(z);
        } else if (copy instanceof int[] i) {
            return Arrays.hashCode(i);
        } else if (copy instanceof long[] l) {
            return Arrays.hashCode(l);
        } else if (copy instanceof float[] f) {
            return Arrays.hashCode(f);
        }
        return Arrays.hashCode((double[]) copy);
    }
}
