package org.mpjlite.smpdev;

import java.lang.invoke.VarHandle;

/**
 * The sending side of one rank's fast boxes: decides, message by message, whether a small message
 * goes through the destination's fast box instead of its mailbox, and keeps the sender's counts.
 *
 * <p>A destination gets a box once {@link JobConfig#fastBoxAfter()} messages have been sent to it
 * (as in Open MPI: pairs that exchange a few messages do not cost their receiver a poll). A message
 * takes the box only when
 * <ul>
 *   <li>every message this rank queued in the destination's inbox has been drained, so the box
 *       message cannot overtake one of them (the receiver takes the box before each inbox message,
 *       which covers the other order: see {@link org.mpjlite.queues.FastLanes});</li>
 *   <li>the box has a free slot (the receiver has read the message {@link FastBox#SLOTS} before).</li>
 * </ul>
 * Both facts are read from the receiver only when the cached ones do not already show them, so in
 * a steady stream of box messages the sender reads nothing the receiver writes.
 *
 * <p>Thread safety: each box has a single producer, this writer, whose methods are synchronized.
 * A rank below {@code THREAD_MULTIPLE} calls them from one thread at a time, so the monitor is
 * uncontended (one CAS per small send); it is there so that a program breaking its
 * {@code THREAD_SERIALIZED} promise, or a device-level user sending as one rank from two threads,
 * gets its messages delivered in a consistent order instead of two producers overwriting a slot. A
 * rank at {@code THREAD_MULTIPLE} never uses its boxes ({@link PointToPoint} checks): its threads
 * would contend for the monitor where the mailbox lets them send side by side.
 */
final class FastBoxWriter {
    /** A destination whose receiver refused a box (it polls enough). */
    private static final FastBox REFUSED = new FastBox(-1);

    private final int me;
    private final int openAfter;
    /** Per destination: its box, null before it is opened, or {@link #REFUSED}. */
    private final FastBox[] boxes;
    /** Per destination: messages sent before its box opened. */
    private final int[] sentBeforeBox;
    /** Per destination: messages written to its box. */
    private final long[] written;
    /** Per destination: messages the receiver had read from the box when last asked. */
    private final long[] readSeen;
    /** Per destination: messages queued in its inbox. */
    private final long[] queued;
    /** Per destination: messages the receiver had drained from its inbox when last asked. */
    private final long[] drainedSeen;

    FastBoxWriter(int me, int ranks, int openAfter) {
        this.me = me;
        this.openAfter = openAfter;
        boxes = new FastBox[ranks];
        sentBeforeBox = new int[ranks];
        written = new long[ranks];
        readSeen = new long[ranks];
        queued = new long[ranks];
        drainedSeen = new long[ranks];
    }

    /**
     * Sends through {@code dest}'s fast box if the rules allow (the caller has checked that the
     * message {@link FastBox#fits} and is a standard or ready send); then wakes the receiver. False
     * if the message must go through the mailbox.
     */
    synchronized boolean trySend(Rank dest, int context, int source, int tag, Object buffer, int index, int count,
                    BasicType type, String call) {
        int d = dest.id();
        FastBox box = boxes[d];
        if (box == null) {
            if (++sentBeforeBox[d] <= openAfter) {
                return false;
            }
            box = dest.fastBoxReader().open(me);
            boxes[d] = box == null ? REFUSED : box;
        }
        if (box == REFUSED || box == null) {
            return false;
        }
        FastBoxReader receiver = dest.fastBoxReader();
        if (queued[d] != drainedSeen[d] && (drainedSeen[d] = receiver.inboxDrained(me)) != queued[d]) {
            return false;
        }
        long n = written[d];
        if (n - readSeen[d] >= FastBox.SLOTS && n - (readSeen[d] = receiver.boxRead(me)) >= FastBox.SLOTS) {
            return false;
        }
        box.write(n, context, source, tag, buffer, index, count, type, call);
        written[d] = n + 1;
        // The Dekker handshake with a receiver about to park (see Doorbell): the slot's store before
        // the read of its parked threads.
        VarHandle.fullFence();
        dest.wake();
        return true;
    }

    /** A message to {@code dest} goes into its inbox: counted, so later ones wait until it is drained. */
    synchronized void queued(Rank dest) {
        queued[dest.id()]++;
    }
}
