package org.mpjlite.smpdev.error;

import java.util.Objects;

/**
 * Raises MPI errors as the user-visible exception type without the device depending on it.
 *
 * <p>The device reports errors as {@code mpi.MPIException}, a class of the API layer above it. The
 * API layer installs a factory once, when its {@code mpi} classes initialize; until then (device
 * used on its own, as in device tests) errors are {@link DeviceException}s. The factory is set
 * through a volatile field: install happens before any rank thread can reach the device through
 * the API.
 */
public final class Errors {
    /** Builds the user-visible exception for an error class and message. */
    @FunctionalInterface
    public interface Factory {
        RuntimeException create(int errorClass, String message, Throwable cause);
    }

    private static volatile Factory factory = DeviceException::new;

    private Errors() {
    }

    public static void install(Factory f) {
        factory = Objects.requireNonNull(f);
    }

    /** The exception to throw for an error of the given class, e.g. {@code throw Errors.error(...)}. */
    public static RuntimeException error(int errorClass, String message) {
        return factory.create(errorClass, message, null);
    }

    public static RuntimeException error(int errorClass, String message, Throwable cause) {
        return factory.create(errorClass, message, cause);
    }
}
