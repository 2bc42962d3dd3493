package org.mpjlite.smpdev;

import java.time.Duration;
import org.mpjlite.matching.MessageRing;

/**
 * Every threshold and tuning constant of the device, in one place, each with what it controls and
 * why it has its value. The measurements behind the values are in {@code docs/PERFORMANCE.md} and
 * {@code docs/COLLECTIVES.md}.
 *
 * <p>Defaults of {@link JobConfig} (which a job may override: {@code mpjrun --eager-threshold},
 * {@code --timeout}...) start with {@code DEFAULT_}; the others are fixed. Every value here was
 * measured for shared memory on current x86 and ARM cores: changing one changes performance, never
 * results (every path moves the same bytes in the same order).
 *
 * <p>Constants only; the wait package takes its values from here through {@link Job}, since it
 * imports nothing else of the device. The data package, which uses nothing of the runtime either,
 * keeps its two thresholds beside the code they steer: {@code Copier}'s short run (32 elements of
 * a type wider than a byte), up to which elements move between an array and a {@code ByteBuffer}
 * one by one rather than through a typed view, whose two objects would cost more than a small
 * message's copy; and its few bytes (64), up to which bytes move eight at a time rather than
 * through the buffer's bulk access.
 */
public final class Tunables {
    private Tunables() {
    }

    // ---- point-to-point -------------------------------------------------------------------------

    /**
     * Default largest message (bytes) sent eagerly, copied so that the send completes at once;
     * larger messages and every synchronous send go by rendezvous (one copy, straight from the
     * sender's buffer, once the receive is posted). 16 KB: a copy of that size costs less than the
     * sender waiting for the receiver, and it is the largest pooled buffer size class that stays in
     * the thread caches of a ping-pong.
     */
    public static final int DEFAULT_EAGER_THRESHOLD = 16 * 1024;

    /**
     * Default stack of a rank thread, 8 MiB: what a program's main thread typically gets on Linux
     * ({@code ulimit -s}), where a thread the JVM starts gets only {@code -Xss} (1 MiB), too little
     * for deep recursion such as deserializing a long linked list sent as {@code MPI.OBJECT}.
     * {@code mpjrun --stack-size} sets it per job.
     */
    public static final long DEFAULT_STACK_SIZE = 8L << 20;

    /**
     * Eager messages of at most this many bytes carry their copy in an array of their element type
     * that the message keeps and reuses when it is recycled, instead of a pooled buffer: the
     * receiver follows one reference less (no buffer, storage and byte views), and nothing is
     * allocated or freed once the message has been used for that type and size. Above all, a one-way stream of pooled messages empties the sender's thread
     * cache and fills the receiver's (8 buffers per size class), so from the ninth message of a
     * window both sides take the pool's lock: small-message rate was 3-4x lower for that. Larger
     * messages keep the pool: in a ping-pong a pooled buffer bounces between the two thread caches
     * without allocation, and a fresh 4 KB array (zeroed, then copied) measured slower
     * (docs/PERFORMANCE.md, "Point-to-point, small messages").
     */
    public static final int SMALL_COPY_BYTES = 1024;

    /**
     * Messages of at most this many bytes, those a ring's cell and its dense spill hold (224), count
     * toward opening a ring ({@link #RING_AFTER_UNCLAIMED}); a longer one opens a ring only when the
     * receiver's inbox holds messages: a ping-pong of 256 B to 1 KB went through a ring opened by
     * its replies that arrived first, and read 1.1-1.3x the time without this rule, side by side.
     * Once a ring is open, every message it can take keeps to it while the sender's last reading of
     * the receiver's progress shows it busy (a stream reads nothing the receiver writes): reading
     * the progress again for each message longer than this, to claim a receive posted meanwhile,
     * left a stream of 512 B or 1 KB at 0.84-0.88x the rate through the API, and one of 2 or 4 KB
     * took 0.99-1.06x the time per message on the device.
     */
    public static final int RING_OPENING_BYTES = MessageRing.CELL_BYTES + MessageRing.SPILL_BYTES;

    /**
     * The least size of a message's own copy array (see {@link #SMALL_COPY_BYTES}): one cache line,
     * so that a recycled message serves every small size of its type without a new array.
     */
    public static final int INLINE_ELEMENTS_BYTES = 64;

    /**
     * Messages a rank keeps for reuse (the free list of the messages its thread consumed):
     * enough for a window of small messages; beyond it a received message is left to the collector.
     */
    public static final int RECYCLED_MESSAGES = 64;

    /**
     * Small messages in a row from one rank to another that found no receive to claim before the
     * sender opens a message ring to the receiver (a stream; see {@code MessageRing}): enough that a
     * ping-pong, whose messages now and then arrive before their receive, opens none.
     */
    public static final int RING_AFTER_UNCLAIMED = 8;

