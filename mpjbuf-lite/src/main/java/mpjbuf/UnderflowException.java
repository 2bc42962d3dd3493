package mpjbuf;

import java.nio.BufferUnderflowException;

/**
 * Thrown when reading past the committed data: no further section, or more elements requested than the current
 * section holds. A {@link BufferUnderflowException} that carries a message naming what was expected and found.
 *
 * <p>Immutable.
 */
public final class UnderflowException extends BufferUnderflowException
{
    private static final long serialVersionUID = 1L;

    private final String message;

    UnderflowException(final String message)
    {
        this.message = message;
    }

    public String getMessage()
    {
        return message;
    }
}
