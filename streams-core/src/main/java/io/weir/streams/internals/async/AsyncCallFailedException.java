package io.weir.streams.internals.async;

/**
 * An asynchronous operator's call for a record failed on its last attempt (its error, or a timeout), and
 * the processing-error handler decides what becomes of the record. The message names the operator and the
 * attempts, never the record's payload.
 */
public final class AsyncCallFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public AsyncCallFailedException(String operator, int attempts, Throwable cause) {
        super(
                "The asynchronous call of operator '" + operator + "' failed after " + attempts
                        + (attempts == 1 ? " attempt: " : " attempts: ") + cause,
                cause);
    }
}
