/**
 * The {@code mpjrun} launcher: parses the command line ({@code LaunchOptions}), finds the program
 * (a single source file compiled in memory, a class on a class path, or an application jar:
 * {@code ProgramLoader}, {@code SourceCompiler}), gives each rank its own child-first class loader
 * so the program's statics are per rank while the library is loaded once ({@code RankClassLoader}),
 * runs the job on the device and turns its end into an exit code and a report ({@code MpjRun},
 * {@code FailureReport}); SIGQUIT prints the status of every rank while the job goes on
 * ({@code StatusSignal}).
 *
 * <p>Runs on the launching thread; the ranks run on their own threads, started by the device.
 */
package org.mpjlite.run;
