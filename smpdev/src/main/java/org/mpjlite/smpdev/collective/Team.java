package org.mpjlite.smpdev.collective;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Membership;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.diag.Awaited;
import org.mpjlite.smpdev.diag.CallSite;
import org.mpjlite.smpdev.error.ErrorClass;
import org.mpjlite.smpdev.error.Errors;
import org.mpjlite.smpdev.wait.Condition;
import org.mpjlite.smpdev.wait.WaitStrategy;

/**
 * The members of one communicator and the collective state they share: a ring of {@link Slot}s and
 * a few words per member, each on its own cache line and written only by its member. One instance
 * per communicator per job, found through {@link Job#shared}; a member is known by its index in the
 * member list, so the engine works for any communicator, not only the world. An intercommunicator's
 * team ({@link #inter}) lists both groups, one after the other; its members compare their calls as
 * any team's, except that a member of a rooted call's root group other than the root names no root
 * ({@link Part#ROOT_GROUP}) and agrees with any root of its own group that is not itself.
 *
 * <p>The protocol of one collective, for the members of a team:
 * <ol>
 *   <li>enter: take the next collective number and its slot; wait (rarely) until every member has
 *       left the slot's previous collective, {@link #SLOTS} collectives ago;</li>
 *   <li>blocking: publish a {@link Part}, bump the member's epoch word and wait until every member's
 *       epoch is as high; compare the parts (same operation, root, type signature, reduction
 *       operation: a few compares); run the member's {@link Kernel}; if others read the member's
 *       own buffers (they are free at once when its contribution was copied into the slot), do a
 *       second epoch round; then store the member's "left" word. No shared word is written, so a
 *       collective moves only the members' own lines between cores;</li>
 *   <li>non-blocking: publish the part and the request, count the arrival in the slot, bump the
 *       epoch word and return; the last member to arrive compares the parts, runs every member's
 *       kernel and completes every request, so the operation progresses while the others compute,
 *       outside any MPI call.</li>
 *   <li>a blocking Allreduce small enough for a line ({@link EpochLines#fits}) publishes its data
 *       in the member's epoch line instead and reads only the others' lines
 *       ({@link #allreduceInLines}); a blocking Bcast small enough for a line
 *       ({@link EpochLines#fitsBcast}) carries the message in the root's line
 *       ({@link #bcastInLines}); a blocking Reduce small enough for a line
 *       ({@link EpochLines#fitsReduce}) carries each member's contribution in its line
 *       ({@link #reduceInLines}); every other arrival marks the member's line with its epoch. After
 *       a member's first Bcast on the team, it leaves the next blocking ones of up to
 *       {@link Tunables#COLLECTIVE_EAGER_BYTES} as soon as it has the root's message, the root at
 *       once, and compares everyone's call later ({@link #bcastEarly},
 *       {@link #bcastEarlyFromSlot}, {@link #settleThrough}); when ranks park, every Bcast too
 *       large for a line leaves that way but for the root, which waits until every member has
 *       copied the message from its buffer ({@link #bcastPulled}); after its first Reduce, a member
 *       other than the root leaves the next small ones as soon as it has given its contribution
 *       ({@link #reduceEarly}). Such a member runs up to {@link Tunables#LINE_PHASES} less one
 *       collectives ahead of the slowest.</li>
 * </ol>
 * Parts that do not match (a program error: rank 0 in Bcast while rank 1 is in Barrier) fail the
 * collective on every member before any data moves (except the members that have left an early
 * Bcast, which find it when they settle it, or not at all if the job has failed by then), with an
 * error naming both calls, their arguments, ranks and the user's lines. Blocking members find it
 * together after their first phase; the members the report names then take their own line (a stack walk, only then) and wait
 * for each other's. A non-blocking member's epoch bump lets blocking members of the same collective
 * see its part, so a blocking call against a non-blocking one is reported too (and its request
 * failed) instead of waiting forever.
 * Waits go through the job's {@link WaitStrategy}, on the waiting member's rank: spin only while the ranks fit
 * on the cores, then park until a member that sees the phase complete rings the doorbells. With
 * ranks that park, the member that completes a Barrier and expects a Bcast from another root next
 * (the call that followed its previous Barrier) hands its core to the ranks it woke
 * ({@link #yieldToAwaitedRoot}) rather than run ahead into a wait for a root without a core.
 *
 * <p>Thread safety: members call concurrently; each member's collectives are issued one at a time,
 * in the same order on every member (MPI's rule). A member may run up to {@code SLOTS} collectives
 * ahead of the slowest member before entering waits. Memory ordering: a member's part is written
 * before its volatile epoch store (or the slot's atomic arrival count), and read after volatile loads
 * that see it; results of a non-blocking collective are published by the request's volatile
 * completion.
 */
public final class Team {
    private static final int SLOTS = Tunables.COLLECTIVE_SLOTS;
    /** Longs per member in {@link #state}: 128 bytes, so that members' words sit on their own lines. */
    private static final int PAD = 16;
    /** Offsets in a member's block of {@link #state}. */
    private static final int ENTERED = 0;
    private static final int EPOCH = 1;
    private static final int LEFT = 2;
    private static final int KNOWN_LEFT = 3;
    private static final int KNOWN_EPOCH = 4;
    private static final int UNSETTLED_EPOCH = 5;
    private static final int UNSETTLED_OP = 6;
    private static final int FLAGS = 7;
    private static final int UNSETTLED_COUNT = 8;
    private static final int LAST_BARRIER = 9;
    private static final int FOLLOWER = 10;
    private static final int FOLLOWER_ROOT = 11;
    private static final int AWAITED_ROOT = 12;
    /** {@link #FLAGS}: the member has finished a Bcast that waited for every member. */
    private static final long CHECKED_BCAST = 1;
    /** {@link #FLAGS}: the member has finished a Reduce that waited for every member. */
    private static final long CHECKED_REDUCE = 2;
    private static final VarHandle STATE = MethodHandles.arrayElementVarHandle(long[].class);
    /** Epoch indexes of {@link #arrivals}: more than the {@code 2 * SLOTS + 2} a member may be ahead. */
    private static final int ARRIVAL_RING = 4 * SLOTS;
    /**
     * How many times, at most, the member that completes a Barrier yields to the root it expects
     * next ({@link #yieldToAwaitedRoot}): 4 ranks on 2 cores, OMB's 8 B Bcast after the Barrier
     * took 0.83-0.87x the time with 3 as with 1, the round with the Barrier 0.99x.
     */
    private static final int ROOT_YIELDS = 3;
    /** Runs of ranks a deadlock report lists for a member's wait ({@link Phase#describe}). */
    private static final int LISTED = 8;

    private final Membership members;
    /**
     * Members {@code [0, split)} are one group of an intercommunicator, {@code [split, size)} the
     * other; {@code split == size} for an intracommunicator's team (one group).
     */
    private final int split;
    /** The job's wait strategy: every wait of a member goes through it, on the member's rank. */
    private final WaitStrategy waits;
    private final Slot[] slots;
    /** {@code --check}: non-blocking members record their line at the call, for mismatch reports. */
    private final boolean check;
    /**
     * Each member's words, on its own cache line, written only by that member: ENTERED, the
     * collectives it has entered (plain, private); EPOCH, the phases of blocking collectives it has
     * arrived at (volatile stores; others load it volatile, the member itself plain); LEFT, the
     * collectives it has left (volatile); KNOWN_LEFT, the least LEFT of all members it has seen
     * (plain, private, saves re-reading the others); KNOWN_EPOCH, the least EPOCH of all members it
     * has seen (plain, private); UNSETTLED_COUNT, how many small Bcasts and Reduces the member left
     * before every member had arrived, and UNSETTLED_EPOCH and UNSETTLED_OP, the phase and the
     * collective number of the first of them, unused when the count is 0 ({@link #settleThrough};
     * plain, private); FLAGS (plain, private); with ranks that park, LAST_BARRIER, the collective
     * number after the member's last blocking Barrier, FOLLOWER and FOLLOWER_ROOT, the number and
     * root (plus one) of the last blocking Bcast that came right after a Barrier, and AWAITED_ROOT,
     * the root (plus one, 0 for none) predicted at its current Barrier ({@link #barrierEntered};
     * plain, private). After the members' blocks, one more holds the completion word: the
     * last phase a member saw complete, with ranks that park (volatile). A block of padding before
     * the members' and one after the completion word's keep the array's header (read by every
     * access) and the neighbouring objects off the written lines. Accessed only through the
     * {@code lp/sp/lv/sv} accessors below ({@link #at}).
     */
    private final long[] state;
    /** Small reductions carried in the members' lines, beside their epochs. */
    private final EpochLines lines;
    /** Each member's {@link Phase}, made at its first wait; only the member's thread sets it. */
    private final Phase[] phases;
    /** Members waiting to enter a busy slot: departures wake them (rare; read on every departure). */
    private final AtomicInteger entering = new AtomicInteger();
    /**
     * Members waiting until every member has arrived at a phase that no member completes for them:
     * one that members of a small Bcast arrive at and leave without waiting ({@link #bcastEarly}).
     * Such arrivals read it and, when it is not 0 and the phase is complete, ring every doorbell
     * (rare; read on every such arrival, written only around those waits).
     */
    private final AtomicInteger awaitingAll = new AtomicInteger();
    /**
     * Set once a member has left a small Bcast before every member arrived: a member of another
     * collective that waits, with ranks that park, for the completion word of that phase (which
     * nobody stores) then also accepts every member's arrival ({@link Phase#isMet}). Plain: written
     * before the member's volatile arrival; a waiter that misses it is rung again by the deadlock
     * detector, and then sees it.
     */
    private boolean leftEarly;
    /**
     * Teams above {@link Tunables#LARGE_TEAM} members only: arrivals at the phases of epoch
     * {@code e}, at index {@code (e - 1) % ARRIVAL_RING}, cumulative over the epochs that share the
     * index; every member's epoch word is still stored (reports and the small-team paths read it).
     * A member is never {@code ARRIVAL_RING} epochs ahead of the slowest one (it waits at a slot's
     * reuse, {@code SLOTS} collectives of at most two phases each), so the epochs sharing an index
     * never overlap. Null for smaller teams.
     */
    private final AtomicLongArray arrivals;
    /**
     * True when the job's waiters never spin, they park (more ranks than cores): a phase's completion is
     * then published in the completion word (the block after the members' in {@link #state}), a
     * small Allreduce is reduced once, and members are woken down a tree ({@link #wakeFrom}).
     */
    private final boolean parks;
    /**
     * Per member, its {@link #settle} as registered at its rank's Finalize
     * ({@link #settleAtFinalize}), or null; taken back when its communicator is freed ({@link #free}).
     * Written by the member only (its collectives and its Free, which MPI orders).
     */
    private final Consumer<String>[] settlesAtFinalize;

