package mpi;

/** An MPI object a program releases explicitly; using it afterwards is an error. Both dialects. */
public interface Freeable {
    void free();
}
