package io.weir.streams.internals.task;

/**
 * Carries an exception thrown by a downstream operator up through its upstream operators, so that each
 * operator's processing-error handling sees only what its own code threw: the operator that threw
 * decided already. Unwrapped by {@link StreamTask} before it leaves the task.
 */
final class ForwardedFailure extends RuntimeException {

    private final RuntimeException failure;

    private ForwardedFailure(RuntimeException failure) {
        super(failure.getMessage(), failure, false, false);
        this.failure = failure;
    }

    /** {@code e}, wrapped once (a failure forwarded from further down is passed on as it is). */
    static ForwardedFailure of(RuntimeException e) {
        return e instanceof ForwardedFailure f ? f : new ForwardedFailure(e);
    }

    RuntimeException failure() {
        return failure;
    }
}