    @SuppressWarnings("unchecked")
    private Team(Membership members, int split) {
        this.members = members;
        this.split = split;
        this.slots = new Slot[SLOTS];
        for (int i = 0; i < SLOTS; i++) {
            slots[i] = new Slot(members.size());
        }
        this.state = new long[(members.size() + 3) * PAD];
        this.lines = new EpochLines(members.size(), isLarge() ? 2 : Tunables.LINE_PHASES);
        this.phases = new Phase[members.size()];
        this.check = members.rank(0).job().config().check();
        this.waits = members.rank(0).job().waitStrategy();
        this.arrivals = isLarge() ? new AtomicLongArray(ARRIVAL_RING) : null;
        this.parks = waits.neverSpins();
        this.settlesAtFinalize = new Consumer[isLarge() ? 0 : members.size()];
    }

    /** True for a team of more than {@link Tunables#LARGE_TEAM} members (see {@link #arrivals}). */
    boolean isLarge() {
        return members.size() > Tunables.LARGE_TEAM;
    }

    /**
     * True when a blocking Barrier takes the lines ({@link #barrierInLines}): in a team that is not
     * large, of ranks that spin. With ranks that park, a Barrier's time is its wake-ups, which the
     * lines do not shorten (4 ranks on 2 cores: 0.98 of the slot's round), and the members that
     * leave it first, the last to arrive, then reach the next collective sooner and wait there for
     * the members still waking (a small Bcast after it took 1.3-1.6 times as long).
     */
    boolean barriersInLines() {
        return !parks && !isLarge();
    }

    private record Key(int context, int leader) {
    }

    /** An intercommunicator's team, known by the collective context of its first group. */
    private record InterKey(int context) {
    }

    /**
     * The team of a communicator: its collective context and its members (all ranks of a job must
     * pass the same). Created once per job, on first use.
     */
    public static Team of(Job job, int context, Membership members) {
        return job.shared(new Key(context, members.worldRank(0)), k -> new Team(members, members.size()));
    }

    /**
     * One member's release of the team {@link #of} makes for {@code context} and {@code members}
     * (its communicator was freed): the last member's release drops it from the job.
     */
    public static void release(Job job, int context, Membership members) {
        job.release(new Key(context, members.worldRank(0)), members.size());
    }

    /**
     * One member's release of the team {@link #inter} makes for {@code context} (the first group's
     * collective context), of {@code size} members in both groups.
     */
    public static void releaseInter(Job job, int context, int size) {
        job.release(new InterKey(context), size);
    }

    /** The team of every rank of {@code me}'s job (a world communicator). */
    public static Team world(Rank me, int context) {
        Job job = me.job();
        return job.shared(new Key(context, 0), k -> new Team(job.world(), job.world().size()));
    }

    /** The team of {@code me} alone (a self communicator). */
    public static Team self(Rank me, int context) {
        // Looked up before: the job's shared table cannot be updated from inside its own update.
        Membership members = Membership.self(me);
        return me.job().shared(new Key(context, me.id()), k -> new Team(members, 1));
    }

    /**
     * The team of an intercommunicator: the members of both groups, {@code first} then {@code second},
     * so that every member sees the same order (the group whose leader has the lower world rank
     * first, say). {@code context} is the first group's collective context, known to both groups.
     * Its collectives move data from one group to the other ({@link InterCollectives}). Created once
     * per job, on first use.
     */
    public static Team inter(Job job, int context, Membership first, Membership second) {
        return job.shared(new InterKey(context), k -> new Team(Membership.union(first, second), first.size()));
    }

    public int size() {
        return members.size();
    }

    /** True for an intercommunicator's team: two groups, data moving from one to the other. */
    public boolean isInter() {
        return split < members.size();
    }

    /** The member index of rank {@code rank} of the group that is remote to member {@code me}. */
    public int remoteMember(int me, int rank) {
        return me < split ? split + rank : rank;
    }

    /** 0 for the first group's members, 1 for the second's. */
    int group(int m) {
        return m < split ? 0 : 1;
    }

    /** Member {@code m}'s rank in its own group. */
    int local(int m) {
        return m < split ? m : m - split;
    }

    /** The first member of the group remote to member {@code m}. */
    int remoteFrom(int m) {
        return m < split ? split : 0;
    }

    /** One past the last member of the group remote to member {@code m}. */
    int remoteTo(int m) {
        return m < split ? members.size() : split;
    }

    /** True when {@code rank} is this team's member number {@code index} (a cached team still applies). */
    public boolean hasMember(int index, Rank rank) {
        return index < members.size() && members.rank(index) == rank;
    }

    /** The slot of collective number {@code op}: collectives take the slots in turn. */
    private Slot slotOf(long op) {
        return slots[(int) (op & (SLOTS - 1))];
    }

    /** The number of member {@code m}'s current collective, the last it entered. */
    private long current(int m) {
        return lpEntered(m) - 1;
    }

    /**
     * Enters member {@code me}'s next collective: its slot, once free (every member has left the
     * slot's previous collective, and a non-blocking one there has been finished), with the member's
     * part cleared.
     */
    Slot enter(int me, String call) {
        long op = lpEntered(me);
        spEntered(me, op + 1);
        Slot s = slotOf(op);
        long needLeft = op - SLOTS + 1;
        if (lpKnownLeft(me) < needLeft || !s.freeFor(op)) {
            if (!slotFree(s, me, op)) {
                entering.incrementAndGet();
                try {
                    await(me, () -> slotFree(s, me, op), call);
                } finally {
                    entering.decrementAndGet();
                }
            }
        }
        s.enter(me);
        return s;
    }

    /** True when every member has left the slot's previous collective and no finisher uses the slot. */
    private boolean slotFree(Slot s, int me, long op) {
        long needLeft = op - SLOTS + 1;
        long least = Long.MAX_VALUE;
        for (int m = 0; m < members.size(); m++) {
            least = Math.min(least, lvLeft(m));
        }
        spKnownLeft(me, least);
        return least >= needLeft && s.freeFor(op);
    }

