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
 *   <li>{@link org.mpjlite.matching.LockFreeMailbox}: senders never lock: a sender claims the
 *       published (earliest posted) receive with a compare-and-set and fills it on its own thread,
 *       or offers to a JCTools multi-producer single-consumer queue that the owning rank drains and
 *       matches; {@link org.mpjlite.matching.OwnerLock} serializes the owning rank's own threads
 *       there (a compare-and-set to take, a release store to give back, in a padded line);</li>
 *   <li>{@link org.mpjlite.matching.ReceiveLine}: where the lock-free mailbox publishes its receive
 *       (two cache lines of native memory), and where a sender that claims it for a small message
 *       leaves the message for the owner to complete the receive from;</li>
 *   <li>{@link org.mpjlite.matching.MessageRing}: one sender's small messages to one lock-free
 *       mailbox, in 128-byte cells of native memory (with a spill and an overflow array for up to
 *       4 KB of data) that the owner reads when it matches, straight into the receive that takes
 *       the message, and the order all that sender's messages there keep
 *       ({@link org.mpjlite.matching.SentEnvelope}: a message's place in it when it goes through
 *       the inbox);
 *       {@link org.mpjlite.matching.RingReader}: how the owner makes its message of a cell;</li>
 *   <li>{@link org.mpjlite.matching.Envelope}: the matching key with its intrusive list link;
 *       {@code MatchLists}: the posted and unexpected FIFO lists, allocation-free.</li>
 * </ul>
 *
 * <h2>Threads and progress</h2>
 * {@code deliver}, {@code matchPosted}, {@code claimLine} (then {@code ReceiveLine.fill}),
 * {@code openRing} and a ring's sender side are called by any sender's thread; every other method by
 * the owning rank's threads (several at once at {@code MPI_THREAD_MULTIPLE}). Progress guarantees, as each class
 * states them: the locked mailbox is blocking (short critical sections); the lock-free mailbox is
 * lock-free for senders (one atomic add per offer or ring message, or one compare-and-set per claim) and blocking
 * only among the owner's own threads, and not even that once confined to one thread
 * ({@code Mailbox.confineTo}) or for the receives the Init thread posts behind a waiting one
 * ({@code Mailbox.deferPostsOf}: a single-producer queue the next matching call empties). Memory
 * ordering: a lock's release/acquire, the queue's offer/poll, a claim word's or a ring cell's release/acquire publishes an envelope's fields; no full fence (the
 * handshake with a parking owner rests on the queue's or the ring's atomic add).
 */
package org.mpjlite.matching;
