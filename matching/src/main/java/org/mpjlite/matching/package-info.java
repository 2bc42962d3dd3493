/**
 * Message matching: where the messages addressed to one rank meet the receives it posts, under
 * MPI's rules (match on communicator context, source and tag with wildcards; non-overtaking order
 * between a pair of ranks; every message and every receive handed over exactly once).
 *
 * <h2>The classes</h2>
 * <ul>
 *   <li>{@link org.mpjlite.matching.Mailbox}: the contract, one per rank;
 *       {@link org.mpjlite.matching.MatchHandler}: what happens to a matched pair (the device moves
 *       the data);</li>
 *   <li>{@link org.mpjlite.matching.LockedMailbox}: one lock per rank; a sender that finds a receive
 *       posted takes it and fills it on its own thread;</li>
 *   <li>{@link org.mpjlite.matching.LockFreeMailbox}: senders offer to a JCTools multi-producer
 *       single-consumer queue and never lock; the owning rank drains and matches;</li>
 *   <li>{@link org.mpjlite.matching.Envelope}: the matching key with its intrusive list link;
 *       {@code MatchLists}: the posted and unexpected FIFO lists, allocation-free.</li>
 * </ul>
 *
 * <h2>Threads and progress</h2>
 * {@code deliver} is called by any sender's thread; every other method by the owning rank's
 * threads (several at once at {@code MPI_THREAD_MULTIPLE}). Progress guarantees, as each class
 * states them: the locked mailbox is blocking (short critical sections); the lock-free mailbox is
 * lock-free for senders (one atomic add per offer) and blocking only among the owner's own threads.
 * Memory ordering: a lock's release/acquire or the queue's offer/poll publishes an envelope's fields;
 * {@code LockFreeMailbox.deliver} ends with a full fence for the handshake with a parking owner.
 */
package org.mpjlite.matching;