    /**
     * Runs member {@code me}'s side of the collective in {@code s}, whose part it has published.
     *
     * <p>Blocking: each phase, the member bumps its own epoch word and waits until every member's is
     * as high (no shared counter is written); whoever sees a phase complete rings every doorbell.
     * Leaving is one store of the member's LEFT word: nobody resets anything.
     *
     * @param buffersFree true when no other member reads {@code me}'s own buffers (its contribution
     *                    was copied into the slot, or it has none), so it may leave after its kernel;
     *                    every member must pass the same value
     * @param request     null for a blocking call, which returns when done; else the request of a
     *                    non-blocking call, which returns at once
     */
    void run(Slot s, int me, Kernel kernel, boolean buffersFree, CollectiveRequest request, String call) {
        Part p = s.parts[me];
        p.blocking = request == null;
        if (request != null) {
            p.request = request;
            if (check) {
                p.site = CallSite.here();
            }
            boolean last = s.arrive(current(me)) == members.size();
            // After the arrival is counted: a blocking member that sees this epoch sees the count too.
            long epoch = lpEpoch(me) + 1;
            lines.mark(me, epoch);
            arriveAt(me, epoch);
            if (reached(epoch)) {
                if (parks) {
                    svCompleted(epoch);
                }
                wakeAll();
            }
            leave(me, call);
            if (last) {
                finish(s, kernel);
            }
            return;
        }
        arrive(s, me, call);
        int other = verdict(s, current(me));
        if (other >= 0) {
            throw mismatch(s, me, other, call);
        }
        RuntimeException error = null;
        try {
            kernel.run(s, me);
        } catch (RuntimeException e) {
            error = e;
        }
        if (!buffersFree) {
            arrive(s, me, call);
        }
        // Nobody reads this member's receive buffer, nor (after the second phase) its send buffer:
        // drop the references to user buffers now.
        p.recv = null;
        if (!buffersFree) {
            p.clear();
        }
        leave(me, call);
        if (error instanceof KernelError k) {
            throw Errors.error(k.errorClass, k.getMessage());
        } else if (error != null) {
            throw error;
        }
    }

    /**
     * Member {@code me}'s side of a blocking Allreduce small enough for a line
     * ({@link EpochLines#fits}; every member decides alike), in slot {@code s} whose part it has
     * signed. The member writes its contribution and the call's signature, tagged with the phase's
     * epoch, into its line of the epoch's phase, bumps its epoch word, waits until every member's
     * line shows the epoch (members in other calls mark their line with the epoch and a signature no
     * small Allreduce has), and reduces the lines' contributions itself, in rank order. So one line moves from each member to each other;
     * the parts are read only when the signatures differ, to report that as the general path does
     * (a member on the general path finds the difference in the parts, which this member signed
     * before its epoch store).
     *
     * <p>Why a line is not overwritten while read: the line of this phase's region was last written
     * at phase {@code epoch - phases} or before ({@link EpochLines#phases}), and its readers read it
     * before they arrived at their next phase. The member writes it only once every member has
     * arrived at phase {@code epoch - phases + 1} ({@link #nextLineEpoch}): known without reading
     * anything after a blocking collective (which waited for that), learnt from the epoch words or
     * waited for here after early and non-blocking ones (whose members arrive without waiting). A
     * reader sees its epoch in the line only after the data (release, then acquire).
     */
    void allreduceInLines(Slot s, int me, Object src, int srcIndex, Object dst, int dstIndex, int units,
                          BasicType type, Reduction op, String call) {
        long epoch = nextLineEpoch(s, me, call);
        long header = EpochLines.header(epoch, units, type, op.builtin());
        lines.publish(me, header, src, srcIndex, units, type);
        boolean reduced;
        if (arriveLastInLines(me, epoch)) {
            // With ranks that park, the member that completes the phase reduces for everyone.
            reduced = parks && lines.reduceOnce(me, epoch, header, units, type, op, dst, dstIndex);
            completed(s, me, epoch);
        } else {
            awaitLines(s, me, epoch, call);
            reduced = parks && lines.readOnce(header, units, type, dst, dstIndex);
        }
        passed(me, epoch);
        if (!reduced) {
            checkLines(s, me, epoch, header, -1, call);
            lines.reduce(me, epoch, units, type, op, dst, dstIndex);
        }
        leave(me, call);
    }

    /**
     * Member {@code me}'s side of a blocking Reduce small enough for a line
     * ({@link EpochLines#fitsReduce}; every member decides alike), in slot {@code s} whose part it
     * has signed: every member writes the root and its contribution into its line, tagged with the
     * phase's epoch. On a member's first Reduce on the team (and every one under {@code --check})
     * every member waits until every member's line shows the epoch and compares the lines, as for
     * an Allreduce, and the root reduces them; later ones leave early at the members other than the
     * root, as {@link #reduceEarly}: they arrive and return, and settle later. The root reads one
     * line from each member, and nothing is copied into the slot.
     *
     * <p>Why a member's line is not overwritten before the root has read it: the member writes the
     * region of this phase again {@link EpochLines#phases} phases later, once every member has
     * arrived at the phase after this one ({@link #nextLineEpoch}), which the root does after
     * reducing.
     */
    void reduceInLines(Slot s, int me, Object src, int srcIndex, Object dst, int dstIndex, int units,
                       BasicType type, Reduction op, int root, String call) {
        long epoch = nextLineEpoch(s, me, call);
        settleThrough(me, epoch - lines.phases() + 1, call);
        long header = EpochLines.reduceHeader(epoch, units, type, op.builtin());
        if (me != root && leavesReduceEarly(me)) {
            beginEarly(s, me);
            lines.publishReduce(me, header, root, src, srcIndex, units, type);
            arriveAt(me, epoch);
            ringRootIfLast(root, epoch);
            endEarly(me, epoch);
            return;
        }
        lines.publishReduce(me, header, root, src, srcIndex, units, type);
        meetInLines(s, me, epoch, header, root, call);
        if (me == root) {
            lines.reduceRooted(me, epoch, units, type, op, dst, dstIndex);
        }
        reduceWaitedForAll(me);
        leave(me, call);
    }

    /**
     * Member {@code me}'s side of a blocking Barrier ({@link #barriersInLines}), in slot {@code s}
     * whose part it has signed: as {@link #allreduceInLines} with no data, the line carrying only
     * the phase and a Barrier's signature. So a member's arrival is one line the others read, and
     * the parts are read only when some line carries another call.
     */
    void barrierInLines(Slot s, int me, String call) {
        long epoch = nextLineEpoch(s, me, call);
        long header = EpochLines.barrierHeader(epoch);
        lines.publishHeader(me, header);
        meetInLines(s, me, epoch, header, -1, call);
        leave(me, call);
    }

    /**
     * Member {@code me}'s side of a blocking Bcast small enough for a line
     * ({@link EpochLines#fitsBcast}; every member decides alike), in slot {@code s} whose part it has
     * signed. The member's first such Bcast on the team (and every one under {@code --check}) is as
     * {@link #allreduceInLines}, except that only the root's line carries data, and every line names
     * the root, which members compare with the signature: every member waits for every line, so a
     * program whose calls differ from the start is reported on every member, with every line.
     * Later ones leave early ({@link #bcastEarly}).
     */
    void bcastInLines(Slot s, int me, Object buf, int index, int units, BasicType type, int root, String call) {
        long epoch = nextLineEpoch(s, me, call);
        settleThrough(me, epoch - lines.phases() + 1, call);
        long header = EpochLines.bcastHeader(epoch, units, type);
        if (leavesBcastEarly(me)) {
            bcastEarly(s, me, buf, index, units, type, root, epoch, header, call);
            return;
        }
        lines.publishBcast(me, header, root, buf, index, units, type);
        meetInLines(s, me, epoch, header, root, call);
        if (me != root) {
            lines.readBcast(root, epoch, units, type, buf, index);
        }
        bcastWaitedForAll(me);
        leave(me, call);
    }

    /**
     * Member {@code me}'s side of a Bcast in the lines after its first Bcast on the team: the root
     * leaves as soon as its line is written, and every other member as soon as it has found the
     * root's line of this phase carrying the same call and read the message, as Open MPI's members
     * leave (so back-to-back Bcasts overlap). Nobody waits for every member, so each member compares every
     * member's call later ({@link #settleThrough}): once it runs out of lines, as it leaves its
     * next collective of another kind on the team, or at Free or Finalize. A member whose call differs from the root's
     * finds that at once and reports it; the report cannot name the lines of members that have
     * returned.
     *
     * <p>Why the root's line is not overwritten while read: the root rewrites the line of this
     * phase's region {@link EpochLines#phases} phases later, once every member has arrived at the
     * next phase ({@link #nextLineEpoch}), and each member reads the message before it arrives there.
     */
    private void bcastEarly(Slot s, int me, Object buf, int index, int units, BasicType type, int root, long epoch,
                            long header, String call) {
        beginEarly(s, me);
        lines.publishBcast(me, header, root, buf, index, units, type);
        if (arriveEarly(s, me, epoch, root, call)) {
            if (!sameAsRoot(s, me, root, epoch, header)) {
                throw differsFromRoot(s, me, epoch, call);
            }
            lines.readBcast(root, epoch, units, type, buf, index);
        }
        endEarly(me, epoch);
    }

