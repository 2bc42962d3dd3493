/**
 * The threads-based device: one MPI job in one JVM, every rank a thread. This package is the
 * runtime that the packages below it serve: {@link org.mpjlite.smpdev.Job} (the ranks, the state
 * they share, the failure that ends the job), {@link org.mpjlite.smpdev.Rank} (one MPI process: its
 * lifecycle, thread level, doorbell and point-to-point endpoint),
 * {@link org.mpjlite.smpdev.World} (the ranks started together, which share a {@code COMM_WORLD} and
 * an Init: the job's first ranks, or the children of one spawn, added while the job runs),
 * {@code Supervisor} (runs and watches the rank threads),
 * {@link org.mpjlite.smpdev.JobConfig} and {@link org.mpjlite.smpdev.Tunables} (settings and
 * thresholds), the failure and abort types, {@link org.mpjlite.smpdev.Request}, the base of
 * every operation a rank waits for, and {@link org.mpjlite.smpdev.Membership}, the immutable list of a
 * communicator's ranks that the communicator, its collective team and the reports share.
 *
 * <h2>Layers</h2>
 * Imports run one way, checked by {@code ArchitectureTest}:
 * <pre>
 *   api (mpi, org.mpjlite.run)
 *     root: Job, Rank, Supervisor, config, failure; Request, Membership
 *       p2p        collective        diag        (p2p and collective never use each other)
 *       wait       data                          (each uses only error)
 *       error
 * </pre>
 * The root may use every package below. The packages below reach up to the root only through
 * {@code Job}, {@code Rank} and {@code Request}, the runtime objects every operation belongs to (a
 * request's owner, the rank whose endpoint a send goes to, the job whose ranks a report lists),
 * {@code Membership} (who the members of a communicator are), and
 * through {@code JobConfig} and {@code Tunables}, read-only settings; never through the supervisor,
 * the failure types or the job's internals. That tie stays because a request must know the rank
 * that waits for it and a report the job it describes; inverting it would put an interface in
 * front of each without removing a single dependency of substance. {@code wait} sees a rank only as
 * a {@link org.mpjlite.smpdev.wait.Waiter}, which {@code Rank} implements. {@code diag} and
 * {@code p2p} use each other: reports read the mailboxes' messages, and point-to-point waits
 * describe themselves for reports ({@link org.mpjlite.smpdev.diag.Awaited}).
 *
 * <h2>Threads</h2>
 * A rank's main thread (and, at {@code THREAD_SERIALIZED} or {@code THREAD_MULTIPLE}, threads it
 * starts) call into the device; any rank's thread may complete another rank's request (the one
 * that matches a message moves its data) and rings that rank's doorbell. The thread that called
 * {@link org.mpjlite.smpdev.Job#run} supervises: it joins the ranks, runs the deadlock detector and
 * the time limit, and never touches the message path.
 */
package org.mpjlite.smpdev;
