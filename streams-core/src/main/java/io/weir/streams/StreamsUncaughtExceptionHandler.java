package io.weir.streams;

/** Decides what an instance does when one of its stream threads fails. */
@FunctionalInterface
public interface StreamsUncaughtExceptionHandler {

    /** The instance's answer to a failed thread. */
    enum Response {
        /** Start a new thread in place of the failed one; its tasks are reassigned and restored. */
        REPLACE_THREAD,
        /** Stop every thread of this instance and move to ERROR (the default). */
        SHUTDOWN_CLIENT
    }

    Response handle(Throwable exception);
}