    /**
     * Member {@code me}'s side of a blocking Bcast whose message the root copied into its part (at
     * most {@link Tunables#COLLECTIVE_EAGER_BYTES}, too large for a line), after its first Bcast on the team
     * ({@link #leavesBcastEarly}): as {@link #bcastEarly}, except that the root's arrival
     * (its line marked with the phase) says that its part is ready, members compare their part
     * with the root's, and {@code copy} copies the message from the root's part. The root's part
     * keeps the message until the root enters the slot again, once every member has left it.
     */
    void bcastEarlyFromSlot(Slot s, int me, int root, Kernel copy, String call) {
        long epoch = markEarly(s, me, call);
        Part p = s.parts[me];
        if (arriveEarly(s, me, epoch, root, call)) {
            if (mismatch(s.parts, root, me) != 0) {
                throw differsFromRoot(s, me, epoch, call);
            }
            copy.run(s, me);
        }
        p.recv = null;
        endEarly(me, epoch);
    }

    /**
     * Member {@code me}'s side of a blocking Bcast too large for a line, read in place from the
     * root's buffer ({@link #pullsBcasts}), after its first Bcast on the team
     * ({@link #leavesBcastEarly}). A member other than the root waits for the root's arrival
     * alone (its line marked with the phase), compares its part with the root's, copies the whole
     * message with {@code copy}, and only then arrives, leaving early (settled later, as
     * {@link #bcastEarly}). The root arrives, wakes the members waiting for it and waits until
     * every member has arrived, so that nobody reads its buffer once it returns; it then compares
     * every part and leaves. So a member waits for one wake-up, the root's, where the split copy
     * waits for every member's twice, and the root copies nothing, where a copy into the slot
     * costs it one.
     *
     * <p>The root's wait reads the members' epoch words ({@link Seen#EPOCHS}), which a member
     * stores after its copy, whatever the ranks' wait: its line, which other waits of ranks that
     * spin read, it marks before.
     */
    void bcastPulled(Slot s, int me, int root, Kernel copy, String call) {
        if (me == root) {
            long epoch = nextPhase(s, me, call);
            lines.mark(me, epoch);
            arriveEarly(s, me, epoch, root, call);
            RuntimeException differs = compareOnceAllArrived(s, me, epoch, Seen.EPOCHS, call);
            if (differs != null) {
                throw differs;
            }
            s.parts[me].clear();
            leave(me, call);
            return;
        }
        long epoch = markEarly(s, me, call);
        awaitRootArrival(s, me, epoch, root, call);
        boolean differs = mismatch(s.parts, root, me) != 0;
        if (!differs) {
            copy.run(s, me);
        }
        arriveWaking(me, epoch);
        if (differs) {
            throw differsFromRoot(s, me, epoch, call);
        }
        s.parts[me].recv = null;
        endEarly(me, epoch);
    }

    /**
     * True when a blocking Bcast of {@code bytes} too large for a line, after a member's first on
     * the team, is read in place by each member ({@link #bcastPulled}): always when the ranks park,
     * where a Bcast that waits for every member costs every member a wake-up by the others (4 ranks
     * on 2 cores: OMB's time per call 0.43-0.86x, and the round with the Barrier after it
     * 0.64-0.98x, that of the Bcast copied into the slot at 2-32 KB; at 64 KB 0.29x and 0.63x that of
     * the split copy); when they spin, from {@link Tunables#SPINNING_PULLED_BCAST_MIN_BYTES} to
     * {@link Tunables#SPINNING_PULLED_BCAST_MAX_BYTES}.
     */
    boolean pullsBcasts(long bytes) {
        return !isLarge() && (parks || bytes > Tunables.SPINNING_PULLED_BCAST_MIN_BYTES
            && bytes <= Tunables.SPINNING_PULLED_BCAST_MAX_BYTES);
    }

    /** True when member {@code me}'s next Bcast on the team leaves early ({@link #bcastEarly}). */
    boolean leavesBcastEarly(int me) {
        return (lpFlags(me) & CHECKED_BCAST) != 0 && !check && !isLarge();
    }

    /** Records that member {@code me} has finished a Bcast that waited for every member. */
    void bcastWaitedForAll(int me) {
        spFlags(me, lpFlags(me) | CHECKED_BCAST);
    }

    /** True when member {@code me}'s next Reduce on the team, if it is not the root, leaves early ({@link #reduceEarly}). */
    boolean leavesReduceEarly(int me) {
        return (lpFlags(me) & CHECKED_REDUCE) != 0 && !check && !isLarge();
    }

    /** Records that member {@code me} has finished a Reduce that waited for every member. */
    void reduceWaitedForAll(int me) {
        spFlags(me, lpFlags(me) | CHECKED_REDUCE);
    }

    /**
     * A member other than the root of a blocking Reduce whose contribution it copied into its part
     * (at most {@link Tunables#COLLECTIVE_EAGER_BYTES}), after its first Reduce on the team
     * ({@link #leavesReduceEarly}): it arrives and returns, as Open MPI's do, and settles later
     * ({@link #settle}). The root waits for every member as on the general path, compares every
     * part (so it reports any difference at once) and reduces the copies, which stay until the
     * member enters the slot again, once every member has left it. The member that completes the
     * phase publishes that and rings the root: nobody else of a matching Reduce waits for it.
     */
    void reduceEarly(Slot s, int me, int root, String call) {
        long epoch = markEarly(s, me, call);
        arriveAt(me, epoch);
        ringRootIfLast(root, epoch);
        endEarly(me, epoch);
    }

    /**
     * After an early arrival at phase {@code epoch} of a Reduce: if every member has arrived, the
     * phase is complete, and nobody else of a matching Reduce waits for it but the root, whom this
     * member rings (and, with ranks that park, publishes the completion for).
     */
    private void ringRootIfLast(int root, long epoch) {
        if (reached(epoch)) {
            if (parks) {
                svCompleted(epoch);
            }
            members.rank(root).doorbell().ring();
            if (awaitingAll.get() != 0) {
                wakeAll();
            }
        }
    }

    /**
     * The start of member {@code me}'s early collective on the slot's path: settles the one before
     * (waiting, at most, until every member has arrived at it), marks the part blocking and early,
     * and marks the member's line with the phase, whose epoch it returns.
     */
    private long markEarly(Slot s, int me, String call) {
        long epoch = nextPhase(s, me, call);
        beginEarly(s, me);
        lines.mark(me, epoch);
        return epoch;
    }

    /**
     * The epoch of member {@code me}'s next phase, once it has settled the early collectives that
     * used its lines' region of that phase; marks the member's part blocking.
     */
    private long nextPhase(Slot s, int me, String call) {
        long epoch = lpEpoch(me) + 1;
        settleThrough(me, epoch - lines.phases() + 1, call);
        s.parts[me].blocking = true;
        return epoch;
    }

    /** What every early collective of member {@code me} starts with. */
    private void beginEarly(Slot s, int me) {
        s.parts[me].early = true;
        if (!leftEarly) {
            leftEarly = true;
        }
        settleAtFinalize(me);
    }

    /**
     * Arrives at phase {@code epoch} of an early Bcast, whose member {@code me} has published its
     * side: the root wakes the members waiting for it and is done (false); any other member waits
     * until the root has arrived and wakes its children in the wake-up tree (true: it reads the
     * root's message next).
     */
    private boolean arriveEarly(Slot s, int me, long epoch, int root, String call) {
        arriveWaking(me, epoch);
        if (me == root) {
            ringAfterRootLine(s, root);
            return false;
        }
        awaitRootArrival(s, me, epoch, root, call);
        return true;
    }

    /**
     * Arrives at phase {@code epoch} without waiting for it: if that completes the phase, wakes
     * the members waiting for every member to arrive (settling an early collective, say).
     */
    private void arriveWaking(int me, long epoch) {
        arriveAt(me, epoch);
        if (awaitingAll.get() != 0 && reached(epoch)) {
            wakeAll();
        }
    }

    /**
     * Member {@code me} of an early Bcast waits until the root's line shows phase {@code epoch}
     * and, with ranks that park, wakes its children in the wake-up tree.
     */
    private void awaitRootArrival(Slot s, int me, long epoch, int root, String call) {
        if (EpochLines.epochOf(lines.lvHeader(root, epoch)) < epoch) {
            await(me, rootLine(me, epoch, root), call);
        }
        if (parks) {
            ringChildren(s, me);
        }
    }

    /** Member {@code me} found another call than its own at the root: the report, once every member has arrived. */
    private RuntimeException differsFromRoot(Slot s, int me, long epoch, String call) {
        RuntimeException differs = compareOnceAllArrived(s, me, epoch, arrivalsSeen(), call);
        return differs != null ? differs
            : new IllegalStateException(call + ": members took different paths for matching calls");
    }

    /**
     * Waits until every member has arrived at phase {@code epoch}, seen as {@code seen} says, and
     * compares every part: the report of the first member whose call differs, or null if every call
     * matches.
     */
    private RuntimeException compareOnceAllArrived(Slot s, int me, long epoch, Seen seen, String call) {
        awaitAll(me, epoch, null, seen, call);
        passed(me, epoch);
        int other = firstMismatch(s.parts);
        return other >= 0 ? mismatch(s, me, other, call) : null;
    }

