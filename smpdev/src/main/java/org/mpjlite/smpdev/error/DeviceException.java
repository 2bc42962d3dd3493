package org.mpjlite.smpdev.error;

/** An MPI error raised by the device when no API layer has installed its own exception type. */
public final class DeviceException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int errorClass;

    public DeviceException(int errorClass, String message, Throwable cause) {
        super(ErrorClass.name(errorClass) + ": " + message, cause);
        this.errorClass = errorClass;
    }

    public int errorClass() {
        return errorClass;
    }
}
