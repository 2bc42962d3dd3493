/**
 * MPI for Java, in both dialects programs are written in: mpiJava 1.2 (MPJ Express, with array
 * offsets: {@code MPI.COMM_WORLD.Send(buf, offset, count, MPI.INT, dest, tag)}) and Open MPI's Java
 * bindings ({@code MPI.COMM_WORLD.send(buf, count, MPI.INT, dest, tag)}, NIO buffers, non-blocking
 * collectives, one-sided windows, MPI-IO). Both live on the same classes; see docs/DIALECTS.md for
 * how they coexist and where they differ.
 *
 * <h2>Where things are</h2>
 * <ul>
 *   <li>identity and the two public surfaces: {@link mpi.Comm}, {@link mpi.Intracomm},
 *       {@link mpi.Intercomm}, {@link mpi.CartComm}, {@link mpi.GraphComm}, {@link mpi.Group};</li>
 *   <li>the implementations the public methods delegate to: {@code PointToPointCalls},
 *       {@code PackCalls}, {@code CollectiveCalls} (argument checks, count conversion, the call into
 *       the device), {@code ObjectCollectives} ({@code MPI.OBJECT} collectives), {@code CommCreation}
 *       and {@code IntercommCreation};</li>
 *   <li>data description: {@link mpi.Datatype}, {@link mpi.Struct}, {@link mpi.Op};</li>
 *   <li>completion: {@link mpi.Request}, {@link mpi.Prequest}, {@link mpi.Status};</li>
 *   <li>one-sided communication: {@link mpi.Win}; files: {@link mpi.File}; hints: {@link mpi.Info}.</li>
 * </ul>
 *
 * <h2>Threads and errors</h2>
 * Each rank is a thread; a call acts for the rank bound to the calling thread (or to the rank that
 * started it, for threads a rank starts). Thread levels are enforced as the program asked for them.
 * Every error is an unchecked {@link mpi.MPIException} with the MPI error class and a message that
 * names the call and the argument; error handlers decide whether it is thrown or ends the job.
 */
package mpi;
