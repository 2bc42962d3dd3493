package mpjbuf;

import java.nio.BufferOverflowException;

/**
 * Thrown when a write does not fit in the buffer's static capacity. A {@link BufferOverflowException} that carries a
 * message naming the sizes involved.
 *
 * <p>Immutable.
 */
public final class OverflowException extends BufferOverflowException
{
    private static final long serialVersionUID = 1L;

    private final String message;

    OverflowException(final String message)
    {
        this.message = message;
    }

    public String getMessage()
    {
        return message;
    }
}
