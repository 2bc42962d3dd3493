/**
 * JMH benchmarks of the hot paths below the MPI API (matching, packing, buffer allocation, the
 * device ping-pong, validation cost) and the report tools that turn benchmark output into the
 * tables and plots of docs/PERFORMANCE.md ({@code CompareTable}, {@code PlotResults}). See
 * benchmarks/README.md for what each measures and how to run it.
 */
package org.mpjlite.benchmarks;