    /**
     * Receive requests a rank reuses (a power of two): enough for a window of non-blocking
     * receives; a longer window makes new ones for the rest.
     */
    public static final int RECYCLED_RECEIVES = 64;

    /**
     * Copies of at least this many bytes are announced to the waiting sides
     * ({@link Request#isImminent}), so that a spinning waiter does not park in the middle of them;
     * shorter ones end well within a spin and are not worth the extra volatile write. 64 KB copies
     * take a few microseconds, the order of a park and unpark.
     */
    public static final long LONG_COPY_BYTES = 64 * 1024;

    // ---- collectives ----------------------------------------------------------------------------

    /**
     * Largest contribution (bytes) of a blocking collective that is copied into the collective's
     * slot rather than read from the user's buffer: its owner then leaves as soon as its own share
     * is done (one synchronization per collective), where a contribution read in place makes every
     * owner wait for a second round. 4 KB: the copy costs less than that second round up to about
     * this size (docs/COLLECTIVES.md).
     */
    public static final int COLLECTIVE_EAGER_BYTES = 4096;

    /**
     * Ranks that spin (a core each) pull a later blocking Bcast of more than this many bytes, up to
     * {@link #SPINNING_PULLED_BCAST_MAX_BYTES}, from the root's buffer, as ranks that park pull every
     * Bcast too large for the epoch lines: one copy, by each member, and the root waits for them
     * once. Measured 2 ranks on 2 cores (`benchmarks/interleave --test bcast --against` the build
     * without): at 2 KB pulling took 0.66x OMB's time per call but 1.29x back to back, where a root
     * that leaves at once runs ahead of its members, so up to 2 KB the message is copied into the slot.
     */
    public static final int SPINNING_PULLED_BCAST_MIN_BYTES = 2048;

    /**
     * The largest Bcast ranks that spin pull ({@link #SPINNING_PULLED_BCAST_MIN_BYTES}). Against the
     * copy into the slot or the split copy, 2 ranks: OMB's time per call 0.52x at 4 KB, 0.60x at 8 KB,
     * 0.65x at 16 KB, and the round with the Barrier after it 0.57x at 4 KB; back to back 0.94x, 0.81x
     * and 0.98x. At 32 KB 1.01x and back to back 1.27x, at 64 KB 1.18x, at 1 MB 2.97x: there the
     * split copy, both cores copying, wins.
     */
    public static final int SPINNING_PULLED_BCAST_MAX_BYTES = 16 * 1024;

    /**
     * Largest contribution (bytes) of a blocking Allreduce carried in the members' epoch lines
     * (no slot, one cache line from each member to each other): a 64-byte cache line less the
     * line's 8-byte header. Fixed by the line size, not measured.
     */
    public static final int LINE_ALLREDUCE_BYTES = 56;

    /**
     * Largest message (bytes) of a blocking Bcast carried in the epoch lines rather than the slot:
     * up to {@link #LINE_BCAST_REGION_BYTES} in the root's own lines, longer ones in the team's
     * Bcast area for the phase, which the members read once the root's line shows the phase.
     * Through the slot, the members' reads of the root's part and of its copy of the message each
     * wait for a line from the root's core: between 2 ranks, 256 B to 1 KB Bcasts (`OSUBcast`) took
     * 1.1-1.7 times as long that way. 1 KB: the area costs a team {@link #LINE_PHASES} KB of native
     * memory, and from 2 KB up the slot path was already about as fast as Open MPI's.
     */
    public static final int LINE_BCAST_BYTES = 1024;

    /**
     * Largest message (bytes) of a blocking Bcast carried in the root's own epoch lines: four cache
     * lines less the header and the word that names the root. Fixed by the lines' layout.
     */
    public static final int LINE_BCAST_REGION_BYTES = 240;

    /**
     * Phases a member's epoch lines hold (a power of two, less than {@link #COLLECTIVE_SLOTS}): the
     * root of back-to-back small Bcasts, and a member other than the root of back-to-back small
     * Reduces, may run this many less one ahead of the slowest member before it waits, as Open MPI's
     * eager messages let its root run ahead. Two would keep the root one Bcast ahead, each Bcast
     * then costing a line's round trip; eight cost a team of up to {@link #LARGE_TEAM} members 2 KB
     * of native memory per member (larger teams keep two).
     */
    public static final int LINE_PHASES = 8;

    /**
     * Collectives that may be in flight on one communicator at once (a power of two): a member may
     * run this many collectives ahead of the slowest member before it waits to enter a slot. 32
     * covers the pipelines of non-blocking collectives programs issue; each slot costs a part per
     * member.
     */
    public static final int COLLECTIVE_SLOTS = 32;

