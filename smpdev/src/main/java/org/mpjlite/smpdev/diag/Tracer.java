package org.mpjlite.smpdev.diag;

import java.util.ArrayList;
import java.util.List;
import org.mpjlite.smpdev.Rank;

/**
 * What one rank's MPI calls did, for {@code mpjrun --trace} and {@code --stats}: a ring buffer of
 * timeline events (one slice per call, with the flows of the messages it sent and received) and
 * counters (time in MPI, messages and bytes sent to each rank, collective calls and their bytes).
 * A rank has one when tracing or statistics are on and none otherwise, so the API's hook is one
 * null check per call.
 *
 * <p>A slice is recorded when its call returns, with the time it started; the call's slice covers
 * the time the call was blocked (there is no separate "wait" slice). A message's flow starts in
 * the slice of the call that sent it ({@link #newFlow}, carried in the message) and finishes in the
 * slice of the call on the receiving rank that completed the receive ({@link #received}: a
 * {@code Recv}, or the {@code Wait} or {@code Test} of an {@code Irecv}), whichever thread moved
 * the data.
 *
 * <p>The ring keeps the last {@code limit} events of the rank; older ones are overwritten and
 * counted as dropped. It grows as events come, so memory follows use: about a hundred bytes per
 * event.
 *
 * <p>Thread safety: any thread of the rank (at {@code THREAD_MULTIPLE}, several at once) records
 * under this object's lock; each thread has its own track ({@code tid}), and flows received but not
 * yet bound to a slice wait in that thread's track, confined to it. Readers take a snapshot under
 * the lock after the rank's threads have stopped.
 */
public final class Tracer {
    /** Default of {@code --trace-limit}: events kept per rank. */
    public static final int DEFAULT_LIMIT = 1_000_000;
    /** Tracks of a rank: the main thread's is {@code rank * TRACKS}, others follow it. */
    public static final int TRACKS = 1000;

    private final Rank owner;
    private final int rank;
    private final long origin;
    private final int limit;
    /** False for statistics only: no events are kept. */
    private final boolean events;
    private final ThreadLocal<Track> track = new ThreadLocal<>();

    // Guarded by this.
    private Event[] ring = new Event[16];
    private int size;
    private int head;
    private long dropped;
    private int nextTrack;
    private long nextFlow;
    private final List<Track> tracks = new ArrayList<>();
    private final long[] messagesTo;
    private final long[] bytesTo;
    private long collectives;
    private long collectiveBytes;
    private long mpiNanos;
    private long finishedAt;

