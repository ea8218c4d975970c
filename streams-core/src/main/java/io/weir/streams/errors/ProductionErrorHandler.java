package io.weir.streams.errors;

/**
 * Decides what happens to a record a sink cannot produce: its key or value serializer throws, or the
 * record is larger than its topic accepts (see {@link ProductionError} for exactly which failures are
 * offered). Set per sink with {@code Produced.withErrorHandler}; the default is {@link #fail()}.
 * Repartition topics and changelogs have no handler: a record that cannot be written there always
 * fails the stream thread, since skipping it would corrupt state or downstream windows silently.
 *
 * <p>Counted per sink node ({@code sink:<topic>}): {@code records-production-skipped} for
 * {@link ErrorDecision#CONTINUE}, {@code records-dead-lettered} for a dead letter. Nothing of a skipped or
 * dead-lettered record reaches the sink topic, and the task's other outputs are not affected: under
 * exactly-once they commit in the same transaction as the dead letter. A handler that throws fails the
 * stream thread.
 */
@FunctionalInterface
public interface ProductionErrorHandler {

    /**
     * Decides what happens to a record that could not be produced.
     *
     * @param error the failure, whose message names the sink topic and the input record's coordinates
     * @return what to do with the record; never null
     */
    ErrorDecision handle(ProductionError error);

    /**
     * Fail the stream thread with the error (the default): the instance then follows its
     * uncaught-exception handler, and the input is read again from the last commit.
     *
     * @return a handler that always decides {@link ErrorDecision#FAIL}
     */
    static ProductionErrorHandler fail() {
        return error -> ErrorDecision.FAIL;
    }

    /**
     * Count, log at WARN with the sink topic and the input record's coordinates, and continue.
     *
     * @return a handler that always decides {@link ErrorDecision#CONTINUE}
     */
    static ProductionErrorHandler logAndContinue() {
        return error -> ErrorDecision.CONTINUE;
    }

    /**
     * Write the input record the failed record derives from to {@code topic}, as consumed (key, value and
     * headers untouched), with headers describing the failure ({@link DeadLetterRecord}); count it, log
     * it, continue. A record derived from a window result has no input bytes: its dead letter has a null
     * key and value and the failure headers only.
     *
     * @param topic the dead-letter topic; it must exist (Weir does not create it)
     * @return a handler that dead-letters every record that cannot be produced there
     */
    static ProductionErrorHandler deadLetterTo(String topic) {
        ErrorDecision decision = ErrorDecision.deadLetter(topic);
        return error -> decision;
    }
}