    /**
     * Member {@code me} leaves the early collective at phase {@code epoch}, to be settled later
     * ({@link #settleThrough}): it joins the member's unsettled ones, consecutive collectives at
     * consecutive phases (any other collective settles them all as it leaves).
     */
    private void endEarly(int me, long epoch) {
        long count = lpUnsettledCount(me);
        if (count == 0) {
            spUnsettledOp(me, current(me));
            spUnsettledEpoch(me, epoch);
        }
        spUnsettledCount(me, count + 1);
    }

    /**
     * True when the root's line of phase {@code epoch} (which shows that phase or a later one) carries
     * the same call as member {@code me}'s: the same header and root, or, when the root has since
     * marked the line's header at a later phase (arriving at collectives that do not wait, while this
     * member had yet to read it; the message and root stay until every member has arrived at the
     * phase after {@code epoch}), the same part.
     */
    private boolean sameAsRoot(Slot s, int me, int root, long epoch, long header) {
        long h = lines.lvHeader(root, epoch);
        if (h == header) {
            return lines.rootOf(root, epoch) == root;
        }
        return EpochLines.epochOf(h) > epoch && mismatch(s.parts, root, me) == 0;
    }

    /**
     * The root of an early Bcast has written its line: wakes the members that wait for it. With
     * ranks that spin, all of them (a volatile read each when none parked). With ranks that park,
     * down the wake-up tree: the root rings its children and member 0, and every member rings its
     * children once it has seen the line, so no wake-up is lost (a member either sees the line when
     * it arrives, or parks before its parent rings it).
     */
    private void ringAfterRootLine(Slot s, int root) {
        if (!parks) {
            wakeAll();
            return;
        }
        if (root != 0) {
            members.rank(0).doorbell().ring();
        }
        ringChildren(s, root);
    }

    /**
     * Settles every collective member {@code me} left early ({@link #settleThrough}): as it leaves
     * a collective of another kind, at Finalize, and before its communicator is freed
     * ({@link #free}). Waits until every member has called them; throws the mismatch report if
     * their calls differ.
     */
    private void settle(int me, String call) {
        settleThrough(me, Long.MAX_VALUE, call);
    }

    /**
     * Compares the calls of the small Bcasts and Reduces member {@code me} left early at phases up
     * to {@code last}, and of any later ones every member has already reached (so that several are
     * compared at once), once every member has arrived at them (waiting for that if need be), then
     * records that the member has left them. The member's unsettled collectives are consecutive,
     * at consecutive phases: the first one's phase and collective number in UNSETTLED_EPOCH and
     * UNSETTLED_OP, how many in UNSETTLED_COUNT. Every part of them is still as its member signed
     * it: a slot is reused only once every member has left it, which this member records only
     * here. A difference throws the mismatch report.
     */
    private void settleThrough(int me, long last, String call) {
        long count = lpUnsettledCount(me);
        if (count == 0) {
            return;
        }
        long first = lpUnsettledEpoch(me);
        if (first > last) {
            return;
        }
        long needed = Math.min(first + count - 1, last);
        long firstOp = lpUnsettledOp(me);
        if (lpKnownEpoch(me) < needed) {
            Slot waitedFor = slotOf(firstOp + needed - first);
            try {
                learnReached(me, needed, needed, waitedFor.parts[me], call);
            } catch (RuntimeException | Error e) {
                spUnsettledCount(me, 0); // a wait that fails ends the comparing: the job is failing
                throw e;
            }
        }
        long settled = Math.min(count, lpKnownEpoch(me) - first + 1);
        spUnsettledEpoch(me, first + settled);
        spUnsettledOp(me, firstOp + settled);
        spUnsettledCount(me, count - settled);
        for (long op = firstOp; op < firstOp + settled; op++) {
            Slot s = slotOf(op);
            int other = firstMismatch(s.parts);
            if (other >= 0) {
                spUnsettledCount(me, 0); // the job fails: nothing left early is compared any more
                throw lateMismatch(s, me, other, call, op);
            }
        }
        storeLeft(me, firstOp + settled);
    }

    /**
     * Member {@code me}'s communicator is freed: settles what it left early ({@link #settle})
     * and takes back its settling at Finalize, which would otherwise keep the team, and every team
     * a program creates and frees, until then.
     */
    public void free(int me, String call) {
        settle(me, call);
        Consumer<String> settling = settlesAtFinalize[me];
        if (settling != null) {
            settlesAtFinalize[me] = null;
            members.rank(me).dropAtFinalize(settling);
        }
    }

    /** Registers, once per member, the member's {@link #settle} at its rank's Finalize. */
    private void settleAtFinalize(int me) {
        if (settlesAtFinalize[me] == null) {
            Consumer<String> settling = call -> settle(me, call);
            settlesAtFinalize[me] = settling;
            members.rank(me).atFinalize(settling);
        }
    }

    /**
     * Waits, unless it is known, until every member has arrived at phase {@code epoch}, a phase
     * that may complete without a ring; {@code settling}: the member's part of the early Bcast the
     * wait is for, which a deadlock report names, or null.
     *
     * <p>With ranks that spin, the waiter polls the members' lines of that phase, which each member
     * marks once, before its epoch word: the epoch word of a member this one runs ahead of is stored
     * at every call, and polling it would pull its line away before each of those stores. A member
     * arriving without a ring marks its line, stores its epoch word (volatile) and then reads
     * {@link #awaitingAll}, which the waiter raised before its first look, so either the waiter sees
     * the line or the arrival rings it.
     */
    private void awaitAll(int me, long epoch, Part settling, String call) {
        awaitAll(me, epoch, settling, arrivalsSeen(), call);
    }

    /** How a wait for every member's arrival sees them: the epoch words when ranks park or the team is large, else the lines. */
    private Seen arrivalsSeen() {
        return parks || isLarge() ? Seen.EPOCHS : Seen.LINES;
    }

    /** As {@link #awaitAll(int, long, Part, String)}, seeing the members' arrivals as {@code seen} says. */
    private void awaitAll(int me, long epoch, Part settling, Seen seen, String call) {
        Phase p = phase(me, epoch, seen);
        if (p.isMet()) {
            return;
        }
        awaitingAll.incrementAndGet();
        try {
            p.settling = settling;
            await(me, p, call);
        } finally {
            awaitingAll.decrementAndGet();
        }
    }

    /**
     * The epoch of member {@code me}'s next phase in the lines, once it may write its line of that
     * phase: every member has arrived at the phase after the one that last used the line's region,
     * {@link EpochLines#phases} phases before, so every reader of that region is done with it (known
     * without reading anything after a blocking collective, waited for after early and non-blocking
     * ones). Marks the member's part blocking.
     */
    private long nextLineEpoch(Slot s, int me, String call) {
        long epoch = lpEpoch(me) + 1;
        long free = epoch - lines.phases() + 1;
        if (lpKnownEpoch(me) < free) {
            // A member that must wait waits until the slowest is at most half the lines behind, so
            // that it then writes several lines before it looks at the others' epochs again.
            learnReached(me, free, epoch - lines.phases() / 2, null, call);
        }
        s.parts[me].blocking = true;
        return epoch;
    }

    /**
     * Raises member {@code me}'s known epoch (the latest phase every member has arrived at) to at
     * least {@code needed}: to what the members' epoch words show now if that is enough (more than
     * needed, so later calls need not look), else by waiting until every member has arrived at
     * {@code target} ({@code needed} or a later phase that member {@code me} has already called);
     * {@code settling}: the member's part of the early collective the wait is for, which a deadlock
     * report names, or null.
     */
    private void learnReached(int me, long needed, long target, Part settling, String call) {
        if (!isLarge()) {
            long least = leastEpoch();
            if (least >= needed) {
                spKnownEpoch(me, least);
                return;
            }
        }
        awaitAll(me, target, settling, call);
        spKnownEpoch(me, target);
    }

    /** The latest phase every member of a team that is not large has arrived at, as their epoch words show now. */
    private long leastEpoch() {
        long least = Long.MAX_VALUE;
        for (int m = 0; m < members.size(); m++) {
            least = Math.min(least, lvEpoch(m));
        }
        return least;
    }

    /** Arrives at {@code epoch} after writing the line; true if every member has arrived now (this one last). */
    private boolean arriveLastInLines(int me, long epoch) {
        arriveAt(me, epoch);
        return arrivedInLines(epoch);
    }

    /**
     * Member {@code me}'s meeting in the lines at phase {@code epoch}, its line written: arrives,
     * completes the phase if it is last or else waits for it, and compares every line with
     * {@code header} (and {@code root}, -1 for none), throwing the mismatch report if one differs.
     */
    private void meetInLines(Slot s, int me, long epoch, long header, int root, String call) {
        if (arriveLastInLines(me, epoch)) {
            completed(s, me, epoch);
        } else {
            awaitLines(s, me, epoch, call);
        }
        passed(me, epoch);
        checkLines(s, me, epoch, header, root, call);
    }

