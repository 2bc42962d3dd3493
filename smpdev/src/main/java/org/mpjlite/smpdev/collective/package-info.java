/**
 * Collective operations for shared memory: every member of a communicator's
 * {@link org.mpjlite.smpdev.collective.Team} publishes its buffers in a slot and the data moves once,
 * from where it is to where it goes ({@link org.mpjlite.smpdev.collective.Collectives}); reductions
 * combine in rank order in one place ({@code Reducer}); a small blocking Allreduce or Bcast travels in the
 * members' cache lines ({@code EpochLines}). Calls that do not match across members fail on every
 * member before any data moves, except that a small Bcast after a member's first leaves early and
 * is compared later. An intercommunicator's team holds both groups; its collectives run on
 * the same engine with kernels that move data from one group to the other
 * ({@link org.mpjlite.smpdev.collective.InterCollectives}).
 *
 * <p>Uses {@code data}, {@code wait} (every wait goes through the job's
 * {@link org.mpjlite.smpdev.wait.WaitStrategy}), {@code diag} (call sites) and {@code error}; never
 * {@code p2p}. From the root it uses {@code Job} and {@code Rank} (the team's members),
 * {@code Request}, the base of {@link org.mpjlite.smpdev.collective.CollectiveRequest}, and the
 * thresholds in {@code Tunables}.
 *
 * <p>Threads: each member's thread runs its own side of a blocking collective; for a non-blocking
 * one, the last member to arrive runs every member's side and completes every request. A member
 * writes only its own words and lines; it reads the others' after volatile (or acquire) loads that
 * see them.
 *
 * <h2>Naming of accesses with mixed orderings</h2>
 * Fields read and written with different memory orderings ({@code Team}'s per-member words,
 * {@code EpochLines}' line headers) are accessed only through methods whose prefix names the
 * ordering, as JCTools names its own:
 * <ul>
 *   <li>{@code lp}: load plain, no ordering (a member's own words, which only it writes);</li>
 *   <li>{@code sp}: store plain (words only their member reads);</li>
 *   <li>{@code lv}: load volatile (another member's word or line header);</li>
 *   <li>{@code sv}: store volatile (an epoch or "left" word others wait for: a Dekker pattern with
 *       their volatile loads, so that the last of simultaneous arrivals sees the phase complete);</li>
 *   <li>{@code so}: store ordered, i.e. release (a line header after its data: a reader that sees the
 *       header sees the data).</li>
 * </ul>
 * So {@code lvEpoch(m)} reads member {@code m}'s epoch with a volatile load, {@code svLeft(me, op)}
 * publishes that {@code me} left collective {@code op}, and {@code soHeader(at, h)} publishes a line.
 */
package org.mpjlite.smpdev.collective;
