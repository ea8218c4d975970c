package io.weir.streams.errors;

/** Decides what an instance does when one of its stream threads fails. */
@FunctionalInterface
public interface StreamsUncaughtExceptionHandler {

    /** The instance's answer to a failed thread. */
    enum Response {
        /**
         * Start a new thread in place of the failed one; its tasks are reassigned and restored. Once per
         * failing input record: a thread that fails again on the record an earlier thread failed on (a
         * poison record, which every replacement would meet again) is not replaced; the instance moves
         * to ERROR instead.
         */
        REPLACE_THREAD,
        /** Stop every thread of this instance and move to ERROR (the default). */
        SHUTDOWN_CLIENT
    }

    /**
     * Decides what the instance does about a failed stream thread. Called on that thread once it has shut
     * down; a handler that throws counts as {@link Response#SHUTDOWN_CLIENT}.
     *
     * @param exception what the thread failed with
     * @return the response; never null
     */
    Response handle(Throwable exception);
}
