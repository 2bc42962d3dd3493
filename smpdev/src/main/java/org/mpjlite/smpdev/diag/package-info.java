/**
 * Diagnostics: the deadlock detector ({@link org.mpjlite.smpdev.diag.DeadlockDetector}) and its
 * view of each rank's threads ({@link org.mpjlite.smpdev.diag.RankThreads}), the wait-for graph
 * ({@link org.mpjlite.smpdev.diag.WaitForGraph}), the reports of a stuck job and of what a rank
 * leaves behind at Finalize ({@link org.mpjlite.smpdev.diag.JobReport},
 * {@link org.mpjlite.smpdev.diag.FinalizeReport}), the user's line of a call
 * ({@link org.mpjlite.smpdev.diag.CallSite}), the blocked calls ranks publish
 * ({@link org.mpjlite.smpdev.diag.BlockedCall}), how a wait describes itself
 * ({@link org.mpjlite.smpdev.diag.Awaited}), and the requests a program never completed
 * ({@link org.mpjlite.smpdev.diag.OpenRequests}, under {@code --check}); and what the calls of a
 * rank did, under {@code --trace} and {@code --stats} ({@link org.mpjlite.smpdev.diag.Tracer}, one
 * per rank, null when off), written at the job's end as a Chrome Trace Event file
 * ({@link org.mpjlite.smpdev.diag.TraceFile}).
 *
 * <p>Uses {@code p2p} (reports list the messages in mailboxes), {@code wait} and {@code error};
 * from the root, {@code Job} and {@code Rank}, whose published state it reads, and the settings in
 * {@code JobConfig} and {@code Tunables}.
 *
 * <p>Threads: the detector and the job report run on the supervising thread (or a status request's)
 * and only read what ranks publish (volatile lifecycle flags, a concurrent map of blocked calls,
 * mailbox snapshots), so they cost nothing on the message path; a rank's thread publishes a
 * blocked call only when it is about to park. The finalize report runs on the finalizing rank's
 * thread. A rank's threads record their own calls in its tracer (under its lock); the thread that
 * matches a message only copies the message's flow id into the receive, so the receive's end of the
 * flow is recorded by the receiving rank, in the call that completed it.
 */
package org.mpjlite.smpdev.diag;
