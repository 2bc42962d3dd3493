/**
 * The embedded API: run MPI ranks inside the calling JVM, for tests, notebooks and teaching.
 * {@link org.mpjlite.MpjLite#run(int, org.mpjlite.RankProgram)} runs a lambda as every rank and
 * returns each rank's result; {@link org.mpjlite.MpjLite#options()} sets what {@code mpjrun}'s
 * options set and also runs a main class with per-rank statics. A failed job (a rank's exception,
 * Abort, a deadlock, a time limit) is a {@link org.mpjlite.JobFailedException} carrying the report
 * and the exit code {@code mpjrun} would give.
 *
 * <p>Thread safety: every entry point may be called from any thread; each call runs its own job.
 */
package org.mpjlite;
