/**
 * JUnit 5 support: {@link org.mpjlite.junit.MpiTest} runs a test method as an MPI program, once per
 * rank count, on the embedded device; {@link org.mpjlite.junit.MpiContext} gives the body its rank,
 * the size, and gathers per-rank values for assertions. A failing rank fails the test naming the
 * rank; a deadlock or a time limit fails it with MPJ Lite's report.
 *
 * <p>Thread safety: each invocation runs its own job; each rank gets its own {@code MpiContext}, to be
 * used on that rank's thread only.
 */
package org.mpjlite.junit;
