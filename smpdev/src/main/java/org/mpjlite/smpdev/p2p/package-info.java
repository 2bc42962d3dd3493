/**
 * Point-to-point communication: the send protocols and receive posting
 * ({@link org.mpjlite.smpdev.p2p.PointToPoint}: eager, buffered, rendezvous, synchronous), the
 * messages and requests, the one place data crosses from one rank to another
 * ({@link org.mpjlite.smpdev.p2p.Transfer}), a rank's mailbox and buffered-send state
 * ({@link org.mpjlite.smpdev.p2p.Endpoint}, with its {@link org.mpjlite.smpdev.p2p.BsendBuffer}),
 * and the waits of blocking probes and of several requests.
 *
 * <p>Uses {@code data}, {@code wait}, {@code diag} (call sites, and how its waits describe
 * themselves in reports) and {@code error}; never {@code collective}. From the root it uses
 * {@code Rank} and {@code Job} (a request's owner, a send's destination), {@code Request}, the
 * base class of its requests, and the settings in {@code JobConfig} and {@code Tunables}.
 *
 * <p>Threads: a sender's thread builds a message and delivers it to the destination's mailbox;
 * whichever thread makes a match (the sender, finding a posted receive, or the receiver, polling
 * its mailbox) runs the transfer and completes both requests, each with a volatile write followed
 * by a ring of its owner's doorbell. A small message to a posted receive is the exception: the
 * sender leaves it in the receiver's receive line (a volatile write of the filled word, then the
 * ring), and a thread of the receiving rank moves it into the buffer and completes the receive.
 * The mailbox's hand-off publishes a message; the request's completion (or the filled word)
 * publishes the received data and the status.
 */
package org.mpjlite.smpdev.p2p;