    /**
     * @param owner  the rank traced (its main thread's track is named after the rank alone)
     * @param ranks  ranks in the job (the size of the message matrix)
     * @param origin the job's time zero, {@link System#nanoTime()}
     * @param limit  events kept; 0 keeps none (statistics only)
     */
    public Tracer(Rank owner, int ranks, long origin, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("trace limit must be >= 0, was " + limit);
        }
        this.owner = owner;
        this.rank = owner.id();
        this.origin = origin;
        this.limit = limit;
        this.events = limit > 0;
        this.messagesTo = new long[ranks];
        this.bytesTo = new long[ranks];
    }

    /** Now, for the start of a call. */
    public long now() {
        return System.nanoTime();
    }

    /**
     * The calling thread sends a message of {@code bytes} to world rank {@code dest}: counts it and
     * returns the message's flow id, unique in the job (the rank is in its high bits), or 0 when no
     * events are kept. The flow starts in the next slice this thread records, the sending call.
     */
    public long sending(int dest, long bytes) {
        long flow;
        synchronized (this) {
            messagesTo[dest]++;
            bytesTo[dest] += bytes;
            if (!events) {
                return 0;
            }
            flow = ((long) (rank + 1) << 32) | ++nextFlow;
        }
        track().out.add(flow);
        return flow;
    }

    /**
     * The calling thread completed a receive whose message carried {@code flow} (0: none): the flow
     * finishes in the next slice this thread records, the call that completed it.
     */
    public void received(long flow) {
        if (flow != 0 && events) {
            track().pending.add(flow);
        }
    }

    /**
     * Records a call that started at {@code start} and returns now: a point-to-point call or a
     * wait ({@code collective} false) or a collective (counted with its bytes).
     *
     * @param peer  the peer's rank in {@code comm} (a collective's root), or -1
     * @param tag   the tag, or {@link Integer#MIN_VALUE} for none
     * @param count elements, or -1 for none
     * @param bytes bytes of the call's data, or -1 for none
     */
    public void call(String name, long start, boolean collective, String comm, int peer, int tag, int count,
                     String datatype, long bytes) {
        long end = Math.max(System.nanoTime(), start + 2);
        Track t = events ? track() : null;
        long[] in = t == null ? null : t.drain(t.pending);
        long[] out = t == null ? null : t.drain(t.out);
        synchronized (this) {
            mpiNanos += end - start;
            if (collective) {
                collectives++;
                collectiveBytes += Math.max(bytes, 0);
            }
            if (t != null) {
                add(new Event(name, start - origin, end - start, t.tid, collective, comm, peer, tag, count, datatype,
                    bytes, out, in, null));
            }
        }
    }

    /**
     * Counts the time of a call that started at {@code start} in the time in MPI, without a slice:
     * a test that completed nothing, or a non-blocking probe that found nothing (a polling loop
     * would fill the ring with them).
     */
    public synchronized void untraced(long start) {
        mpiNanos += System.nanoTime() - start;
    }

    /** Records a job-wide instant (a failure or deadlock report) at {@code time} on this rank's main track. */
    public synchronized void instant(String name, long time, String text) {
        if (events) {
            add(new Event(name, time - origin, 0, rank * TRACKS, false, null, -1, Integer.MIN_VALUE, -1, null, -1, null,
                null, text));
        }
    }

    /** The rank's main thread returned: the end of its time. */
    public synchronized void finished() {
        finishedAt = System.nanoTime();
    }

    private void add(Event e) {
        if (size < ring.length) {
            ring[(head + size++) % ring.length] = e;
        } else if (ring.length < limit) {
            Event[] grown = new Event[(int) Math.min(limit, 2L * ring.length)];
            for (int i = 0; i < size; i++) {
                grown[i] = ring[(head + i) % ring.length];
            }
            ring = grown;
            head = 0;
            ring[size++] = e;
        } else {
            ring[head] = e;
            head = (head + 1) % ring.length;
            dropped++;
        }
    }

    private Track track() {
        Track t = track.get();
        if (t == null) {
            Thread me = Thread.currentThread();
            Thread mainThread = owner.mainThread();
            synchronized (this) {
                int tid = rank * TRACKS + (me == mainThread ? 0 : Math.min(++nextTrack, TRACKS - 1));
                t = new Track(tid, me == mainThread ? "rank " + rank : "rank " + rank + " / " + me.getName());
                tracks.add(t);
            }
            track.set(t);
        }
        return t;
    }

    // ---- read after the job ----------------------------------------------------------------

    public int rank() {
        return rank;
    }

    /** The events kept, oldest first. */
    public synchronized List<Event> events() {
        List<Event> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(ring[(head + i) % ring.length]);
        }
        return out;
    }

    /** The tracks the rank's threads recorded on: tid and name. */
    public synchronized List<Track> tracks() {
        return List.copyOf(tracks);
    }

    /** Events overwritten because the ring was full. */
    public synchronized long dropped() {
        return dropped;
    }

    /** Messages sent to each world rank. */
    public synchronized long[] messagesTo() {
        return messagesTo.clone();
    }

    /** Bytes sent to each world rank. */
    public synchronized long[] bytesTo() {
        return bytesTo.clone();
    }

    public synchronized long collectives() {
        return collectives;
    }

    public synchronized long collectiveBytes() {
        return collectiveBytes;
    }

    /** Time in the MPI calls recorded (at {@code THREAD_MULTIPLE}, summed over the rank's threads). */
    public synchronized long mpiNanos() {
        return mpiNanos;
    }

    /** From the job's start to the end of the rank's main thread (or now, if it has not ended). */
    public synchronized long wallNanos() {
        return (finishedAt == 0 ? System.nanoTime() : finishedAt) - origin;
    }

    /** A thread's track. Its pending flows are confined to the thread; tid and name are immutable. */
    public static final class Track {
        public final int tid;
        public final String name;
        /** Flows this thread received, and sent, since its last slice. */
        final List<Long> pending = new ArrayList<>();
        final List<Long> out = new ArrayList<>();

        Track(int tid, String name) {
            this.tid = tid;
            this.name = name;
        }

        /** The flows in {@code list}, which is emptied; null if there are none. */
        long[] drain(List<Long> list) {
            if (list.isEmpty()) {
                return null;
            }
            long[] flows = list.stream().mapToLong(Long::longValue).toArray();
            list.clear();
            return flows;
        }
    }

    /**
     * One event: a call's slice ({@code text} null) or an instant ({@code text} the report). Times in
     * nanoseconds from the job's start. Immutable (the arrays are not shared).
     */
    public record Event(String name, long ts, long dur, int tid, boolean collective, String comm, int peer, int tag,
                        int count, String datatype, long bytes, long[] flowsOut, long[] flowsIn, String text) {
    }
}