    /** Waits until every member's line shows {@code epoch} (or, with ranks that park, its completion). */
    private void awaitLines(Slot s, int me, long epoch, String call) {
        await(me, phase(me, epoch, parks ? Seen.COMPLETION_WORD : Seen.LINES), call);
        wakeFrom(s, me, false);
    }

    /**
     * Throws the mismatch report when some member's line of the completed phase {@code epoch}
     * carries another call than {@code header} (or, for a Bcast, names another root than
     * {@code root}; -1: no root to compare).
     */
    private void checkLines(Slot s, int me, long epoch, long header, int root, String call) {
        for (int m = 0; m < members.size(); m++) {
            long h = lines.lvHeader(m, epoch);
            if (h != header || root >= 0 && lines.rootOf(m, epoch) != root) {
                // A later epoch: m has since arrived at later non-blocking collectives, which mark
                // the line without waiting (its data stays: only this member's arrival at the next
                // phase lets m write it). Its part tells what m called here.
                int other = firstMismatch(s.parts);
                if (other >= 0) {
                    throw mismatch(s, me, other, call);
                } else if (EpochLines.epochOf(h) == epoch) {
                    throw new IllegalStateException(call + ": members took different paths for matching calls");
                }
            }
        }
    }

    /**
     * True when every member has arrived at phase {@code epoch}: its line of the epoch's phase shows
     * the epoch or a later one (every arrival marks the line, then stores the epoch word; a member's
     * lines' epochs only grow). Only lines are read, so a waiter does not pull the others' epoch
     * words away from them. Every arrival stores its line and epoch word and then (after the volatile
     * store) reads the others' lines or epoch words: the last arrival sees every other one and rings
     * the doorbells.
     */
    private boolean arrivedInLines(long epoch) {
        for (int m = 0; m < members.size(); m++) {
            if (EpochLines.epochOf(lines.lvHeader(m, epoch)) < epoch) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@link #firstMismatch} of collective {@code op} in slot {@code s}, once every member has
     * arrived (the parts no longer change): a large team compares once, and publishes the answer in
     * the slot for the other members of the same collective (several may compare at once: they find
     * the same answer).
     */
    private int verdict(Slot s, long op) {
        if (!isLarge() && !parks) {
            return firstMismatch(s.parts);
        }
        int v = s.verdict(op);
        if (v == -2) {
            v = firstMismatch(s.parts);
            s.publishVerdict(op, v);
        }
        return v;
    }

    /**
     * The member the others' calls are compared with: member 0, or on an intercommunicator the first
     * member that names the root (the members of the root's group other than the root pass no data
     * and do not know which member the root is: {@link Part#ROOT_GROUP}).
     */
    private static int pivot(Part[] parts) {
        for (int m = 0; m < parts.length; m++) {
            if (parts[m].root != Part.ROOT_GROUP) {
                return m;
            }
        }
        return 0;
    }

    /** The first member whose call differs from the {@link #pivot}'s, or -1 when all match. */
    private int firstMismatch(Part[] parts) {
        int pivot = pivot(parts);
        for (int m = 0; m < parts.length; m++) {
            if (m != pivot && mismatch(parts, pivot, m) != 0) {
                return m;
            }
        }
        return -1;
    }

    /** 0 when members {@code a} and {@code b} are in the same collective, else the MPI error class of the difference. */
    private int mismatch(Part[] parts, int a, int b) {
        return parts[a].mismatch(parts[b], rootsAgree(parts[a].root, a, parts[b].root, b));
    }

    /**
     * True when members {@code a} and {@code b} agree on the root: the same member, or on an
     * intercommunicator, where a member of the root's group other than the root passes
     * {@link Part#ROOT_GROUP}, a root of that member's group that is not the member itself.
     */
    private boolean rootsAgree(int rootA, int a, int rootB, int b) {
        if (rootA == Part.ROOT_GROUP && rootB == Part.ROOT_GROUP) {
            return group(a) == group(b);
        } else if (rootA == Part.ROOT_GROUP) {
            return rootB >= 0 && rootB != a && group(rootB) == group(a);
        } else if (rootB == Part.ROOT_GROUP) {
            return rootA >= 0 && rootA != b && group(rootA) == group(b);
        }
        return rootA == rootB;
    }

    /**
     * A blocking member's side of a collective whose calls do not match: every blocking member gets
     * here after the same phase and reports the same pair, member 0 and {@code other}. Those two
     * take their own line; everyone waits for the lines of the blocking ones of the pair that are
     * still in the call (not those that left a small Bcast early). The first blocking member fails
     * the requests of non-blocking members and frees the slot they counted in. Parts are left as
     * they are (the next use of the slot clears them): others may still read them.
     */
    private RuntimeException mismatch(Slot s, int me, int other, String call) {
        Part[] parts = s.parts;
        int pivot = pivot(parts);
        if (me == pivot || me == other) {
            parts[me].site = CallSite.here();
            wakeAll(); // members of the collective may have parked waiting for this site
        }
        RuntimeException e = failCollective(s, me, pivot, other, call, "");
        spUnsettledCount(me, 0); // the job fails: nothing left early is compared any more
        storeLeft(me, lpEntered(me));
        return e;
    }

    /**
     * {@link #mismatch}, found by member {@code me} as it settles collective {@code op} (a small
     * Bcast it left early) in its call {@code call}: it takes no line, since it has returned from the
     * Bcast, and rings every doorbell, since members of other calls in that phase may be parked
     * waiting for a completion that no early member publishes.
     */
    private RuntimeException lateMismatch(Slot s, int me, int other, String call, long op) {
        wakeAll();
        RuntimeException e = failCollective(s, me, pivot(s.parts), other, call,
            "; " + who(me, me) + " found this in " + call + ", after it had returned from " + s.parts[me].call);
        storeLeft(me, op + 1);
        return e;
    }

    /**
     * What {@link #mismatch} and {@link #lateMismatch} share: waits for the lines of the named members
     * still in the call, fails the non-blocking members' requests (the first blocking member does),
     * and returns member {@code me}'s error, its report followed by {@code note}.
     */
    private RuntimeException failCollective(Slot s, int me, int pivot, int other, String call, String note) {
        Part[] parts = s.parts;
        for (Part named : new Part[] {parts[pivot], parts[other]}) {
            if (named.blocking && !named.early) {
                await(me, () -> named.site != null, call);
            }
        }
        int errorClass = mismatch(parts, pivot, other);
        int firstBlocking = 0;
        while (!parts[firstBlocking].blocking) {
            firstBlocking++;
        }
        if (me == firstBlocking) {
            boolean counted = false;
            for (int m = 0; m < parts.length; m++) {
                if (parts[m].request != null) {
                    parts[m].request.fail(errorClass, mismatchReport(parts, m, pivot, other));
                    counted = true;
                }
            }
            if (counted) {
                s.release();
            }
        }
        return Errors.error(errorClass, mismatchReport(parts, me, pivot, other) + note);
    }

    /** What member {@code me} is told: its call, then the two calls that do not match. */
    private String mismatchReport(Part[] parts, int me, int pivot, int other) {
        boolean inter = isInter();
        return parts[me].call + " on " + who(me, me) + ": collective calls do not match: "
            + parts[pivot].describe(!inter) + " on " + who(pivot, me) + " does not match "
            + parts[other].describe(!inter) + " on " + who(other, me)
            + " (every rank of the communicator must call the same collectives in the same order, with the same"
            + (inter ? " root (MPI.ROOT at the root, MPI.PROC_NULL in its group, its rank in the other group)," : " root,")
            + " type signature and operation)" + unnamedLines(parts, me, pivot, other);
    }

    /**
     * Why a report names no line for a member of an early Bcast or Reduce ({@link #bcastEarly},
     * {@link #reduceEarly}: it may have returned before the mismatch was found, and then cannot
     * take its line), and how to see it.
     */
    private String unnamedLines(Part[] parts, int me, int pivot, int other) {
        StringJoiner early = new StringJoiner(" and ");
        for (int m : new int[] {pivot, other}) {
            if (parts[m].early && parts[m].site == null) {
                early.add(who(m, me));
            }
        }
        return early.length() == 0 ? "" : "; the line of " + early + " is not known: after the first on a"
            + " communicator, a small Bcast, and a small Reduce at the ranks other than the root, do not wait for every"
            + " rank (under --check they do, and reports name every line)";
    }

    /** Member {@code m} as member {@code viewer} knows it: its rank, and on an intercommunicator its group. */
    private String who(int m, int viewer) {
        if (!isInter()) {
            return "rank " + m;
        }
        return "rank " + local(m) + " of the " + (group(m) == group(viewer) ? "local" : "remote") + " group";
    }

    /**
     * Arrives at the next phase and waits until every member has. The volatile store of the epoch
     * followed by volatile loads of the others' (a Dekker pattern) guarantees that at least the last
     * of simultaneous arrivals sees the phase complete, and rings the doorbells of any that parked.
     */
    private void arrive(Slot s, int me, String call) {
        long epoch = lpEpoch(me) + 1;
        lines.mark(me, epoch);
        arriveAt(me, epoch);
        if (reached(epoch)) {
            completed(s, me, epoch);
        } else {
            await(me, phase(me, epoch, parks ? Seen.COMPLETION_WORD : Seen.EPOCHS), call);
            wakeFrom(s, me, false);
        }
        passed(me, epoch);
    }

    /**
     * Member {@code me} saw phase {@code epoch} of the collective in {@code s} complete on arriving:
     * with ranks that park, it publishes that in the team's completion word (which waiters read
     * instead of every member's epoch) and rings the root of the wake-up tree; then it wakes whom
     * {@link #wakeFrom} says. Several members arriving at once may all see the phase complete: they
     * store the same epoch, and each stores it before it arrives at the next phase, which cannot
     * complete without it, so the word never goes back.
     */
    private void completed(Slot s, int me, long epoch) {
        if (parks) {
            svCompleted(epoch);
            if (me != 0) {
                ringSubtree(s, 0);
            }
        }
        wakeFrom(s, me, true);
        if (parks && s.parts[me].operation == Operation.BARRIER) {
            yieldToAwaitedRoot(me);
        }
    }

    /**
     * Member {@code me} is the first to leave a Barrier of ranks that park, the others still
     * waking. When the call that followed its previous Barrier on the team was a Bcast from another
     * root ({@link #barrierEntered}), the member would most likely go on into that call and wait
     * for a root that is runnable but not running; so, while that root has not left this Barrier,
     * the member hands its core over, up to {@link #ROOT_YIELDS} times, and the woken ranks run
     * first. A program whose Barrier is followed by anything else, or by a Bcast from the member
     * itself, is not slowed: a Barrier on its own still releases its last arriver first.
     */
    private void yieldToAwaitedRoot(int me) {
        int root = awaitedRoot(me);
        for (int i = 0; i < ROOT_YIELDS && root >= 0 && root != me && lvLeft(root) <= current(me); i++) {
            Thread.yield();
        }
    }

    /**
     * The root of the Bcast member {@code me} predicts after its current Barrier (the call that
     * followed its previous Barrier), or -1 if it predicts no Bcast ({@link #barrierEntered}).
     */
    int awaitedRoot(int me) {
        return (int) lpWord(me, AWAITED_ROOT) - 1;
    }

    /**
     * Member {@code me} entered a blocking Barrier, its current collective: it predicts the call
     * after it from the call after its previous Barrier ({@link #yieldToAwaitedRoot}). Ranks that
     * park only; plain words of the member's own block.
     */
    void barrierEntered(int me) {
        if (!parks || isInter()) {
            return;
        }
        long last = lpWord(me, LAST_BARRIER);
        boolean bcastFollowed = last != 0 && lpWord(me, FOLLOWER) == last;
        spWord(me, AWAITED_ROOT, bcastFollowed ? lpWord(me, FOLLOWER_ROOT) : 0);
        spWord(me, LAST_BARRIER, current(me) + 1);
    }

    /**
     * Member {@code me} entered a blocking Bcast from {@code root}, its current collective: if
     * its previous collective on the team was a Barrier, the next Barrier will predict this call.
     */
    void bcastEntered(int me, int root) {
        if (!parks || isInter()) {
            return;
        }
        long op = current(me);
        if (op == lpWord(me, LAST_BARRIER)) {
            spWord(me, FOLLOWER, op);
            spWord(me, FOLLOWER_ROOT, root + 1);
        }
    }

    /**
     * Wakes, once member {@code me} knows a phase of the collective in {@code s} complete, the
     * members it is responsible for. With ranks that spin, the member that completed the phase
     * rings every member. With ranks that park, a tree: every member rings its children 2m+1 and
     * 2m+2 as it wakes (and rings for a child not in a blocking call: a mismatched non-blocking
     * one), so that the unparks are spread over the members, running on every core, instead of
     * made one after another by the last to arrive. No wake-up is lost: a member rings its
     * children only after it has seen the completion (a volatile read) and a child registers on its
     * doorbell before re-checking (a volatile write), so either the ring finds the child parked or
     * the child's re-check sees the completion.
     */
    private void wakeFrom(Slot s, int me, boolean completed) {
        if (!parks) {
            if (completed) {
                wakeAll();
            }
            return;
        }
        ringChildren(s, me);
    }

    /** Rings member {@code m}; if it is not in a blocking call of this collective, rings its children for it. */
    private void ringSubtree(Slot s, int m) {
        members.rank(m).doorbell().ring();
        Part p = s.parts[m];
        // No part yet: m has not reached an early Bcast, and rings its children itself when it does.
        if (p != null && !p.blocking) {
            ringChildren(s, m);
        }
    }

    private void ringChildren(Slot s, int m) {
        int n = members.size();
        int c = 2 * m + 1;
        if (c < n) {
            ringSubtree(s, c);
            if (c + 1 < n) {
                ringSubtree(s, c + 1);
            }
        }
    }

    /**
     * Member {@code me} knows every member arrived at phase {@code epoch} of its current collective:
     * so every member has left the collectives before the previous one (a member leaves each
     * collective before it arrives at a phase of the next, or, for a small Bcast it left early,
     * settles it as it leaves the next), which {@link #enter} would otherwise learn by reading every
     * member's LEFT word, a scan of the whole team every few collectives.
     */
    private void passed(int me, long epoch) {
        spKnownEpoch(me, epoch);
        long before = lpEntered(me) - 2; // LEFT counts collectives left: all those before the previous one
        if (lpKnownLeft(me) < before) {
            spKnownLeft(me, before);
        }
    }

    /**
     * Member {@code me}'s wait for phase {@code epoch}, seen as {@code seen} says: the member's one
     * {@link Phase}, set for this wait (a member waits for one phase at a time), so that waiting
     * allocates nothing.
     */
    private Phase phase(int me, long epoch, Seen seen) {
        Phase p = phases[me];
        if (p == null) {
            p = new Phase(me);
            phases[me] = p;
        }
        p.epoch = epoch;
        if (p.seen != seen) {
            p.seen = seen;
        }
        if (p.settling != null) {
            p.settling = null;
        }
        return p;
    }

    /**
     * Waiting until every member has arrived at phase {@code epoch}, seen as {@code seen} says; for
     * reports, waiting for the members that have not (read from their epoch words, published
     * before their arrival counts). One per member, reused wait after wait ({@link #phase}); set by
     * its member before the wait, read by the waiting thread and, for reports, by the deadlock
     * detector once the wait is published as blocked (which orders the fields before).
     */
    private final class Phase implements Condition, Awaited {
        /** The waiting member. */
        private final int member;
        private long epoch;
        private Seen seen;
        /** The root whose line a {@link Seen#ROOT_LINE} wait reads. */
        private int root;
        /** The waiting member's part of the early Bcast it settles ({@link #settle}), or null. */
        private Part settling;

        Phase(int member) {
            this.member = member;
        }

        @Override
        public boolean isMet() {
            switch (seen) {
                case COMPLETION_WORD:
                    // Nobody stores the completion of a phase that early Bcast members completed.
                    return lvCompleted() >= epoch || leftEarly && reached(epoch);
                case LINES:
                    return arrivedInLines(epoch);
                case ROOT_LINE:
                    return EpochLines.epochOf(lines.lvHeader(root, epoch)) >= epoch;
                default:
                    return reached(epoch);
            }
        }

        /**
         * Waiting in a collective: its arguments and the members it waits for ({@code count=1,
         * MPI.DOUBLE, MPI.MAX; waiting for ranks 2, 3 of the communicator}); settling an early one at
         * a later call: the members that have not called it.
         */
        @Override
        public String describe(Job job) {
            String late = lateMembers();
            if (settling != null) {
                return "waits for " + (late.isEmpty() ? "the other ranks" : late) + " to call " + settling.describe(true)
                    + ", which it returned from early";
            }
            // The member's current collective: its part, signed before it waits (which the report's
            // read of the blocked call orders before this read).
            Part own = slotOf(current(member)).parts[member];
            String args = own == null ? "" : own.arguments(true);
            if (late.isEmpty()) {
                return args;
            }
            return args.isEmpty() ? "waiting for " + late : args + "; waiting for " + late;
        }

        @Override
        public void addAwaitedRanks(Job job, java.util.BitSet ranks) {
            for (int m = 0; m < members.size(); m++) {
                if (awaits(m)) {
                    ranks.set(members.worldRank(m));
                }
            }
        }

        /** Whether this wait is for member {@code m}: it has not arrived at the phase (and, for the root's line, is the root). */
        private boolean awaits(int m) {
            return lvEpoch(m) < epoch && (seen != Seen.ROOT_LINE || m == root);
        }

        /**
         * {@code rank 3 of the communicator}, {@code ranks 2, 3, 5-9999 of the communicator}, or on an
         * intercommunicator each by its group; at most {@link #LISTED} runs of ranks, then how many
         * more. Empty when every member has arrived.
         */
        private String lateMembers() {
            StringJoiner runs = new StringJoiner(", ");
            int count = 0;
            int listed = 0;
            int n = members.size();
            for (int m = 0; m < n; m++) {
                if (!awaits(m)) {
                    continue;
                }
                int last = m;
                while (!isInter() && last + 1 < n && awaits(last + 1)) {
                    last++;
                }
                if (last == m + 1) {
                    last = m; // two ranks read better listed: "2, 3"
                }
                count += last - m + 1;
                if (listed++ < LISTED) {
                    runs.add(isInter() ? who(m, member) : last == m ? Integer.toString(m) : m + "-" + last);
                }
                m = last;
            }
            if (count == 0) {
                return "";
            }
            String more = listed > LISTED ? " and more, " + count + " in all" : "";
            return (isInter() ? runs.toString() : (count == 1 ? "rank " : "ranks ") + runs + " of the communicator")
                + more;
        }
    }

    /** Member {@code me}'s wait until the line of member {@code root} shows phase {@code epoch}. */
    private Phase rootLine(int me, long epoch, int root) {
        Phase p = phase(me, epoch, Seen.ROOT_LINE);
        p.root = root;
        return p;
    }

    /** How a waiter sees that a phase is complete. */
    private enum Seen {
        /** Every member's epoch word (or, in a large team, the phase's arrival count). */
        EPOCHS,
        /**
         * Every member's line of the phase: with ranks that spin, the waiters of a small Allreduce
         * and of a phase that completes without a ring ({@link #awaitAll}).
         */
        LINES,
        /** The team's completion word, one read: with ranks that park. */
        COMPLETION_WORD,
        /** The root's line alone: the other members of an early Bcast ({@link #bcastEarly}). */
        ROOT_LINE
    }

    private long lvCompleted() {
        return (long) STATE.getVolatile(state, at(members.size(), 0));
    }

    private void svCompleted(long epoch) {
        STATE.setVolatile(state, at(members.size(), 0), epoch);
    }

    /** Publishes member {@code me}'s arrival at phase {@code epoch}: its epoch word, and in a large team the count. */
    private void arriveAt(int me, long epoch) {
        svEpoch(me, epoch);
        if (arrivals != null) {
            arrivals.incrementAndGet((int) ((epoch - 1) % ARRIVAL_RING));
        }
    }

    /** True when every member has arrived at phase {@code epoch}. */
    private boolean reached(long epoch) {
        if (arrivals != null) {
            long rounds = (epoch - 1) / ARRIVAL_RING + 1;
            return arrivals.get((int) ((epoch - 1) % ARRIVAL_RING)) >= rounds * members.size();
        }
        for (int m = 0; m < members.size(); m++) {
            if (lvEpoch(m) < epoch) {
                return false;
            }
        }
        return true;
    }

    /**
     * Records that member {@code me} no longer uses its current slot (nor the one of a small Bcast
     * it left early, which it settles first); wakes members waiting to enter.
     */
    private void leave(int me, String call) {
        settle(me, call);
        storeLeft(me, lpEntered(me));
    }

    /** Stores member {@code me}'s count of collectives left; wakes members waiting to enter a slot. */
    private void storeLeft(int me, long left) {
        svLeft(me, left);
        if (entering.get() != 0) {
            wakeAll();
        }
    }

    /**
     * The last arrival of a non-blocking collective does every member's part, then completes every
     * request: none completes before all kernels ran, since a completed member may reuse its buffers.
     */
    private void finish(Slot s, Kernel kernel) {
        int n = members.size();
        int other = firstMismatch(s.parts);
        if (other >= 0) {
            int pivot = pivot(s.parts);
            int errorClass = mismatch(s.parts, pivot, other);
            String[] reports = new String[n];
            for (int m = 0; m < n; m++) {
                reports[m] = mismatchReport(s.parts, m, pivot, other);
            }
            completeAll(s, null, errorClass, reports);
            return;
        }
        RuntimeException[] errors = null;
        for (int m = 0; m < n; m++) {
            try {
                kernel.run(s, m);
            } catch (RuntimeException e) {
                if (errors == null) {
                    errors = new RuntimeException[n];
                }
                errors[m] = e;
            }
        }
        completeAll(s, errors, 0, null);
    }

    /**
     * Clears the parts, frees the slot and completes every member's request: with {@code reports[m]}
     * (of {@code errorClass}) when given (no kernel ran), else with its kernel's error if any, else
     * successfully.
     */
    private void completeAll(Slot s, RuntimeException[] errors, int errorClass, String[] reports) {
        int n = members.size();
        CollectiveRequest[] requests = new CollectiveRequest[n];
        for (int m = 0; m < n; m++) {
            requests[m] = s.parts[m].request;
            s.parts[m].clear();
        }
        s.release();
        if (entering.get() != 0) {
            wakeAll();
        }
        for (int m = 0; m < n; m++) {
            RuntimeException e = errors == null ? null : errors[m];
            if (reports != null) {
                requests[m].fail(errorClass, reports[m]);
            } else if (e == null) {
                requests[m].complete();
            } else if (e instanceof KernelError k) {
                requests[m].fail(k.errorClass, k.getMessage());
            } else {
                requests[m].fail(ErrorClass.ERR_OTHER, "the collective failed for rank " + members.worldRank(m) + ": "
                    + e);
            }
        }
    }

    /** Waits on member {@code me}'s rank, through the job's wait strategy, until {@code condition} holds. */
    private void await(int me, Condition condition, String call) {
        waits.await(members.rank(me), condition, call);
    }

    /** Rings every member's doorbell: whoever made a waited-for condition true calls it after its volatile store. */
    private void wakeAll() {
        for (int m = 0; m < members.size(); m++) {
            members.rank(m).doorbell().ring();
        }
    }

    // ---- accessors of the members' words in {@link #state} (naming: see package-info) -----------

    /**
     * The index in {@link #state} of word {@code field} of member {@code m}'s block ({@code m} = the
     * team's size: the completion word's). Block 0 is padding: the array's header, which every
     * access reads (its length, for the bounds check), shares no line with a word that is written.
     */
    private static int at(int m, int field) {
        return (m + 1) * PAD + field;
    }

    private long lpEntered(int m) {
        return state[at(m, ENTERED)];
    }

    private void spEntered(int m, long v) {
        state[at(m, ENTERED)] = v;
    }

    /** A member's own epoch: plain, since only the member writes it. */
    private long lpEpoch(int m) {
        return state[at(m, EPOCH)];
    }

    private long lvEpoch(int m) {
        return (long) STATE.getVolatile(state, at(m, EPOCH));
    }

    private void svEpoch(int m, long v) {
        STATE.setVolatile(state, at(m, EPOCH), v);
    }

    private long lvLeft(int m) {
        return (long) STATE.getVolatile(state, at(m, LEFT));
    }

    private void svLeft(int m, long v) {
        STATE.setVolatile(state, at(m, LEFT), v);
    }

    private long lpKnownLeft(int m) {
        return state[at(m, KNOWN_LEFT)];
    }

    private void spKnownLeft(int m, long v) {
        state[at(m, KNOWN_LEFT)] = v;
    }

    private long lpKnownEpoch(int m) {
        return state[at(m, KNOWN_EPOCH)];
    }

    private void spKnownEpoch(int m, long v) {
        state[at(m, KNOWN_EPOCH)] = v;
    }

    private long lpUnsettledEpoch(int m) {
        return state[at(m, UNSETTLED_EPOCH)];
    }

    private void spUnsettledEpoch(int m, long v) {
        state[at(m, UNSETTLED_EPOCH)] = v;
    }

    private long lpUnsettledOp(int m) {
        return state[at(m, UNSETTLED_OP)];
    }

    private void spUnsettledOp(int m, long v) {
        state[at(m, UNSETTLED_OP)] = v;
    }

    private long lpUnsettledCount(int m) {
        return state[at(m, UNSETTLED_COUNT)];
    }

    private void spUnsettledCount(int m, long v) {
        state[at(m, UNSETTLED_COUNT)] = v;
    }

    private long lpWord(int m, int field) {
        return state[at(m, field)];
    }

    private void spWord(int m, int field, long v) {
        state[at(m, field)] = v;
    }

    private long lpFlags(int m) {
        return state[at(m, FLAGS)];
    }

    private void spFlags(int m, long v) {
        state[at(m, FLAGS)] = v;
    }
}