    /**
     * Teams of more members than this count arrivals in a shared counter instead of each waiter
     * reading every member's epoch word, decide once per collective whether the calls match, and
     * reduce an Allreduce once (each element by one member) instead of on every member: with
     * thousands of members, per-member scans of every member cost O(p^2) per collective. Smaller
     * teams keep the per-member words, which move no shared line between cores.
     */
    public static final int LARGE_TEAM = 64;

    /**
     * Storage units a reduction combines per block: the accumulator (and any staging array of an
     * NIO buffer) stays in the L1/L2 cache whatever the number of members.
     */
    public static final int REDUCTION_BLOCK_UNITS = 4096;

    // ---- waiting --------------------------------------------------------------------------------

    /**
     * How long a waiting rank spins before it yields, when spinning is allowed (every rank has a
     * core, or {@code --wait spin}): 50 microseconds is about 30 times a small message's round trip,
     * long enough for a reply, short enough not to burn a core while a peer computes.
     */
    public static final long SPIN_NANOS = 50_000;

    /** How many times a waiting rank yields after its spin, before it parks. */
    public static final int SPIN_YIELDS = 4;

    /**
     * How many times a waiting rank yields before it parks when the ranks outnumber the cores (and
     * it does not spin): a yield hands the core to a rank that may be the one waited for. Two
     * measured best on 2 cores with platform threads: 4 ranks' Allreduce of 8 B in half the time of
     * parking at once, 64 ranks' Barrier plus Allreduce in 0.4-0.6 of it; four yields did as well
     * for 4 ranks but slowed a ring of 64 ranks, each waking the next, by a quarter; one gained
     * less.
     */
    public static final int OVERSUBSCRIBED_YIELDS = 2;

    /**
     * How long a waiting rank on a platform thread keeps yielding, past its
     * {@link #OVERSUBSCRIBED_YIELDS}, before it parks when the ranks outnumber the cores. A rank
     * with a core to itself (the odd one of 3 ranks on 2 cores) would otherwise park at once and
     * halt its virtual CPU, and its wake-up costs 20-50 microseconds. On 2 cores with JDK 17,
     * against 2 yields alone ({@code benchmarks/interleave --against}): 3 ranks' Allreduce of 8 B
     * 2.2 against 18.2 microseconds, Bcast 1.5 against 13.4 (Open MPI C 2.2-3.5); 4 ranks'
     * Allreduce, Bcast and Barrier 0.53, 0.79 and 0.37 of the time; 64 ranks' Barrier plus
     * Allreduce 114-145 against 118-211 microseconds ({@code benchmarks/scale}). A waiter
     * whose core another rank wants gives it away at each yield, so it holds no core from a rank
     * with work. Not for virtual threads ({@link org.mpjlite.smpdev.wait.WaitStrategy#forMode}).
     */
    public static final long OVERSUBSCRIBED_YIELD_NANOS = 20_000;

    /**
     * Spin rounds between checks of the clock, the job's health and the interrupt flag: the hot
     * spin polls only the condition, so a reply is noticed within a pause or two.
     */
    public static final int SPINS_PER_CHECK = 64;

    /**
     * A virtual rank whose polls (a Test, an Iprobe) keep finding nothing yields its carrier at each
     * one, and parks for a nanosecond at every this many (see {@code Rank.pollMissed}): a yield lets
     * the ranks other ranks woke run, a park also the ones a timer or a platform thread woke (a
     * sleep ending), which the scheduler may never reach while its carriers only bounce yielding
     * pollers. A park costs tens of microseconds, a yield about one: 64 keeps a polling loop's
     * test at a few microseconds on average, and a timer-woken rank waits a few milliseconds at
     * most (a 50 ms sleep ended 2 ms late with every carrier of two loaded cores polling).
     */
    public static final int POLLS_PER_PARK = 64;

    // ---- supervision ----------------------------------------------------------------------------

    /**
     * Default time a failing job gives the other ranks to stop (twice: before and after they are
     * interrupted): a rank in a computation notices the failure at its next MPI call.
     */
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(2);

    /**
     * How long a job stopped by a signal waits for its ranks to leave (twice: before and after they
     * are interrupted): a person pressing Ctrl-C expects the prompt back within a second or two,
     * and ranks parked in MPI leave at once; ranks still computing end with the process.
     */
    public static final Duration STOP_GRACE = Duration.ofMillis(250);

    /**
     * How often the supervisor looks at a running job for a deadlock or its time limit: ten looks a
     * second find a deadlock well within the second the README promises, at no cost to the message
     * path (a timed wait on the supervising thread).
     */
    public static final long SUPERVISOR_TICK_MILLIS = 100;

    /**
     * How long the same set of blocked calls must last, after every doorbell was rung, to be a
     * deadlock: long enough for any wake-up in flight to be seen, short enough to report within
     * about a second.
     */
    public static final long DEADLOCK_CONFIRM_NANOS = 500_000_000L;
}
