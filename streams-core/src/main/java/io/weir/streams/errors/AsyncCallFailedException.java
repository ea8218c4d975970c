package io.weir.streams.errors;

import io.weir.streams.internals.Redaction;

/**
 * The call an asynchronous operator ({@code mapValuesAsync}, {@code flatMapValuesAsync}, {@code
 * processAsync}) made for a record failed on its last attempt: the call threw, its stage failed, or it
 * timed out. {@link #getCause()} is the last attempt's error (a {@link java.util.concurrent.TimeoutException}
 * for a timeout). Unless an {@code AsyncKeyedProcessor} handles it in {@code onFailure}, the
 * processing-error handler decides what becomes of the record, as for an exception a mapper threw. The
 * message names the operator and the number of attempts, never the record's payload.
 */
public final class AsyncCallFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** How many attempts were made. */
    private final int attempts;

    /**
     * A failure of the call of {@code operator}.
     *
     * @param operator the asynchronous operator's name
     * @param attempts how many attempts were made, at least 1
     * @param cause the last attempt's error
     */
    public AsyncCallFailedException(String operator, int attempts, Throwable cause) {
        super(
                "The asynchronous call of operator '" + operator + "' failed after " + attempts
                        + (attempts == 1 ? " attempt: " : " attempts: ") + Redaction.describe(cause),
                cause);
        this.attempts = attempts;
    }

    /**
     * How many attempts were made: the first and its retries.
     *
     * @return the number of attempts, at least 1
     */
    public int attempts() {
        return attempts;
    }
}
