package io.weir.streams.internals;

import java.util.concurrent.ExecutionException;

/** The exception behind a failed future, for messages and rethrows. */
public final class Causes {

    private Causes() {}

    /** The cause {@code e} wraps; {@code e} itself in the rare case it wraps none. */
    public static Throwable of(ExecutionException e) {
        Throwable cause = e.getCause();
        return cause != null ? cause : e;
    }
}
