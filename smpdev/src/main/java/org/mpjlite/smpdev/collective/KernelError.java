package org.mpjlite.smpdev.collective;

/**
 * An MPI error found while a kernel moved a member's data (a truncation, a type mismatch): raised
 * on the member's own thread for a blocking call, or recorded in its request for a non-blocking one.
 */
final class KernelError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final int errorClass;

    KernelError(int errorClass, String message) {
        super(message, null, false, false);
        this.errorClass = errorClass;
    }
}
