package io.weir.streams.internals.reset;

import org.jspecify.annotations.Nullable;

/** A reset that could not be done: Kafka failed, timed out or refused a request, or a file could not be deleted. */
public class ResetFailedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public ResetFailedException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
